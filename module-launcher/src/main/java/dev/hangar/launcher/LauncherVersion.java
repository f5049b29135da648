package dev.hangar.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the project version stamped into the jar at build time, and the Java runtime. Stateless. */
public final class LauncherVersion implements IVersionProvider {

    /** The project version, or "unknown" when the jar carries none. */
    public static String version() {
        try (InputStream in = LauncherVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"store-launcher (Hangar) " + version(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
    }
}
