package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.mapped.SelectedRegion;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.format.CommitLogRecordFormat;
import dev.hangar.store.format.RecordDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * appendMode=concurrent: many writers copying at once must leave exactly the log the locked mode leaves (per queue,
 * queue offsets from 0 without gaps or duplicates in CommitLog order; every record valid where it says it is; full
 * files ending in a BLANK), and nobody may read past a record still being copied.
 */
class ConcurrentAppendTest {
    private static final int WRITERS = 16;
    private static final int QUEUES = 4;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{2}: {0} with {1}")
    @CsvSource({"mmap, reentrant, concurrent", "mmap, spin, concurrent", "mmap, adaptive, concurrent",
            "transient-pool, reentrant, concurrent", "write-window, reentrant, concurrent",
            "mmap, reentrant, locked", "transient-pool, reentrant, locked"})
    void manyWritersLeaveContiguousQueueOffsetsInLogOrderAndBlankEndedFiles(String mappedFile, String lock,
                                                                            String mode) throws Exception {
        int perWriter = 150;
        Map<String, PutMessageResult> results = new ConcurrentHashMap<>();
        AtomicReference<Throwable> readerFailure = new AtomicReference<>();
        try (DefaultMessageStore store = TestStores.started(dir, "appendMode", mode, "mappedFile", mappedFile,
                "putMessageLock", lock, "dispatchers", "")) {
            CommitLog commitLog = TestInternals.commitLog(store);
            assertEquals(mode.equals("concurrent"), commitLog.appendsConcurrently());
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicLong checked = new AtomicLong();
            Thread reader = new Thread(() -> {
                try {
                    while (writing.get()) {
                        checked.set(checkCompleteUpTo(commitLog, checked.get(), commitLog.getMaxOffset()));
                    }
                } catch (Throwable t) {
                    readerFailure.set(t);
                }
            }, "reader");
            reader.start();
            runWriters(WRITERS, (writer, i) -> {
                // sizes from 100 B to ~3 KiB, and every 7th put a batch of 3: files of 64 KiB roll often, mid-batch too
                String body = "w" + writer + "-" + i + "-" + "x".repeat((writer * 131 + i * 37) % 3000);
                int queue = (writer + i) % QUEUES;
                PutMessageResult r = i % 7 == 3
                        ? store.putMessages(List.of(TestStores.message("Conc", queue, body + "-a"),
                        TestStores.message("Conc", queue, body + "-b"), TestStores.message("Conc", queue, body + "-c")))
                        : store.putMessage(TestStores.message("Conc", queue, body));
                if (!r.isOk()) {
                    throw new AssertionError("put failed: " + r);
                }
                results.put(body, r);
                return true;
            }, perWriter);
            writing.set(false);
            reader.join();
            assertNull(readerFailure.get(), () -> "a reader saw an incomplete record: " + readerFailure.get());
            assertTrue(checked.get() > 0, "the reader checked records while they were written");
            TestStores.await("every record readable and complete", () ->
                    checkCompleteUpTo(commitLog, 0, commitLog.getMaxOffset()) == commitLog.getMaxOffset());
        }
        CommitLogWalker.Walk walk = CommitLogWalker.walk(dir.resolve("commitlog"));
        int batches = 0;
        for (int w = 0; w < WRITERS; w++) {
            for (int i = 0; i < perWriter; i++) {
                batches += i % 7 == 3 ? 1 : 0;
            }
        }
        assertEquals(WRITERS * perWriter + 2 * batches, walk.messages().size());
        assertTrue(walk.fileNames().size() > 10, "many files rolled: " + walk.fileNames().size());
        assertEquals(walk.fileNames().size() - 1, walk.blanks().size(), "every full file ends with a BLANK");
        assertQueueOffsetsContiguousInLogOrder(walk.messages(), "Conc");
        long lastStamp = 0;
        for (StoredMessage m : walk.messages()) {
            assertTrue(m.storeTimestamp() >= lastStamp, "store times follow the log order at " + m.commitLogOffset());
            lastStamp = m.storeTimestamp();
            String body = new String(m.body(), StandardCharsets.UTF_8);
            String key = body.endsWith("-a") || body.endsWith("-b") || body.endsWith("-c")
                    ? body.substring(0, body.length() - 2) : body;
            PutMessageResult r = results.get(key);
            if (body.equals(key) || body.endsWith("-a")) {
                assertEquals(r.appendResult().wroteOffset(), m.commitLogOffset(), "the put's offset for " + key);
                assertEquals(r.appendResult().logicsOffset(), m.queueOffset(), "the put's queue offset for " + key);
                assertEquals(r.appendResult().msgId(), m.msgId());
            }
        }
    }

    @Test
    void aReopenedStoreContinuesTheLogAndEveryQueue() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir, "appendMode", "concurrent")) {
            runWriters(4, (writer, i) -> {
                assertTrue(store.putMessage(TestStores.message("Again", writer % 2, "first " + writer + "/" + i))
                        .isOk());
                return true;
            }, 200);
        }
        try (DefaultMessageStore store = TestStores.started(dir, "appendMode", "concurrent")) {
            runWriters(4, (writer, i) -> {
                assertTrue(store.putMessage(TestStores.message("Again", writer % 2, "second " + writer + "/" + i))
                        .isOk());
                return true;
            }, 200);
            TestStores.await("dispatched", () -> store.getMaxOffsetInQueue("Again", 0) == 800
                    && store.getMaxOffsetInQueue("Again", 1) == 800);
        }
        CommitLogWalker.Walk walk = CommitLogWalker.walk(dir.resolve("commitlog"));
        assertEquals(1600, walk.messages().size());
        assertEquals(walk.fileNames().size() - 1, walk.blanks().size());
        assertQueueOffsetsContiguousInLogOrder(walk.messages(), "Again");
    }

    @Test
    void aTopicDeletionAmidConcurrentWritersRestartsEveryQueueAtZeroAfterItsRecord() throws Exception {
        CountDownLatch halfway = new CountDownLatch(WRITERS);
        AtomicBoolean deleted = new AtomicBoolean();
        try (DefaultMessageStore store = TestStores.started(dir, "appendMode", "concurrent")) {
            for (int q = 0; q < QUEUES; q++) {
                assertTrue(store.putMessage(TestStores.message("Doomed", q, "seed")).isOk());
            }
            TestStores.await("the queues exist", () -> store.getMaxOffsetInQueue("Doomed", QUEUES - 1) == 1);
            Thread deleter = new Thread(() -> {
                try {
                    halfway.await();
                    store.deleteTopic("Doomed");
                    deleted.set(true);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            deleter.start();
            Map<Integer, Integer> putsAfter = new ConcurrentHashMap<>();
            // every writer keeps putting until the deletion returned, then 20 more
            runWriters(WRITERS, (writer, i) -> {
                if (i == 100) {
                    halfway.countDown();
                }
                assertTrue(store.putMessage(TestStores.message("Doomed", (writer + i) % QUEUES, writer + "/" + i))
                        .isOk());
                return !deleted.get() || putsAfter.merge(writer, 1, Integer::sum) < 20;
            }, Integer.MAX_VALUE);
            deleter.join();
        }
        CommitLogWalker.Walk walk = CommitLogWalker.walk(dir.resolve("commitlog"));
        long deletionAt = walk.messages().stream().filter(m -> !m.topic().equals("Doomed"))
                .mapToLong(StoredMessage::commitLogOffset).findFirst().orElseThrow();
        Map<Integer, Long> next = new HashMap<>();
        Map<Integer, Boolean> restarted = new HashMap<>();
        for (StoredMessage m : walk.messages()) {
            if (!m.topic().equals("Doomed")) {
                continue;
            }
            long expected = next.getOrDefault(m.queueId(), 0L);
            boolean after = m.commitLogOffset() > deletionAt;
            if (after && !restarted.getOrDefault(m.queueId(), false)) {
                expected = 0;
                restarted.put(m.queueId(), true);
            }
            assertEquals(expected, m.queueOffset(), "queue " + m.queueId() + " at " + m.commitLogOffset()
                    + (after ? " (after the deletion record)" : " (before it)"));
            next.put(m.queueId(), expected + 1);
        }
        assertEquals(QUEUES, restarted.size(), "every queue took records after the deletion: " + restarted);
    }

    @Test
    void aMappedFileVariantThatDoesNotDeclareConcurrentCopiesIsRefusedBeforeAnythingIsWritten() throws Exception {
        // module-store's test variant: real mmap files, but its provider does not declare takesConcurrentAppends
        ConfigException e = assertThrows(ConfigException.class, () -> TestStores.started(dir, "appendMode",
                "concurrent", "mappedFile", "test-failing-disk"));
        assertTrue(e.getMessage().contains("appendMode=concurrent")
                && e.getMessage().contains("mappedFile=test-failing-disk"), e.getMessage());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "nothing was created");
        }
        try (DefaultMessageStore store = TestStores.started(dir, "appendMode", "locked", "mappedFile",
                "test-failing-disk")) {
            assertTrue(store.putMessage(TestStores.message("Fine", 0, "the locked mode takes it")).isOk());
        }
    }

    /** Per queue of {@code topic}, queue offsets 0, 1, 2, ... in CommitLog order. */
    private static void assertQueueOffsetsContiguousInLogOrder(List<StoredMessage> log, String topic) {
        Map<Integer, Long> next = new HashMap<>();
        for (StoredMessage m : log) {
            if (!m.topic().equals(topic)) {
                continue;
            }
            long expected = next.getOrDefault(m.queueId(), 0L);
            assertEquals(expected, m.queueOffset(), "queue " + m.queueId() + " at CommitLog offset "
                    + m.commitLogOffset());
            next.put(m.queueId(), expected + 1);
        }
    }

    /**
     * Walks the records from {@code from} (a record start) towards {@code to} through the CommitLog's own read path,
     * with CRCs: each record it is given must be a complete MESSAGE, or the BLANK that ends its file. Returns where
     * the walk stopped: at {@code to}, or before, at bytes the read path does not give out yet (with transient-pool,
     * getMaxOffset may lie past an earlier file's uncommitted tail in both modes; such bytes are not read at all).
     */
    private static long checkCompleteUpTo(CommitLog commitLog, long from, long to) {
        long pos = from;
        while (pos < to) {
            int size;
            try (SelectedRegion head = commitLog.getData(pos, 8)) {
                if (head == null) {
                    return pos;
                }
                if (head.buffer().getInt(4) == CommitLogRecordFormat.BLANK_MAGIC_CODE) {
                    pos = commitLog.rollNextFile(pos);
                    continue;
                }
                if (head.buffer().getInt(4) != CommitLogRecordFormat.MESSAGE_MAGIC_CODE) {
                    throw new AssertionError("no record at " + pos + " below the readable end " + to);
                }
                size = head.buffer().getInt(0);
            }
            try (SelectedRegion region = commitLog.getData(pos, size)) {
                if (region == null) {
                    return pos;
                }
                RecordDecoder.Check check = RecordDecoder.check(region.buffer(), 0, size, true);
                if (check.kind() != RecordDecoder.Kind.MESSAGE) {
                    throw new AssertionError("the record at " + pos + " below the readable end " + to
                            + " is incomplete: " + check.reason());
                }
            }
            pos += size;
        }
        return pos;
    }

    private interface Put {
        /** One put; false: this writer stops. */
        boolean put(int writer, int i) throws Exception;
    }

    private static void runWriters(int writers, Put put, int perWriter) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < perWriter && put.put(writer, i); i++) {
                        // the put is the work
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "writer-" + w);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!failures.isEmpty()) {
            AssertionError e = new AssertionError(failures.size() + " writers failed; the first: " + failures.get(0));
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }
}
