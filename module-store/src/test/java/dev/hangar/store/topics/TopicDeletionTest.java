package dev.hangar.store.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.ConsumerOffsets;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deleting a topic's queues through the engine API, and what a restart after it finds. */
class TopicDeletionTest {
    @TempDir
    Path dir;

    private static List<PutMessageResult> fill(DefaultMessageStore store, String topic, int queues, int perQueue,
                                               String prefix) {
        List<PutMessageResult> results = new ArrayList<>();
        for (int i = 0; i < queues * perQueue; i++) {
            PutMessageResult r = store.putMessage(TestStores.message(topic, i % queues, prefix + i));
            assertTrue(r.isOk(), r.toString());
            results.add(r);
        }
        TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
        return results;
    }

    private static String body(StoredMessage m) {
        return new String(m.body(), StandardCharsets.UTF_8);
    }

    /** Every unit of the queue, from 0, points at a record of that queue carrying that very queue offset. */
    private static List<StoredMessage> readWhole(DefaultMessageStore store, String topic, int queueId) {
        long max = store.getMaxOffsetInQueue(topic, queueId);
        List<StoredMessage> all = new ArrayList<>();
        long offset = store.getMinOffsetInQueue(topic, queueId);
        while (offset < max) {
            GetMessageResult r = store.getMessage("check", topic, queueId, offset, 32, null);
            assertFalse(r.messages().isEmpty(), "units missing at " + offset + " of " + max + ": " + r.status());
            for (StoredMessage m : r.messages()) {
                assertEquals(topic, m.topic());
                assertEquals(queueId, m.queueId());
                assertEquals(offset, m.queueOffset(), "unit at queue offset " + offset + " points at " + m);
                all.add(m);
                offset++;
            }
        }
        return all;
    }

    @Test
    void theTopicsQueuesAndOffsetsGoAndNewPutsStartAtZero() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            List<PutMessageResult> old = fill(store, "Orders", 2, 10, "old");
            fill(store, "Other", 1, 3, "other");
            assertTrue(store.consumerOffsets().commit("billing", "Orders", 1, 7).isCommitted());
            assertTrue(store.consumerOffsets().commit("billing", "Other", 0, 2).isCommitted());

            assertEquals(2, store.deleteTopic("Orders"));

            assertFalse(Files.exists(dir.resolve("consumequeue/Orders")), "the topic's ConsumeQueue directory");
            assertEquals(0, store.getMaxOffsetInQueue("Orders", 0));
            assertEquals(0, store.getMaxOffsetInQueue("Orders", 1));
            assertTrue(store.getMessage("g", "Orders", 1, 0, 10, null).messages().isEmpty());
            assertEquals(OptionalLong.empty(), store.consumerOffsets().committed("billing", "Orders", 1));
            assertEquals(OptionalLong.of(2), store.consumerOffsets().committed("billing", "Other", 0),
                    "other topics keep their offsets");
            assertEquals(3, store.getMaxOffsetInQueue("Other", 0), "other topics keep their queues");
            // the CommitLog keeps the bytes until retention
            assertEquals("old0", body(store.lookMessageByOffset(old.get(0).wroteOffset())));

            PutMessageResult again = store.putMessage(TestStores.message("Orders", 1, "new0"));
            assertEquals(0, again.logicsOffset(), "the queue starts again at 0");
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            List<StoredMessage> q1 = readWhole(store, "Orders", 1);
            assertEquals(List.of("new0"), q1.stream().map(TopicDeletionTest::body).toList());
        }
    }

    @Test
    void badRequestsAreRefusedAndChangeNothing() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "Orders", 1, 4, "m");
            store.putMessage(TestStores.message("Orders", 0, "late").property(MessageConst.DELAY_TIME_LEVEL, "3"));
            assertTrue(store.consumerOffsets().commit("g", "Orders", 0, 1).isCommitted());
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            long logEnd = store.getMaxPhyOffset();

            assertThrows(IllegalArgumentException.class, () -> store.deleteTopic(ConsumerOffsets.TOPIC));
            assertThrows(IllegalArgumentException.class, () -> store.deleteTopic(MessageConst.SCHEDULE_TOPIC));
            assertThrows(IllegalArgumentException.class, () -> store.deleteTopic("../Orders"));
            assertThrows(IllegalArgumentException.class, () -> store.deleteTopic(""));
            NoSuchElementException unknown = assertThrows(NoSuchElementException.class,
                    () -> store.deleteTopic("Nobody"));
            assertTrue(unknown.getMessage().contains("Nobody"), unknown.getMessage());

            assertEquals(logEnd, store.getMaxPhyOffset(), "nothing was appended");
            assertEquals(4, store.getMaxOffsetInQueue("Orders", 0));
            assertEquals(1, store.getMaxOffsetInQueue(MessageConst.SCHEDULE_TOPIC, 2));
            assertEquals(OptionalLong.of(1), store.consumerOffsets().committed("g", "Orders", 0));
        }
    }

    @Test
    void aDeletedTopicIsUnknownToASecondDeletion() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "Orders", 1, 2, "m");
            assertEquals(1, store.deleteTopic("Orders"));
            assertThrows(NoSuchElementException.class, () -> store.deleteTopic("Orders"));
        }
    }

    /**
     * The old queues held more units (10) than the new ones (3): a restart that counted the topic's offsets from the
     * old records in the CommitLog would give the next put offset 10 and write its unit at 3, a wrong offset.
     */
    @Test
    void aCleanRestartKeepsTheNewQueueAndItsNextOffset() {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "Orders", 2, 10, "old");
            store.deleteTopic("Orders");
            fill(store, "Orders", 1, 3, "new");
        }
        try (DefaultMessageStore store = TestStores.started(dir)) {
            assertEquals(3, store.getMaxOffsetInQueue("Orders", 0));
            assertEquals(0, store.getMaxOffsetInQueue("Orders", 1));
            assertEquals(3, store.putMessage(TestStores.message("Orders", 0, "new3")).logicsOffset());
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            assertEquals(List.of("new0", "new1", "new2", "new3"),
                    readWhole(store, "Orders", 0).stream().map(TopicDeletionTest::body).toList());
        }
    }

    /**
     * After an unclean shutdown recovery re-dispatches the whole (one-file) log: the old records re-create the old
     * queues with their old offsets until the deletion record forgets them again.
     */
    @Test
    void recoveryAfterACrashDoesNotResurrectTheOldQueue() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "Orders", 2, 10, "old");
            assertTrue(store.consumerOffsets().commit("billing", "Orders", 0, 9).isCommitted());
            store.deleteTopic("Orders");
            fill(store, "Orders", 1, 3, "new");
        }
        Files.createFile(dir.resolve("abort"));
        try (DefaultMessageStore store = TestStores.started(dir)) {
            assertTrue(store.recoveryReport().redispatched() > 0, "the crash recovery re-dispatched the log");
            assertEquals(0, store.getMaxOffsetInQueue("Orders", 1), "the old queue 1 stays deleted");
            assertEquals(OptionalLong.empty(), store.consumerOffsets().committed("billing", "Orders", 0));
            assertEquals(3, store.putMessage(TestStores.message("Orders", 0, "new3")).logicsOffset());
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            assertEquals(List.of("new0", "new1", "new2", "new3"),
                    readWhole(store, "Orders", 0).stream().map(TopicDeletionTest::body).toList());
        }
    }

    /**
     * Writers keep putting to the topic and readers keep reading it while it is deleted twice: nothing fails, every
     * unit afterwards sits at the queue offset its record carries, and the queues hold exactly the puts after the
     * last deletion.
     */
    @Test
    void deletionUnderConcurrentPutsAndReaders() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            fill(store, "Busy", 4, 50, "seed");
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicLong reads = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writer = w;
                threads.add(new Thread(() -> {
                    try {
                        for (int i = 0; !stop.get(); i++) {
                            PutMessageResult r = store.putMessage(TestStores.message("Busy", i % 4, writer + "-" + i));
                            if (!r.isOk()) {
                                failures.add(new AssertionError("put failed: " + r));
                            }
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            for (int q = 0; q < 2; q++) {
                int queueId = q;
                threads.add(new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            long max = store.getMaxOffsetInQueue("Busy", queueId);
                            GetMessageResult r = store.getMessage("g", "Busy", queueId, Math.max(0, max - 5), 5, null);
                            for (StoredMessage m : r.messages()) {
                                assertEquals("Busy", m.topic());
                                assertEquals(queueId, m.queueId());
                            }
                            reads.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            threads.forEach(Thread::start);
            TestStores.await("readers read", () -> reads.get() > 100);
            assertEquals(4, store.deleteTopic("Busy"));
            TestStores.await("puts after the first deletion",
                    () -> store.getMaxOffsetInQueue("Busy", 3) > 20 && reads.get() > 200);
            assertTrue(store.deleteTopic("Busy") > 0);
            TestStores.await("puts after the second deletion", () -> store.getMaxOffsetInQueue("Busy", 3) > 20);
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(failures.isEmpty(), () -> "failures: " + failures);
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            for (int q = 0; q < 4; q++) {
                List<StoredMessage> units = readWhole(store, "Busy", q);
                assertNotNull(units);
                assertTrue(units.stream().noneMatch(m -> body(m).startsWith("seed")), "seed units survived");
            }
        }
        // and the same after a crash recovery that re-dispatches everything
        Files.createFile(dir.resolve("abort"));
        try (DefaultMessageStore store = TestStores.started(dir)) {
            for (int q = 0; q < 4; q++) {
                assertTrue(readWhole(store, "Busy", q).stream().noneMatch(m -> body(m).startsWith("seed")));
            }
        }
    }
}
