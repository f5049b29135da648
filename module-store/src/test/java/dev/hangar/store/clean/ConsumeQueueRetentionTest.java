package dev.hangar.store.clean;

import dev.hangar.store.TestInternals;
import static dev.hangar.store.clean.RetentionFixture.FILES;
import static dev.hangar.store.clean.RetentionFixture.FILE_SIZE;
import static dev.hangar.store.clean.RetentionFixture.TOPIC;
import static dev.hangar.store.clean.RetentionFixture.TWO_HOURS;
import static dev.hangar.store.clean.RetentionFixture.age;
import static dev.hangar.store.clean.RetentionFixture.queue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import dev.hangar.store.verify.StoreVerifier;
import dev.hangar.store.verify.VerifyReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After the CommitLog shrinks, ConsumeQueue and index files whose data is gone follow, and the queues' min offsets
 * move up (RocketMQ's clean-files test checks the same with its own dispatchers).
 */
class ConsumeQueueRetentionTest {
    private static final int EXPIRED = 15;
    /** Five units per ConsumeQueue file: 55 messages make 11 files. */
    private static final int UNITS_PER_CQ_FILE = 5;

    @TempDir
    Path dir;

    private static long count(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.count();
        }
    }

    @Test
    void consumeQueueAndIndexFilesFollowTheCommitLogAndMinOffsetsMoveUp() throws Exception {
        Path cqDir = dir.resolve("consumequeue").resolve(TOPIC).resolve("0");
        Path indexDir = dir.resolve("index");
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir,
                "dispatchers", "consume-queue,index",
                "mappedFileSizeConsumeQueue", Integer.toString(20 * UNITS_PER_CQ_FILE),
                "maxHashSlotNum", "100", "maxIndexNum", "10")) {
            TestStores.await("everything dispatched", () -> store.dispatchBehindBytes() == 0
                    && store.getMaxOffsetInQueue(TOPIC, 0) == FILES);
            assertEquals(11, count(cqDir));
            long indexFilesBefore = count(indexDir);
            assertTrue(indexFilesBefore >= 6, "9 keys per index file: " + indexFilesBefore);
            assertEquals(1, store.queryMessage(TOPIC, "key-3", 10, 0, Long.MAX_VALUE).messages().size());
            assertEquals(0, store.getMinOffsetInQueue(TOPIC, 0));

            age(queue(store), EXPIRED, TWO_HOURS);
            assertEquals(10, store.executeDeleteFilesManually());
            assertEquals(11 - 10 / UNITS_PER_CQ_FILE, count(cqDir), "ConsumeQueue files of units 0-9 went");
            assertEquals(10, store.getMinOffsetInQueue(TOPIC, 0));
            assertEquals(5, TestInternals.retention(store).runPass());

            assertEquals(11 - EXPIRED / UNITS_PER_CQ_FILE, count(cqDir));
            assertEquals(EXPIRED, store.getMinOffsetInQueue(TOPIC, 0), "the min offset follows the commit log");
            assertEquals(FILES, store.getMaxOffsetInQueue(TOPIC, 0));
            GetMessageResult old = store.getMessage("g", TOPIC, 0, 3, 1, null);
            assertEquals(GetMessageStatus.OFFSET_TOO_SMALL, old.status());
            assertEquals(EXPIRED, old.nextBeginOffset());
            GetMessageResult kept = store.getMessage("g", TOPIC, 0, EXPIRED, 1, null);
            assertEquals(GetMessageStatus.FOUND, kept.status());
            assertEquals((long) EXPIRED * FILE_SIZE, kept.messages().get(0).commitLogOffset());

            assertTrue(count(indexDir) < indexFilesBefore, "an index file holding only deleted records went");
            assertEquals(0, store.queryMessage(TOPIC, "key-3", 10, 0, Long.MAX_VALUE).messages().size());
            assertEquals(1, store.queryMessage(TOPIC, "key-20", 10, 0, Long.MAX_VALUE).messages().size());
        }
        VerifyReport report = StoreVerifier.verify(dir, TestStores.config(dir, "mappedFileSizeCommitLog",
                Integer.toString(FILE_SIZE), "mappedFileSizeConsumeQueue", Integer.toString(20 * UNITS_PER_CQ_FILE),
                "maxHashSlotNum", "100", "maxIndexNum", "10"));
        assertTrue(report.healthy(), report.toString());
        assertEquals(FILES - EXPIRED, report.records());
    }
}
