package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code consume --follow} as an operator runs it: a separate JVM that prints what is there, commits, waits for more,
 * and on SIGTERM shuts the store down cleanly (no abort file) and exits 0, its commits kept.
 */
class ConsumeFollowProcessTest {
    @TempDir
    Path dir;

    @Test
    void sigtermEndsAFollowCleanlyWithItsCommitsKept() throws Exception {
        Path store = dir.resolve("store");
        LauncherRun put = LauncherRun.of(Map.of(), "a\nb\nc\n", "--store", store.toString(),
                "-DmappedFileSizeCommitLog=1048576", "put", "--topic", "Followed", "--lines");
        assertEquals(0, put.code(), put.toString());
        Process follow = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dhangar.log.file=false",
                StoreLauncher.class.getName(), "--store", store.toString(), "consume", "--group", "tail",
                "--topic", "Followed", "--follow")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader stdout = new BufferedReader(new InputStreamReader(follow.getInputStream(), StandardCharsets.UTF_8));
            for (int i = 0; i < 3; i++) {
                String line = CompletableFuture.supplyAsync(() -> {
                    try {
                        return stdout.readLine();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }).get(60, TimeUnit.SECONDS);
                assertTrue(line != null && line.contains("queueOffset=" + i), line);
            }
            // still running a while after the last message: a follow that ended at the queue's end fails at once
            assertFalse(follow.waitFor(300, TimeUnit.MILLISECONDS), "--follow waits for more");
            follow.destroy(); // SIGTERM
            assertTrue(follow.waitFor(60, TimeUnit.SECONDS), "a follow stops on SIGTERM");
            assertEquals(0, follow.exitValue());
        } finally {
            follow.destroyForcibly();
        }
        assertFalse(Files.exists(store.resolve("abort")), "the store was shut down cleanly");
        LauncherRun groups = LauncherRun.of(Map.of(), "", "--store", store.toString(), "groups");
        assertEquals(0, groups.code(), groups.toString());
        assertEquals(List.of("tail  lag 0", "  Followed queue 0: committed 3, max 3, lag 0"), groups.lines());
    }
}
