package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.json.MiniJsonReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench warms up on a store of its own, says so, and reports how much of the put threads' time was its own. */
class BenchWarmupTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void keepLogFilesOutOfTheTemporaryStores() {
        System.setProperty(LoggingSetup.LOG_FILE_SWITCH, "false");
    }

    private LauncherRun onStore(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "--store";
        all[1] = dir.resolve("s").toString();
        all[2] = "-DmappedFileSizeCommitLog=4194304";
        System.arraycopy(args, 0, all, 3, args.length);
        return LauncherRun.of(Map.of(), "", all);
    }

    @Test
    void theWarmUpIsAnnouncedAndRunsOnTemporaryStoresThatAreDeletedBeforeTheTimedRun() throws Exception {
        LauncherRun bench = onStore("bench", "--messages", "400", "--size", "64", "--threads", "2", "--queues", "2",
                "--warmup", "2", "--json");
        assertEquals(0, bench.code(), bench.toString());
        Map<String, Object> figures = MiniJsonReader.object(bench.lines().get(0));
        long rounds = (Long) figures.get("warmupRounds");
        assertTrue(rounds >= 1 && rounds <= 2, figures.toString());
        long warmMessages = (Long) figures.get("warmupMessages");
        assertTrue(warmMessages > 0 && warmMessages <= 400 * (rounds + 1),
                "each round, and the page-cache round, at most the run's 400: " + figures);
        assertTrue(bench.err().contains("warm-up page-cache round (not counted, deleted right before the clock)"),
                bench.toString());
        assertTrue(bench.err().contains("warm-up round 1 (not counted, a new temporary store)"), bench.toString());
        assertEquals(400L, figures.get("keysBuiltBeforeClock"), "every key built before the clock");
        double own = ((Number) figures.get("benchOwnPercent")).doubleValue();
        assertTrue(own >= 0 && own <= 100, figures.toString());

        // the warm-up puts the same topics and keys, on its own stores: the benchmarked one holds exactly the timed
        // run's 400 messages, and each key once
        LauncherRun timed = onStore("get", "--topic", "BenchTopic0", "--queue", "0", "--max", "1000", "--json");
        assertEquals(200, timed.lines().size(), timed.toString());
        LauncherRun key = onStore("query", "--topic", "BenchTopic0", "--key", "key-0", "--json");
        assertEquals(1, key.lines().size(), key.toString());
        // and the warm-up's stores, beside it, are gone
        try (Stream<Path> beside = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("s")), beside.toList());
        }
    }

    @Test
    void noWarmUpWhenAskedForNone() {
        LauncherRun bench = onStore("bench", "--messages", "100", "--size", "64", "--warmup", "0", "--json");
        assertEquals(0, bench.code(), bench.toString());
        Map<String, Object> figures = MiniJsonReader.object(bench.lines().get(0));
        assertEquals(0L, figures.get("warmupRounds"));
        assertEquals(0L, figures.get("warmupMessages"));
        assertTrue(!bench.err().contains("warm-up"), bench.toString());
    }
}
