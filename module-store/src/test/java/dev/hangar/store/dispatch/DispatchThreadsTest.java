package dev.hangar.store.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestInternals;
import dev.hangar.store.TestStores;
import dev.hangar.store.plugin.GatedBuiltInDispatcherProvider;
import dev.hangar.store.reput.ReputMessageService;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dispatchThreads=per-dispatcher}: the ConsumeQueue and the index each follow the CommitLog on a thread of
 * their own. What one thread gave for free must still hold: "dispatched" means dispatched by every thread (a caller
 * that waits for {@code dispatchBehindBytes() == 0} finds every record by queue and by key), queue offsets stay
 * contiguous per queue, and a restart that re-dispatches starts each dispatcher where the slowest one stopped.
 */
class DispatchThreadsTest {
    private static final int WRITERS = 8;
    private static final int PUTS_PER_WRITER = 1_500;
    private static final int QUEUES = 4;

    @TempDir
    Path dir;

    @Test
    void aThreadPerDispatcherBuildsEveryQueueAndEveryKey() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchThreads", "per-dispatcher")) {
            ReputMessageService reput = TestInternals.reput(store);
            assertEquals(2, reput.threads(), "a dispatch thread for the ConsumeQueue and one for the index");
            assertEquals(Set.of("hangar-reput", "hangar-reput-index"), dispatchThreadNames());
            putFromManyWriters(store, "Lanes");
            // every put of every writer returned, so every record is visible: 0 behind means both threads published
            TestStores.await("dispatched by both threads", () -> store.dispatchBehindBytes() == 0);
            assertEveryQueueContiguousAndEveryKeyFound(store, "Lanes");
        }
    }

    /**
     * A dispatcher that falls behind holds back only its own thread: the ConsumeQueue goes on, while "behind" (what
     * the put back-pressure, topic deletion and replication wait on) counts from the slowest thread until it catches
     * up.
     */
    @Test
    void behindCountsFromTheSlowestThreadWhileTheOthersGoOn() {
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchThreads", "per-dispatcher",
                "dispatchers", "consume-queue,index," + GatedBuiltInDispatcherProvider.NAME)) {
            assertEquals(3, TestInternals.reput(store).threads());
            GatedBuiltInDispatcherProvider.close();
            try {
                for (int i = 0; i < 100; i++) {
                    assertTrue(store.putMessage(TestStores.message("Gated", 0, "m" + i)).isOk());
                }
                TestStores.await("the ConsumeQueue's thread went on", () -> store.getMaxOffsetInQueue("Gated", 0) == 100);
                assertTrue(store.dispatchBehindBytes() > 0, "the gated thread has not published its records");
            } finally {
                GatedBuiltInDispatcherProvider.open();
            }
            TestStores.await("the gated thread caught up", () -> store.dispatchBehindBytes() == 0);
        }
    }

    @Test
    void oneThreadFeedsBothDispatchersWhenAskedTo() {
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchThreads", "one")) {
            assertEquals(1, TestInternals.reput(store).threads());
            assertEquals(Set.of("hangar-reput"), dispatchThreadNames());
        }
    }

    /**
     * A restart after the index (or the ConsumeQueue) was lost re-dispatches from the lower of the two dispatchers'
     * durable offsets, on both threads in parallel; each dispatcher skips what it already has.
     */
    @Test
    void aRestartRebuildsWhicheverDispatcherLostItsFiles() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchThreads", "per-dispatcher")) {
            putFromManyWriters(store, "Rebuilt");
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
        }
        for (String lost : new String[] {"index", "consumequeue"}) {
            TestStores.deleteTree(dir.resolve(lost));
            try (DefaultMessageStore store = TestStores.started(dir, "dispatchThreads", "per-dispatcher")) {
                assertEquals(0, store.dispatchBehindBytes(), "the start re-dispatched everything before returning");
                assertEveryQueueContiguousAndEveryKeyFound(store, "Rebuilt");
            }
        }
    }

    private static void putFromManyWriters(DefaultMessageStore store, String topic) throws InterruptedException {
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < PUTS_PER_WRITER; i++) {
                        Message m = TestStores.message(topic, (writer + i) % QUEUES, "w" + writer + "-" + i);
                        m.property("KEYS", key(writer, i));
                        assertTrue(store.putMessage(m).isOk(), "put " + writer + "/" + i);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "writer-" + w);
            writers.add(t);
            t.start();
        }
        for (Thread t : writers) {
            t.join();
        }
        assertTrue(failures.isEmpty(), () -> "a writer failed: " + failures);
    }

    private static String key(int writer, int i) {
        return "key-" + writer + "-" + i;
    }

    private static void assertEveryQueueContiguousAndEveryKeyFound(DefaultMessageStore store, String topic) {
        int total = 0;
        long lastCommitLogOffset = -1;
        for (int q = 0; q < QUEUES; q++) {
            long max = store.getMaxOffsetInQueue(topic, q);
            long offset = 0;
            lastCommitLogOffset = -1;
            while (offset < max) {
                GetMessageResult r = store.getMessage("check", topic, q, offset, 32, null);
                assertTrue(!r.messages().isEmpty(), "queue " + q + " has no message at " + offset + " of " + max);
                for (StoredMessage m : r.messages()) {
                    assertEquals(offset, m.queueOffset(), "queue " + q + " is contiguous");
                    assertTrue(m.commitLogOffset() > lastCommitLogOffset, "queue " + q + " follows the log's order");
                    lastCommitLogOffset = m.commitLogOffset();
                    offset++;
                }
            }
            total += (int) max;
        }
        assertEquals(WRITERS * PUTS_PER_WRITER, total, "every put is in a queue");
        for (int w = 0; w < WRITERS; w++) {
            for (int i = 0; i < PUTS_PER_WRITER; i += 7) {
                List<StoredMessage> found = store.queryMessage(topic, key(w, i), 4, 0, Long.MAX_VALUE).messages();
                assertEquals(1, found.size(), "key " + key(w, i) + " is in the index once");
                assertEquals("w" + w + "-" + i, new String(found.get(0).body(), StandardCharsets.UTF_8));
            }
        }
    }

    private static Set<String> dispatchThreadNames() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("hangar-reput")).collect(Collectors.toSet());
    }
}
