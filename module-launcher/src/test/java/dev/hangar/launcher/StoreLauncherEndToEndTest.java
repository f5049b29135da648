package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.json.MiniJsonReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the launcher's commands in-process against a real store in a temporary directory. */
class StoreLauncherEndToEndTest {
    private static final List<String> MESSAGE_FIELDS = List.of("topic", "queueId", "queueOffset", "commitLogOffset",
            "msgId", "storeTimestamp", "bornTimestamp", "sysFlag", "flag", "keys", "tags", "properties", "bodyCrc",
            "bodySize", "bodyBase64");

    @TempDir
    Path dir;

    @BeforeAll
    static void keepLogFilesOutOfTheTemporaryStores() {
        System.setProperty(LoggingSetup.LOG_FILE_SWITCH, "false");
    }

    private Path store() {
        return dir.resolve("store");
    }

    /** Runs a command on the test store, with small commit-log files. */
    private LauncherRun onStore(String stdin, Map<String, String> env, String... command) {
        List<String> args = new ArrayList<>(List.of("--store", store().toString(), "-DmappedFileSizeCommitLog=1048576"));
        args.addAll(List.of(command));
        return LauncherRun.of(env, stdin, args.toArray(String[]::new));
    }

    private LauncherRun onStore(String... command) {
        return onStore("", Map.of(), command);
    }

    private static Map<String, Object> json(String line) {
        return MiniJsonReader.object(line);
    }

    @Test
    void aStoreWrittenWithSmallFilesOpensWithoutTheFlagAndAContradictingFlagIsRefused() {
        String storeDir = store().toString();
        assertEquals(0, LauncherRun.of(Map.of(), "", "--store", storeDir, "-DmappedFileSizeCommitLog=1048576",
                "-DmappedFileSizeConsumeQueue=2000", "put", "--topic", "Geo", "--key", "g1", "--body", "x").code());
        for (String[] command : List.of(new String[] {"stat"}, new String[] {"verify"},
                new String[] {"get", "--topic", "Geo", "--queue", "0"}, new String[] {"query", "--topic", "Geo", "--key", "g1"},
                new String[] {"put", "--topic", "Geo", "--body", "y"})) {
            List<String> args = new ArrayList<>(List.of("--store", storeDir));
            args.addAll(List.of(command));
            LauncherRun run = LauncherRun.of(Map.of(), "", args.toArray(String[]::new));
            assertEquals(0, run.code(), String.join(" ", command) + ": " + run);
        }
        LauncherRun config = LauncherRun.of(Map.of(), "", "--store", storeDir, "config");
        assertTrue(config.out().lines().anyMatch(l -> l.contains("mappedFileSizeCommitLog") && l.contains("1048576")
                && l.contains("store's files")), config.toString());
        LauncherRun wrong = LauncherRun.of(Map.of(), "", "--store", storeDir, "-DmappedFileSizeConsumeQueue=6000000",
                "stat");
        assertEquals(StoreLauncher.EXIT_USAGE, wrong.code(), wrong.toString());
        assertTrue(wrong.errorLines().get(0).contains("6000000") && wrong.errorLines().get(0).contains("2000"),
                wrong.toString());
    }

    @Test
    void readCommandsOnAStoreThatNeedsRecoveryNameItAndChangeNothing() throws Exception {
        assertEquals(0, onStore("put", "--topic", "Crashed", "--key", "c1", "--body", "x").code());
        Files.createFile(store().resolve("abort"));
        long checkpointTime = Files.getLastModifiedTime(store().resolve("checkpoint")).toMillis();
        for (String[] command : List.of(new String[] {"stat"}, new String[] {"get", "--topic", "Crashed", "--queue", "0"},
                new String[] {"query", "--topic", "Crashed", "--key", "c1"})) {
            LauncherRun run = onStore(command);
            assertEquals(1, run.code(), run.toString());
            assertEquals(1, run.errorLines().size(), run.toString());
            assertTrue(run.errorLines().get(0).contains("needs recovery"), run.toString());
        }
        assertTrue(Files.exists(store().resolve("abort")), "the abort marker is left for a writer");
        assertEquals(checkpointTime, Files.getLastModifiedTime(store().resolve("checkpoint")).toMillis());
        assertEquals(0, onStore("put", "--topic", "Crashed", "--body", "y").code(), "a writer recovers it");
        LauncherRun get = onStore("get", "--topic", "Crashed", "--queue", "0");
        assertEquals(0, get.code(), get.toString());
        assertEquals(2, get.lines().size(), get.toString());
    }

    @Test
    void putThenGetThenQueryPrintEveryContractField() {
        LauncherRun put = onStore("put", "--topic", "Smoke", "--queue", "0", "--key", "k1", "--tag", "t",
                "--property", "a=b", "--body", "hello");
        assertEquals(0, put.code(), put.toString());
        assertTrue(put.out().startsWith("PUT_OK msgId="), put.toString());

        LauncherRun putJson = onStore("put", "--topic", "Smoke", "--queue", "0", "--body", "j", "--json");
        assertEquals(0, putJson.code(), putJson.toString());
        Map<String, Object> second = json(putJson.lines().get(0));
        assertEquals("PUT_OK", second.get("status"));
        assertEquals(1L, second.get("queueOffset"));
        assertEquals(0L, second.get("queueId"));
        assertTrue(((Long) second.get("commitLogOffset")) > 0);
        assertEquals(32, ((String) second.get("msgId")).length());

        LauncherRun get = onStore("get", "--topic", "Smoke", "--queue", "0", "--offset", "0", "--max", "10", "--json");
        assertEquals(0, get.code(), get.toString());
        assertEquals(2, get.lines().size(), get.toString());
        Map<String, Object> first = json(get.lines().get(0));
        assertEquals(MESSAGE_FIELDS, List.copyOf(first.keySet()));
        assertEquals("Smoke", first.get("topic"));
        assertEquals(0L, first.get("queueOffset"));
        assertEquals(0L, first.get("commitLogOffset"));
        assertEquals("k1", first.get("keys"));
        assertEquals("t", first.get("tags"));
        assertEquals("b", ((Map<?, ?>) first.get("properties")).get("a"));
        assertEquals(5L, first.get("bodySize"));
        assertEquals("hello", new String(Base64.getDecoder().decode((String) first.get("bodyBase64")),
                StandardCharsets.UTF_8));
        assertTrue(put.out().contains("msgId=" + first.get("msgId")), put.out());
        assertEquals(second.get("msgId"), json(get.lines().get(1)).get("msgId"));

        LauncherRun query = onStore("query", "--topic", "Smoke", "--key", "k1", "--json");
        assertEquals(0, query.code(), query.toString());
        assertEquals(1, query.lines().size(), query.toString());
        Map<String, Object> found = json(query.lines().get(0));
        assertEquals(MESSAGE_FIELDS, List.copyOf(found.keySet()));
        assertEquals(first.get("msgId"), found.get("msgId"));
    }

    @Test
    void putLinesPutsOneMessagePerStdinLine() {
        LauncherRun put = onStore("x\ny\n", Map.of(), "put", "--topic", "Lines", "--queue", "1", "--lines");
        assertEquals(0, put.code(), put.toString());
        assertEquals(2, put.lines().size(), put.toString());

        LauncherRun get = onStore("get", "--topic", "Lines", "--queue", "1", "--json");
        List<String> bodies = get.lines().stream()
                .map(l -> new String(Base64.getDecoder().decode((String) json(l).get("bodyBase64")), StandardCharsets.UTF_8))
                .toList();
        assertEquals(List.of("x", "y"), bodies, get.toString());
    }

    @Test
    void anIllegalTopicIsRefusedWithOneErrorLineAndANonZeroExit() {
        LauncherRun put = onStore("put", "--topic", "../x", "--body", "x", "--json");
        assertEquals(1, put.code(), put.toString());
        assertEquals("MESSAGE_ILLEGAL", json(put.lines().get(0)).get("status"));
        assertEquals(1, put.errorLines().size(), put.toString());
        assertTrue(put.errorLines().get(0).contains("MESSAGE_ILLEGAL"), put.toString());
        // consumequeue/../x would be <store>/x
        assertFalse(Files.exists(store().resolve("x")), "the topic did not become a directory");
    }

    @Test
    void logLevelsAreSetByDashDBeforeTheCommandNotTakenForStoreKeys() {
        String before = System.getProperty("hangar.log.level");
        try {
            LauncherRun put = onStore("-Dhangar.log.level=error", "put", "--topic", "L", "--body", "x");
            assertEquals(0, put.code(), put.toString());
            assertEquals("error", System.getProperty("hangar.log.level"));
        } finally {
            if (before == null) {
                System.clearProperty("hangar.log.level");
            } else {
                System.setProperty("hangar.log.level", before);
            }
        }
    }

    @Test
    void anUnknownConfigurationKeyFailsBeforeTheStoreIsTouched() {
        LauncherRun run = onStore("-DflushDiskTpe=SYNC_FLUSH", "stat");
        assertEquals(2, run.code(), run.toString());
        assertEquals(List.of("error: unknown configuration key 'flushDiskTpe' (from -D); did you mean "
                + "'flushDiskType'?; `store-launcher config` lists every key"), run.errorLines());
        assertFalse(Files.exists(store()));
    }

    @Test
    void aWriteBufferServesSyncFlushThroughTheGroupCommitThatCommitsBeforeItForces() {
        // SYNC_FLUSH with mappedFile=transient-pool was refused until group-commit committed the write buffer
        LauncherRun bench = onStore("-DmappedFile=transient-pool", "-DflushDiskType=SYNC_FLUSH",
                "-DmappedFileSizeCommitLog=1048576", "-DtransientStorePoolSize=2", "bench", "--messages", "3000",
                "--size", "100", "--threads", "2", "--queues", "1", "--inflight", "16", "--json");
        assertEquals(0, bench.code(), bench.toString());
        Map<String, Object> figures = json(bench.lines().get(0));
        assertEquals("group-commit", figures.get("flushService"));
        assertEquals(3000L, figures.get("messages"));
        assertEquals(0L, figures.get("failed"));
        LauncherRun get = onStore("-DmappedFile=transient-pool", "-DmappedFileSizeCommitLog=1048576",
                "-DtransientStorePoolSize=2", "get", "--topic", "BenchTopic0", "--queue", "0", "--max", "5000", "--json");
        assertEquals(3000, get.lines().size(), get.toString());
    }

    @Test
    void readCommandsRefuseAStoreThatDoesNotExist() {
        LauncherRun get = onStore("get", "--topic", "T", "--queue", "0");
        assertEquals(1, get.code(), get.toString());
        assertTrue(get.errorLines().get(0).startsWith("error: no store at "), get.toString());
        assertFalse(Files.exists(store()));
    }

    @Test
    void usageErrorsAreOneLineWithAHint() {
        LauncherRun noBody = onStore("put", "--topic", "T");
        assertEquals(2, noBody.code(), noBody.toString());
        assertEquals(1, noBody.errorLines().size(), noBody.toString());
        assertTrue(noBody.errorLines().get(0).contains("--body"), noBody.toString());

        LauncherRun typo = onStore("stats");
        assertEquals(2, typo.code(), typo.toString());
        assertTrue(typo.errorLines().get(0).contains("did you mean stat?"), typo.toString());
    }

    @Test
    void configShowsEveryKeyWithItsValueAndSource() {
        LauncherRun config = onStore("", Map.of("HANGAR_FLUSH_DISK_TYPE", "SYNC_FLUSH"), "config", "--json");
        assertEquals(0, config.code(), config.toString());
        Map<String, Object> keys = json(config.lines().get(0));
        // the engine's keys and those the providers on the class path declare (module-raft's raft.*, a test
        // dependency of this module)
        assertEquals(dev.hangar.spi.config.StoreConfigKeys.all().size()
                + dev.hangar.store.assembly.ProviderRegistry.discover(null).declaredKeys().size(), keys.size());
        Map<?, ?> flush = (Map<?, ?>) keys.get("flushDiskType");
        assertEquals("SYNC_FLUSH", flush.get("value"));
        assertEquals("env HANGAR_FLUSH_DISK_TYPE", flush.get("source"));
        Map<?, ?> size = (Map<?, ?>) keys.get("mappedFileSizeCommitLog");
        assertEquals(1048576L, size.get("value"));
        assertEquals("-D", size.get("source"));
        assertEquals("--store", ((Map<?, ?>) keys.get("storePathRootDir")).get("source"));
        assertFalse(Files.exists(store()), "config opens no store");
    }

    @Test
    void pluginsListsEveryBuiltInProviderWithItsModule() {
        LauncherRun plugins = LauncherRun.of(Map.of(), "", "plugins", "--json");
        assertEquals(0, plugins.code(), plugins.toString());
        List<?> all = (List<?>) MiniJsonReader.parse(plugins.lines().get(0));
        List<String> names = new ArrayList<>();
        for (Object o : all) {
            Map<?, ?> p = (Map<?, ?>) o;
            assertEquals(List.of("spi", "name", "module", "description", "plugin"), List.copyOf(p.keySet()));
            assertEquals(Boolean.FALSE, p.get("plugin"));
            names.add(p.get("spi") + "/" + p.get("name"));
        }
        assertTrue(names.containsAll(List.of("PutMessageLockProvider/reentrant", "PutMessageLockProvider/spin",
                "MappedStorageProvider/mmap", "FlushCommitLogServiceProvider/realtime",
                "FlushCommitLogServiceProvider/group-commit", "CommitLogDispatcherProvider/consume-queue",
                "CommitLogDispatcherProvider/index")), names.toString());
    }

    @Test
    void statPrintsTheSnapshotAsJson() {
        assertEquals(0, onStore("put", "--topic", "S", "--body", "b").code());
        LauncherRun stat = onStore("stat", "--json");
        assertEquals(0, stat.code(), stat.toString());
        assertEquals(1, stat.lines().size(), stat.toString());
        assertFalse(json(stat.lines().get(0)).isEmpty());
    }

    @Test
    void benchPutsEveryMessageReadableByQueueAndKeyAndReportsItsFigures() {
        LauncherRun bench = onStore("bench", "--messages", "2000", "--size", "100", "--threads", "2", "--topics", "2",
                "--queues", "2", "--batch", "4", "--json");
        assertEquals(0, bench.code(), bench.toString());
        Map<String, Object> figures = json(bench.lines().get(0));
        assertHasEveryBenchField(figures);
        assertEquals(2000L, figures.get("messages"));
        assertEquals(4L, figures.get("batch"));
        assertEquals("call start", figures.get("latencyFrom"));
        assertEquals(0L, figures.get("failed"));
        assertTrue(((Map<?, ?>) figures.get("latencyMicros")).keySet().containsAll(List.of("p50", "p99", "p999", "max")));
        assertEquals("reentrant", figures.get("putMessageLock"));
        assertEquals("realtime", figures.get("flushService"));

        // 500 batches of 4, round-robin over 2 topics x 2 queues: 500 messages in each queue
        LauncherRun get = onStore("get", "--topic", "BenchTopic1", "--queue", "1", "--max", "1000", "--json");
        assertEquals(500, get.lines().size(), get.toString());
        assertEquals(499L, json(get.lines().get(499)).get("queueOffset"));
        // message 1999 is in batch 499, which went to topic 499 % 2
        LauncherRun query = onStore("query", "--topic", "BenchTopic1", "--key", "key-1999", "--json");
        assertEquals(0, query.code(), query.toString());
        assertEquals("key-1999", json(query.lines().get(0)).get("keys"));
    }

    private static final List<String> BENCH_FIELDS = List.of("messages", "failed", "putSeconds", "putTps",
            "mbPerSecond", "dispatchedSeconds", "latencyMicros", "flushes", "messagesPerFlush", "putMessageLock",
            "flushService", "mappedFile");

    private static void assertHasEveryBenchField(Map<String, Object> figures) {
        for (String field : BENCH_FIELDS) {
            assertTrue(figures.containsKey(field), field + " missing: " + figures);
        }
        assertTrue(((Map<?, ?>) figures.get("latencyMicros")).keySet().containsAll(List.of("p50", "p99", "p999", "max")));
    }

    @Test
    void benchAtAFixedRateForADurationMeasuresLatencyFromTheIntendedSendTime() {
        LauncherRun bench = onStore("bench", "--rate", "1000", "--duration", "1", "--size", "64", "--threads", "2",
                "--json");
        assertEquals(0, bench.code(), bench.toString());
        Map<String, Object> figures = json(bench.lines().get(0));
        assertHasEveryBenchField(figures);
        // message n is due n ms after the start: exactly those due within the second are sent
        assertEquals(1000L, figures.get("messages"));
        assertEquals(0L, figures.get("failed"));
        assertEquals(1000L, figures.get("rate"));
        assertEquals(1L, figures.get("durationSeconds"));
        assertEquals("intended send time", figures.get("latencyFrom"));
        Map<?, ?> latency = (Map<?, ?>) figures.get("latencyMicros");
        assertTrue((Long) latency.get("p50") <= (Long) latency.get("p99") && (Long) latency.get("p99") <= (Long) latency.get("max"));
        LauncherRun get = onStore("get", "--topic", "BenchTopic0", "--queue", "3", "--max", "1000", "--json");
        assertEquals(250, get.lines().size(), "every fourth message went to queue 3");
    }

    @Test
    void benchRefusesMessagesAndDurationTogether() {
        LauncherRun bench = onStore("bench", "--messages", "10", "--duration", "1");
        assertEquals(2, bench.code(), bench.toString());
        assertTrue(bench.errorLines().get(0).contains("not both"), bench.toString());
        assertFalse(Files.exists(store()), "refused before the store was opened");
    }

    @Test
    void everyCommandHasHelpWithExamples() {
        for (String command : List.of("serve", "bench", "put", "get", "query", "stat", "verify", "clean", "plugins",
                "config")) {
            LauncherRun help = LauncherRun.of(Map.of(), "", command, "--help");
            assertEquals(0, help.code(), help.toString());
            assertTrue(help.out().contains("Usage: store-launcher " + command), help.toString());
            assertTrue(help.out().contains("Examples:"), command + " --help has examples:\n" + help.out());
        }
    }

    @Test
    void benchWithPutsInFlightUnderSyncFlushAnswersEveryPutAndKeepsQueueOrder() {
        LauncherRun bench = onStore("-DflushDiskType=SYNC_FLUSH", "bench", "--messages", "3000", "--size", "100",
                "--threads", "2", "--queues", "1", "--inflight", "64", "--json");
        assertEquals(0, bench.code(), bench.toString());
        Map<String, Object> figures = json(bench.lines().get(0));
        assertEquals(3000L, figures.get("messages"));
        assertEquals(64L, figures.get("inflight"));
        assertEquals(0L, figures.get("failed"));
        LauncherRun get = onStore("get", "--topic", "BenchTopic0", "--queue", "0", "--max", "5000", "--json");
        assertEquals(3000, get.lines().size(), get.toString());
        assertEquals(2999L, json(get.lines().get(2999)).get("queueOffset"));
    }

    @Test
    void benchRefusesAnInflightOutsideItsRange() {
        LauncherRun bench = onStore("bench", "--messages", "10", "--inflight", "0");
        assertEquals(2, bench.code(), bench.toString());
        assertTrue(bench.errorLines().get(0).contains("--inflight"), bench.toString());
    }

    @Test
    void benchTakesDefinitionsGivenBeforeTheCommand() {
        LauncherRun bench = onStore("-DflushDiskType=SYNC_FLUSH", "bench", "--messages", "200", "--size", "100",
                "--threads", "2", "--json");
        assertEquals(0, bench.code(), bench.toString());
        assertEquals("group-commit", json(bench.lines().get(0)).get("flushService"));
        try (Stream<Path> files = Files.list(store().resolve("commitlog"))) {
            assertTrue(files.findAny().isPresent());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void versionAndHelpSucceed() {
        LauncherRun version = LauncherRun.of(Map.of(), "", "--version");
        assertEquals(0, version.code());
        assertTrue(version.out().startsWith("store-launcher (Hangar) "), version.toString());
        LauncherRun help = LauncherRun.of(Map.of(), "", "--help");
        assertEquals(0, help.code());
        for (String command : List.of("serve", "put", "get", "query", "stat", "verify", "clean", "bench", "plugins",
                "config")) {
            assertTrue(help.out().contains(command), command + " missing from --help");
        }
    }
}
