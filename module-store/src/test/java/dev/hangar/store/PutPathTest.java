package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PutPathTest {
    @TempDir
    Path dir;

    @Test
    void smallFilesRollWithABlankRecordAndNoMessageIsSplit() throws Exception {
        int fileSize = 4096;
        List<PutMessageResult> results = new ArrayList<>();
        try (DefaultMessageStore store = TestStores.started(dir, "mappedFileSizeCommitLog", "4096", "dispatchers", "")) {
            for (int i = 0; i < 100; i++) {
                PutMessageResult r = store.putMessage(TestStores.message("Roll", 0, "message body number " + i));
                assertEquals(PutMessageStatus.PUT_OK, r.status());
                results.add(r);
            }
        }
        CommitLogWalker.Walk walk = CommitLogWalker.walk(dir.resolve("commitlog"));
        assertEquals(100, walk.messages().size());
        assertTrue(walk.fileNames().size() >= 3, "several files: " + walk.fileNames());
        for (int i = 0; i < walk.fileNames().size(); i++) {
            assertEquals(String.format("%020d", (long) i * fileSize), walk.fileNames().get(i));
        }
        assertEquals(walk.fileNames().size() - 1, walk.blanks().size(), "every full file ends with a BLANK");
        for (int i = 0; i < 100; i++) {
            StoredMessage m = walk.messages().get(i);
            assertEquals(i, m.queueOffset());
            assertEquals(results.get(i).appendResult().wroteOffset(), m.commitLogOffset());
            assertEquals(m.commitLogOffset() / fileSize, (m.commitLogOffset() + m.storeSize() - 1) / fileSize,
                    "record " + i + " lies within one file");
            assertEquals("message body number " + i, new String(m.body(), StandardCharsets.UTF_8));
            assertEquals(results.get(i).appendResult().msgId(), m.msgId());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"spin", "adaptive", "reentrant"})
    void eightThreadsGetContiguousQueueOffsetsWithEachLock(String lock) throws Exception {
        int threads = 8;
        int perThread = 500;
        try (DefaultMessageStore store = TestStores.started(dir, "putMessageLock", lock, "dispatchers", "")) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        PutMessageResult r = store.putMessage(TestStores.message("Conc", (id + i) % 4, "t" + id + "-" + i));
                        if (!r.isOk()) {
                            throw new AssertionError("put failed: " + r);
                        }
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            pool.shutdown();
            assertEquals(lock, store.chosenProviders().get("putMessageLock"));
        }
        CommitLogWalker.Walk walk = CommitLogWalker.walk(dir.resolve("commitlog"));
        assertEquals(threads * perThread, walk.messages().size());
        Map<Integer, List<Long>> byQueue = new HashMap<>();
        Set<String> bodies = ConcurrentHashMap.newKeySet();
        for (StoredMessage m : walk.messages()) {
            byQueue.computeIfAbsent(m.queueId(), q -> new ArrayList<>()).add(m.queueOffset());
            assertTrue(bodies.add(new String(m.body(), StandardCharsets.UTF_8)), "no duplicate message");
        }
        for (List<Long> offsets : byQueue.values()) {
            for (int i = 0; i < offsets.size(); i++) {
                assertEquals(i, offsets.get(i), "queue offsets are contiguous in commit-log order");
            }
        }
    }

    @Test
    void everyRejectedInputGetsItsStatusWritesNothingAndTheNextPutLandsRight() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "", "maxMessageSize", "1024")) {
            PutMessageResult first = store.putMessage(TestStores.message("Good", 0, "first"));
            assertTrue(first.isOk());
            long end = store.getMaxPhyOffset();

            Map<String, Message> bad = new java.util.LinkedHashMap<>();
            bad.put("dot-dot topic", TestStores.message("../x", 0, "x"));
            bad.put("slash topic", TestStores.message("a/b", 0, "x"));
            bad.put("empty topic", TestStores.message("", 0, "x"));
            bad.put("128-char topic", TestStores.message("t".repeat(128), 0, "x"));
            bad.put("negative queue", TestStores.message("Good", -1, "x"));
            bad.put("body over max", new Message("Good", new byte[1025]));
            bad.put("separator in property", TestStores.message("Good", 0, "x").property("a", "b\u0001c"));
            for (var e : bad.entrySet()) {
                PutMessageResult r = store.putMessage(e.getValue());
                assertEquals(PutMessageStatus.MESSAGE_ILLEGAL, r.status(), e.getKey());
                assertNotNull(r.reason(), e.getKey() + " has a reason");
                assertNull(r.appendResult(), e.getKey());
            }
            PutMessageResult props = store.putMessage(TestStores.message("Good", 0, "x").property("p", "v".repeat(32768)));
            assertEquals(PutMessageStatus.PROPERTIES_SIZE_EXCEEDED, props.status());
            assertEquals(end, store.getMaxPhyOffset(), "nothing was written");

            PutMessageResult next = store.putMessage(TestStores.message("Good", 0, "second"));
            assertTrue(next.isOk());
            assertEquals(end, next.appendResult().wroteOffset());
            assertEquals(1, next.appendResult().logicsOffset());
            assertEquals("second", new String(store.lookMessageByOffset(end).body(), StandardCharsets.UTF_8));
            assertEquals(8, store.stats().putFailures().values().stream().mapToLong(Long::longValue).sum());
        }
    }

    @Test
    void aBodyOfExactlyMaxMessageSizeIsAccepted() {
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "", "maxMessageSize", "1024")) {
            assertEquals(PutMessageStatus.PUT_OK, store.putMessage(new Message("Good", new byte[1024])).status());
        }
    }

    @Test
    void aRecordLargerThanAFileIsRefusedNotLooped() {
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "", "mappedFileSizeCommitLog", "4096")) {
            PutMessageResult r = store.putMessage(new Message("Big", new byte[5000]));
            assertEquals(PutMessageStatus.MESSAGE_ILLEGAL, r.status());
            assertTrue(store.putMessage(TestStores.message("Big", 0, "small")).isOk());
        }
    }

    @Test
    void putsAfterShutdownAreRefused() {
        DefaultMessageStore store = TestStores.started(dir, "dispatchers", "");
        store.shutdown();
        PutMessageResult r = store.putMessage(TestStores.message("T", 0, "x"));
        assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE, r.status());
        assertFalse(r.isOk());
    }

    @Test
    void batchGoesInOneFileWithConsecutiveQueueOffsetsAndOneMsgIdEach() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "", "mappedFileSizeCommitLog", "4096")) {
            store.putMessage(TestStores.message("Batch", 0, "x".repeat(3000)));
            List<Message> batch = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                batch.add(TestStores.message("Batch", 0, "batch-" + i));
            }
            PutMessageResult r = store.putMessages(batch);
            assertTrue(r.isOk(), r.toString());
            assertEquals(10, r.appendResult().messageCount());
            assertEquals(10, r.appendResult().msgIds().size());
            assertEquals(10, new java.util.HashSet<>(r.appendResult().msgIds()).size());
            assertEquals(1, r.appendResult().logicsOffset());
            assertEquals(4096, r.appendResult().wroteOffset(), "the batch did not fit and went whole to the next file");
            for (int i = 0; i < 10; i++) {
                StoredMessage m = store.lookMessageByMsgId(r.appendResult().msgIds().get(i));
                assertEquals("batch-" + i, new String(m.body(), StandardCharsets.UTF_8));
                assertEquals(1 + i, m.queueOffset());
            }
            List<Message> mixed = List.of(TestStores.message("Batch", 0, "a"), TestStores.message("Other", 0, "b"));
            assertEquals(PutMessageStatus.MESSAGE_ILLEGAL, store.putMessages(mixed).status());
            assertEquals(PutMessageStatus.MESSAGE_ILLEGAL, store.putMessages(List.of()).status());
        }
    }

    @Test
    void preparedAndRollbackRecordsTakeQueueOffsetZeroAndDoNotAdvanceTheQueue() throws Exception {
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "")) {
            assertEquals(0, store.putMessage(TestStores.message("Tx", 0, "a")).appendResult().logicsOffset());
            PutMessageResult prepared = store.putMessage(TestStores.message("Tx", 0, "half")
                    .transactionType(MessageSysFlag.TRANSACTION_PREPARED_TYPE));
            assertEquals(0, prepared.appendResult().logicsOffset());
            store.putMessage(TestStores.message("Tx", 0, "rb").transactionType(MessageSysFlag.TRANSACTION_ROLLBACK_TYPE));
            PutMessageResult commit = store.putMessage(TestStores.message("Tx", 0, "commit")
                    .transactionType(MessageSysFlag.TRANSACTION_COMMIT_TYPE));
            assertEquals(1, commit.appendResult().logicsOffset());
            assertEquals(0, store.lookMessageByOffset(prepared.appendResult().wroteOffset()).queueOffset());
        }
    }
}
