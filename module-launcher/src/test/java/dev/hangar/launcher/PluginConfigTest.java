package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.fixture.KeyedTestDispatcherProvider;
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

/** A plugin's own keys are accepted, validated and listed; a broken plugin jar is one line naming it. */
class PluginConfigTest {
    private static final String SERVICES = "META-INF/services/" + CommitLogDispatcherProvider.class.getName();

    @TempDir
    Path dir;

    @BeforeAll
    static void keepLogFilesOutOfTheTemporaryStores() {
        System.setProperty(LoggingSetup.LOG_FILE_SWITCH, "false");
    }

    /** A plugins folder with one jar whose services file names {@code provider}. */
    private Path pluginsWith(String jarName, String provider) throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins-" + jarName));
        try (OutputStream out = Files.newOutputStream(plugins.resolve(jarName));
             JarOutputStream jar = new JarOutputStream(out)) {
            jar.putNextEntry(new JarEntry(SERVICES));
            jar.write((provider + "\n").getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
        return plugins;
    }

    private LauncherRun run(Path plugins, String... args) {
        String[] all = new String[args.length + 4];
        all[0] = "--plugins";
        all[1] = plugins.toString();
        all[2] = "--store";
        all[3] = dir.resolve("store").toString();
        System.arraycopy(args, 0, all, 4, args.length);
        return LauncherRun.of(Map.of(), "", all);
    }

    @Test
    void aPluginsKeyIsListedWithItsSourceAndDeclaringModuleAndUsedByTheStore() throws IOException {
        Path plugins = pluginsWith("keyed.jar", KeyedTestDispatcherProvider.class.getName());
        LauncherRun config = run(plugins, "-Dkeyed-test.limit=9", "config");
        assertEquals(0, config.code(), config.toString());
        assertTrue(config.out().lines().anyMatch(l -> l.startsWith("keyed-test.limit") && l.contains("= 9")
                && l.contains("(-D; declared by ")), config.toString());
        LauncherRun defaults = run(plugins, "config", "--doc");
        assertTrue(defaults.out().contains("How many records the test dispatcher keeps"), defaults.toString());
        LauncherRun put = run(plugins, "-DmappedFileSizeCommitLog=1048576", "-Dkeyed-test.limit=3",
                "-Ddispatchers=consume-queue,index,keyed-test", "put", "--topic", "K", "--body", "x");
        assertEquals(0, put.code(), put.toString());
    }

    @Test
    void aPluginsKeyIsSetFromTheEnvironmentInUpperSnakeCase() throws IOException {
        Path plugins = pluginsWith("keyed.jar", KeyedTestDispatcherProvider.class.getName());
        LauncherRun config = LauncherRun.of(Map.of("HANGAR_KEYED_TEST_LIMIT", "7"), "", "--plugins",
                plugins.toString(), "--store", dir.resolve("store").toString(), "config");
        assertEquals(0, config.code(), config.toString());
        assertTrue(config.out().lines().anyMatch(l -> l.startsWith("keyed-test.limit") && l.contains("= 7")
                && l.contains("env HANGAR_KEYED_TEST_LIMIT")), config.toString());
    }

    @Test
    void aMisspeltOrBadPluginKeyStopsTheLauncherWithADidYouMean() throws IOException {
        Path plugins = pluginsWith("keyed.jar", KeyedTestDispatcherProvider.class.getName());
        LauncherRun misspelt = run(plugins, "-Dkeyed-test.limt=3", "config");
        assertEquals(StoreLauncher.EXIT_USAGE, misspelt.code(), misspelt.toString());
        assertTrue(misspelt.errorLines().get(0).contains("did you mean 'keyed-test.limit'"), misspelt.toString());
        LauncherRun outOfRange = run(plugins, "-Dkeyed-test.limit=500", "config");
        assertEquals(StoreLauncher.EXIT_USAGE, outOfRange.code(), outOfRange.toString());
        assertTrue(outOfRange.errorLines().get(0).contains("an integer from 1 to 100"), outOfRange.toString());
    }

    @Test
    void aKeyOfAPluginThatIsNotInstalledSaysWhereKeysComeFrom() throws IOException {
        LauncherRun run = run(Files.createDirectories(dir.resolve("empty")), "-Dtag-counter.topics=A", "config");
        assertEquals(StoreLauncher.EXIT_USAGE, run.code(), run.toString());
        assertTrue(run.errorLines().get(0).contains("is its plugin jar in the plugins folder?"), run.toString());
    }

    @Test
    void aBrokenPluginJarIsOneLineNamingTheJarAndTheCause() throws IOException {
        Path plugins = pluginsWith("broken.jar", "com.example.MissingDispatcherProvider");
        LauncherRun run = run(plugins, "plugins");
        assertEquals(StoreLauncher.EXIT_USAGE, run.code(), run.toString());
        assertEquals(1, run.errorLines().size(), run.toString());
        String line = run.errorLines().get(0);
        assertTrue(line.contains("broken.jar") && line.contains("com.example.MissingDispatcherProvider"), line);
        assertFalse(run.err().contains("\tat "), "no stack trace: " + run);
    }
}
