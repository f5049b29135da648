package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.crash.CrashChild;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RocketMQ's testRecover scenarios and fault injection into a closed store directory. */
class RecoveryTest {
    private static final int MESSAGES = 60;

    @TempDir
    Path dir;

    /** Puts {@link #MESSAGES} messages to FooBar/0, shuts down cleanly, returns their results. */
    private List<PutMessageResult> fill() {
        List<PutMessageResult> results = new ArrayList<>();
        try (DefaultMessageStore store = TestStores.started(dir)) {
            for (int i = 0; i < MESSAGES; i++) {
                PutMessageResult r = store.putMessage(TestStores.message("FooBar", 0, "body " + i + " " + "y".repeat(i * 30))
                        .keys("key" + i));
                assertTrue(r.isOk());
                results.add(r);
            }
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
        }
        assertFalse(Files.exists(dir.resolve("abort")), "a clean shutdown removes the abort file");
        return results;
    }

    private Path lastCommitLogFile() throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("commitlog"))) {
            return s.sorted().reduce((a, b) -> b).orElseThrow();
        }
    }

    private static void overwrite(Path file, long pos, byte[] bytes) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(pos);
            f.write(bytes);
        }
    }

    private long filePos(long commitLogOffset) {
        return commitLogOffset % (64 * 1024);
    }

    /** After recovery: messages [0, survivors) intact, later ones gone, writes continue at the right offsets. */
    private void assertRecoveredTo(List<PutMessageResult> results, int survivors) {
        try (DefaultMessageStore store = TestStores.started(dir)) {
            long expectedEnd = survivors == MESSAGES ? results.get(MESSAGES - 1).appendResult().wroteOffset()
                    + results.get(MESSAGES - 1).appendResult().wroteBytes() : results.get(survivors).appendResult().wroteOffset();
            assertEquals(expectedEnd, store.getMaxPhyOffset(), "the log ends after the last valid record");
            assertEquals(survivors, store.getMaxOffsetInQueue("FooBar", 0), "ConsumeQueue rolled back too");
            for (int i = 0; i < survivors; i++) {
                StoredMessage m = store.lookMessageByOffset(results.get(i).appendResult().wroteOffset());
                assertNotNull(m, "message " + i);
                assertTrue(new String(m.body(), StandardCharsets.UTF_8).startsWith("body " + i + " "));
            }
            GetMessageResult all = store.getMessage("g", "FooBar", 0, 0, 32, null);
            assertEquals(Math.min(32, survivors), all.messages().size());
            if (survivors < MESSAGES) {
                assertNull(store.lookMessageByOffset(results.get(survivors).appendResult().wroteOffset()));
                assertTrue(store.queryMessage("FooBar", "key" + survivors, 10, 0, Long.MAX_VALUE).messages().isEmpty(),
                        "the index does not answer with a truncated message");
            }
            PutMessageResult next = store.putMessage(TestStores.message("FooBar", 0, "after recovery"));
            assertTrue(next.isOk());
            assertEquals(survivors, next.appendResult().logicsOffset(), "writes go on with the next queue offset");
            assertEquals(expectedEnd, next.appendResult().wroteOffset());
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            assertEquals(survivors + 1, store.getMaxOffsetInQueue("FooBar", 0));
        }
    }

    @Test
    void cleanRebootKeepsEveryOffset() {
        List<PutMessageResult> results = fill();
        assertRecoveredTo(results, MESSAGES);
    }

    @Test
    void corruptedLastMessageWithNormalRebootRollsBackToThePreviousMessage() throws IOException {
        List<PutMessageResult> results = fill();
        long last = results.get(MESSAGES - 1).appendResult().wroteOffset();
        overwrite(lastCommitLogFile(), filePos(last) + 84, new byte[16]);
        assertRecoveredTo(results, MESSAGES - 1);
    }

    @Test
    void corruptedLastMessageWithAnAbortFileRollsBackTheSameWay() throws IOException {
        List<PutMessageResult> results = fill();
        long last = results.get(MESSAGES - 1).appendResult().wroteOffset();
        overwrite(lastCommitLogFile(), filePos(last) + 84, new byte[16]);
        Files.createFile(dir.resolve("abort"));
        assertRecoveredTo(results, MESSAGES - 1);
    }

    @Test
    void aTornTailMidRecordIsTruncated() throws IOException {
        List<PutMessageResult> results = fill();
        var torn = results.get(MESSAGES - 3).appendResult();
        long from = filePos(torn.wroteOffset()) + torn.wroteBytes() / 2;
        overwrite(lastCommitLogFile(), from, new byte[(int) (64 * 1024 - from)]);
        Files.createFile(dir.resolve("abort"));
        assertRecoveredTo(results, MESSAGES - 3);
    }

    @Test
    void aTornLastRecordIsZeroedSoTheRecoveredStoreVerifiesClean() throws IOException {
        List<PutMessageResult> results = fill();
        var last = results.get(MESSAGES - 1).appendResult();
        long half = filePos(last.wroteOffset()) + last.wroteBytes() / 2;
        overwrite(lastCommitLogFile(), half, new byte[last.wroteBytes() - last.wroteBytes() / 2]);
        Files.createFile(dir.resolve("abort"));
        assertRecoveredTo(results, MESSAGES - 1);
        dev.hangar.store.verify.VerifyReport report = dev.hangar.store.verify.StoreVerifier.verify(dir, TestStores.config(dir));
        assertTrue(report.healthy() && report.problems(dev.hangar.store.verify.VerifyReport.Severity.WARNING).isEmpty(),
                report.toString());
    }

    @Test
    void aFlippedBodyByteFailsTheCrcAndEndsTheLogThere() throws IOException {
        List<PutMessageResult> results = fill();
        var hit = results.get(MESSAGES - 5).appendResult();
        long bodyByte = filePos(hit.wroteOffset()) + 88 + 2;
        byte[] one = new byte[1];
        try (RandomAccessFile f = new RandomAccessFile(lastCommitLogFile().toFile(), "rw")) {
            f.seek(bodyByte);
            one[0] = (byte) (f.read() ^ 0x01);
        }
        overwrite(lastCommitLogFile(), bodyByte, one);
        assertRecoveredTo(results, MESSAGES - 5);
    }

    @Test
    void aZeroedPageInTheLastFileEndsTheLogBeforeIt() throws IOException {
        List<PutMessageResult> results = fill();
        Path last = lastCommitLogFile();
        long lastFileStart = Long.parseLong(last.getFileName().toString());
        int firstInLast = 0;
        while (results.get(firstInLast).appendResult().wroteOffset() < lastFileStart) {
            firstInLast++;
        }
        long page = 4096;
        overwrite(last, page, new byte[4096]);
        int survivors = 0;
        while (survivors < MESSAGES && results.get(survivors).appendResult().wroteOffset()
                + results.get(survivors).appendResult().wroteBytes() <= lastFileStart + page) {
            survivors++;
        }
        assertTrue(survivors >= firstInLast && survivors < MESSAGES);
        Files.createFile(dir.resolve("abort"));
        assertRecoveredTo(results, survivors);
    }

    @Test
    void aDeletedCheckpointIsRebuilt() throws IOException {
        List<PutMessageResult> results = fill();
        // the state in which recovery reads the checkpoint: after a crash (abort file present)
        Files.createFile(dir.resolve("abort"));
        Files.delete(dir.resolve("checkpoint"));
        assertRecoveredTo(results, MESSAGES);
        assertTrue(Files.size(dir.resolve("checkpoint")) >= 24);
    }

    @Test
    void aDeletedConsumeQueueIsRebuiltFromTheCommitLog() throws IOException {
        List<PutMessageResult> results = fill();
        Path cq = dir.resolve("consumequeue").resolve("FooBar").resolve("0");
        try (Stream<Path> s = Files.walk(cq)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        assertRecoveredTo(results, MESSAGES);
    }

    @Test
    void aSyncFlushStoreWhosePutsDidNotWaitStillShutsDownCleanly() {
        try (DefaultMessageStore store = TestStores.started(dir, "flushDiskType", "SYNC_FLUSH")) {
            for (int i = 0; i < 200; i++) {
                assertTrue(store.putMessage(TestStores.message("NoWait", 0, "m" + i).waitStoreMsgOk(false)).isOk());
            }
        }
        assertFalse(Files.exists(dir.resolve("abort")), "everything was flushed and dispatched at shutdown");
        try (DefaultMessageStore store = TestStores.started(dir, "flushDiskType", "SYNC_FLUSH")) {
            assertFalse(store.recoveryReport().abnormal());
            assertEquals(200, store.getMaxOffsetInQueue("NoWait", 0));
        }
    }

    @Test
    void anAbortFileLeftBehindRecoversEverything() throws IOException {
        List<PutMessageResult> results = fill();
        Files.createFile(dir.resolve("abort"));
        assertRecoveredTo(results, MESSAGES);
    }

    @Test
    void aSecondStoreOnTheSameDirectoryIsRefusedAndTheFirstGoesOn() {
        try (DefaultMessageStore first = TestStores.started(dir)) {
            DefaultMessageStore second = new DefaultMessageStore(TestStores.config(dir));
            IllegalStateException e = assertThrows(IllegalStateException.class, second::start);
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
            assertTrue(first.putMessage(TestStores.message("FooBar", 0, "still fine")).isOk());
        }
    }

    @Test
    void aSecondProcessOnTheSameDirectoryIsRefusedBeforeTouchingAnyFile() throws Exception {
        // long intervals: the first store's own background flushes must not change files while the child runs
        try (DefaultMessageStore first = TestStores.started(dir, "flushIntervalConsumeQueue", "3600000",
                "flushConsumeQueueThoroughInterval", "3600000", "flushCommitLogLeastPages", "0",
                "flushConsumerOffsetInterval", "3600000", "flushDelayOffsetInterval", "3600000")) {
            first.putMessage(TestStores.message("FooBar", 0, "first"));
            MappedFileQueue log = TestInternals.commitLog(first).queue();
            TestStores.await("flushed and dispatched", () -> log.getFlushedWhere() == log.getMaxOffset()
                    && first.dispatchBehindBytes() == 0);
            DirectorySnapshot before = DirectorySnapshot.of(dir);
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    CrashChild.class.getName(), dir.toString(), "ASYNC_FLUSH", "1",
                    "mappedFileSizeCommitLog=" + 64 * 1024, "mappedFileSizeConsumeQueue=20000",
                    "maxHashSlotNum=1000", "maxIndexNum=4000").redirectErrorStream(true).start();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the second process gave up");
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(child.exitValue() != 0, out);
            assertTrue(out.contains("in use by another process"), out);
            assertFalse(out.contains("STARTED"), out);
            assertEquals(before, DirectorySnapshot.of(dir), "the second process created, changed or removed no file");
            assertTrue(first.putMessage(TestStores.message("FooBar", 0, "second")).isOk());
            assertEquals(2, first.putMessage(TestStores.message("FooBar", 0, "third")).appendResult().logicsOffset());
        }
    }
}
