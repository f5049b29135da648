package dev.hangar.store.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measurement, not a test (run on request: {@code mvn -B -ntp -pl module-store -am verify
 * -Dsurefire.failIfNoSpecifiedTests=false -Dtest=DispatchRateProbe -Dhangar.probe=true}): what the built-in
 * dispatch costs per record, in CPU time of each dispatch thread (named {@code hangar-reput*}), while one writer puts
 * 1 KiB messages (8 queues, a key and a tag each) in batches of 32. A thread's CPU nanoseconds per record bound the
 * rate it can follow on a machine where it has a core of its own: the dispatch keeps up with at most
 * 1e9 / (the busiest thread's ns per record) records a second. CPU time is counted, not wall time, so a loaded host
 * changes the figures less than it would a rate. Figures go to stdout; docs/PERFORMANCE.md has a run.
 */
@EnabledIfSystemProperty(named = "hangar.probe", matches = "true")
class DispatchRateProbe {
    private static final int WARM_UP = Integer.getInteger("hangar.probe.warmup", 200_000);
    private static final int MESSAGES = Integer.getInteger("hangar.probe.messages", 300_000);
    private static final int ROUNDS = Integer.getInteger("hangar.probe.rounds", 5);
    private static final String[][] ROWS = {
            {"consume-queue", "consume-queue", "one"},
            {"index", "index", "one"},
            {"both, one thread", "consume-queue,index", "one"},
            {"both, a thread each", "consume-queue,index", "per-dispatcher"},
    };
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @TempDir
    Path dir;

    @Test
    void dispatchCpuPerRecord() {
        StringBuilder table = new StringBuilder("| round | dispatchers | dispatch threads: CPU ns per record |"
                + " all dispatch threads ns/record | busiest thread bounds dispatch at, records/s |\n"
                + "|---:|---|---|---:|---:|\n");
        for (int round = 1; round <= ROUNDS; round++) {
            for (String[] row : ROWS) {
                table.append(measure(round, row)).append('\n');
            }
        }
        System.out.println("dispatch CPU probe, " + MESSAGES + " messages of 1 KiB per row:\n" + table);
    }

    /**
     * Dispatch alone, flat out: the store's ConsumeQueues and index are deleted and its start re-dispatches the whole
     * log (every lane in parallel), timed by the start itself ({@code RecoveryReport.redispatchNanos}). The reads
     * fault the log's pages into a new mapping, which live dispatch (reading the writer's pages) does not.
     */
    @Test
    void redispatchRateOnOpen() throws Exception {
        Path root = dir.resolve("redispatch");
        try (DefaultMessageStore store = open(root, "one")) {
            put(store, 0, MESSAGES);
        }
        StringBuilder table = new StringBuilder("| round | dispatchThreads | messages | ms | msg/s |\n"
                + "|---:|---|---:|---:|---:|\n");
        for (int round = 1; round <= ROUNDS; round++) {
            for (String threads : round % 2 == 0 ? new String[] {"one", "per-dispatcher"}
                    : new String[] {"per-dispatcher", "one"}) {
                TestStores.deleteTree(root.resolve("consumequeue"));
                TestStores.deleteTree(root.resolve("index"));
                try (DefaultMessageStore store = open(root, threads)) {
                    dev.hangar.store.recovery.RecoveryReport r = dev.hangar.store.TestInternals.recoveryReport(store);
                    assertTrue(r.redispatched() >= MESSAGES, "the whole log was re-dispatched: " + r);
                    table.append(String.format("| %d | %s | %d | %.1f | %.0f |%n", round, threads, r.redispatched(),
                            r.redispatchNanos() / 1e6, r.redispatched() / (r.redispatchNanos() / 1e9)));
                }
            }
        }
        System.out.println("re-dispatch on open, " + MESSAGES + " messages of 1 KiB:\n" + table);
    }

    private static DefaultMessageStore open(Path root, String threads) {
        return TestStores.started(root, "dispatchThreads", threads,
                "mappedFileSizeCommitLog", Integer.toString(128 << 20),
                "mappedFileSizeConsumeQueue", Integer.toString(300_000 * 20),
                "maxHashSlotNum", "5000000", "maxIndexNum", "20000000");
    }

    private String measure(int round, String[] row) {
        Path root = dir.resolve("r" + round + "-" + row[0].replace(' ', '_').replace(',', '_'));
        try (DefaultMessageStore store = TestStores.started(root, "dispatchers", row[1],
                "dispatchThreads", row[2],
                "mappedFileSizeCommitLog", Integer.toString(128 << 20),
                "mappedFileSizeConsumeQueue", Integer.toString(300_000 * 20),
                "maxHashSlotNum", "5000000", "maxIndexNum", "20000000")) {
            put(store, 0, WARM_UP);
            TestStores.await("the warm-up dispatched", () -> store.dispatchBehindBytes() == 0, 120_000);
            Map<String, Long> before = dispatchThreadCpu();
            put(store, WARM_UP, MESSAGES);
            TestStores.await("every record dispatched", () -> store.dispatchBehindBytes() == 0, 120_000);
            Map<String, Long> after = dispatchThreadCpu();
            StringBuilder perThread = new StringBuilder();
            long total = 0;
            long busiest = 0;
            for (Map.Entry<String, Long> e : after.entrySet()) {
                long nanos = e.getValue() - before.getOrDefault(e.getKey(), 0L);
                total += nanos;
                busiest = Math.max(busiest, nanos);
                perThread.append(perThread.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
                        .append(nanos / MESSAGES);
            }
            return String.format("| %d | %s | %s | %d | %.0f |", round, row[0], perThread, total / MESSAGES,
                    MESSAGES / (busiest / 1e9));
        }
    }

    private static Map<String, Long> dispatchThreadCpu() {
        Map<String, Long> out = new TreeMap<>();
        for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("hangar-reput")) {
                out.put(t.getThreadName(), THREADS.getThreadCpuTime(t.getThreadId()));
            }
        }
        return out;
    }

    private static void put(DefaultMessageStore store, int from, int count) {
        byte[] body = new byte[1024 - 200];
        for (int i = from; i < from + count; i += 32) {
            // a batch goes to one queue: 32 messages to queue (i / 32) % 8
            List<Message> batch = new ArrayList<>();
            for (int j = i; j < i + 32; j++) {
                Message m = new Message("DispatchProbe", body).queueId((i / 32) % 8);
                m.property("KEYS", "order-" + j);
                m.property("TAGS", "tag-" + (j % 16));
                batch.add(m);
            }
            assertEquals(PutMessageStatus.PUT_OK, store.putMessages(batch).status());
        }
    }
}
