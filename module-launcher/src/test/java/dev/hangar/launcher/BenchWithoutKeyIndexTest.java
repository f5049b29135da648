package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.json.MiniJsonReader;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench waits only for the reads the configured dispatchers can answer, and says which it skips. */
class BenchWithoutKeyIndexTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void keepLogFilesOutOfTheTemporaryStores() {
        System.setProperty(LoggingSetup.LOG_FILE_SWITCH, "false");
    }

    @Test
    void benchWithOnlyTheConsumeQueueFinishesAndSaysKeysAreNotChecked() {
        LauncherRun bench = LauncherRun.of(Map.of(), "", "--store", dir.resolve("s").toString(),
                "-DmappedFileSizeCommitLog=1048576", "-Ddispatchers=consume-queue",
                "bench", "--messages", "300", "--size", "64", "--threads", "2", "--json");
        assertEquals(0, bench.code(), bench.toString());
        Map<String, Object> figures = MiniJsonReader.object(bench.lines().get(0));
        assertEquals(300L, figures.get("messages"));
        assertEquals(0L, figures.get("failed"));
        assertTrue(bench.err().contains("offer no key index") && bench.err().contains("readable by queue offset"),
                bench.toString());
    }

    @Test
    void benchWithBothReadSidesSaysNothingAboutSkippedChecks() {
        LauncherRun bench = LauncherRun.of(Map.of(), "", "--store", dir.resolve("s").toString(),
                "-DmappedFileSizeCommitLog=1048576", "bench", "--messages", "100", "--size", "64", "--json");
        assertEquals(0, bench.code(), bench.toString());
        assertTrue(!bench.err().contains("offer no"), bench.toString());
    }
}
