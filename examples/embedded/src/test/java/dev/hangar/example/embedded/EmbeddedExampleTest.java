package dev.hangar.example.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedding walk-through works on the class path (this JVM) and on the module path (a child JVM). */
class EmbeddedExampleTest {
    @TempDir
    Path dir;

    private static void assertWalkThrough(String out) {
        assertTrue(out.contains("sync put: PUT_OK"), out);
        assertTrue(out.contains("async put: PUT_OK"), out);
        assertTrue(out.contains(": order 1 [created]") && out.contains(": order 2 [paid]"), out);
        assertTrue(out.contains("key order-2: order 2"), out);
    }

    @Test
    void onTheClassPathItPutsReadsByOffsetAndKeyAndHearsBothArrivals() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int read = EmbeddedExample.run(dir.resolve("store"), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(3, read, "two by queue offset, one by key");
        assertWalkThrough(bytes.toString(StandardCharsets.UTF_8));
        // reopened, the store has both and a second run appends after them
        bytes.reset();
        EmbeddedExample.run(dir.resolve("store"), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("queue offset 2: order 1"), bytes.toString());
    }

    @Test
    void onTheModulePathTheEngineFindsTheProvidersAsModules() throws Exception {
        Path modulePath = Path.of("target", "module-path");
        assertTrue(Files.isDirectory(modulePath), "the build copies the runtime jars to " + modulePath);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "--module-path",
                Path.of("target", "classes") + File.pathSeparator + modulePath,
                "-m", "dev.hangar.example.embedded/dev.hangar.example.embedded.EmbeddedExample",
                dir.resolve("module-store").toString()))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assertWalkThrough(out);
    }
}
