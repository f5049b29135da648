package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.fixture.VerifyingTestDispatcherProvider;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code verify} lets a plugin from the plugins folder check its own files through its provider's hook. */
class PluginVerifyTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void keepLogFilesOutOfTheTemporaryStores() {
        System.setProperty(LoggingSetup.LOG_FILE_SWITCH, "false");
    }

    @Test
    void aPluginsVerifyHookReportsIntoTheVerifyOutput() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        try (OutputStream out = Files.newOutputStream(plugins.resolve("verifying.jar"));
             JarOutputStream jar = new JarOutputStream(out)) {
            jar.putNextEntry(new JarEntry("META-INF/services/" + CommitLogDispatcherProvider.class.getName()));
            jar.write((VerifyingTestDispatcherProvider.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
        String store = dir.resolve("store").toString();
        LauncherRun put = LauncherRun.of(Map.of(), "", "--store", store, "-DmappedFileSizeCommitLog=1048576",
                "put", "--topic", "V", "--body", "x");
        assertEquals(0, put.code(), put.toString());

        LauncherRun without = LauncherRun.of(Map.of(), "", "--store", store, "-DmappedFileSizeCommitLog=1048576",
                "verify", "--strict");
        assertEquals(0, without.code(), "no plugin, nothing to warn about: " + without);

        LauncherRun with = LauncherRun.of(Map.of(), "", "--plugins", plugins.toString(), "--store", store,
                "-DmappedFileSizeCommitLog=1048576", "verify", "--strict");
        assertEquals(1, with.code(), "the plugin's warning fails --strict: " + with);
        assertTrue(with.out().lines().anyMatch(l -> l.startsWith("WARNING") && l.contains("verifying-test")
                && l.contains("checked by the plugin up to commit-log offset ")), with.toString());
        assertTrue(with.out().contains("verifyingTestChecks 1"), with.toString());
    }
}
