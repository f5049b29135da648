package dev.hangar.store.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestInternals;
import dev.hangar.store.TestStores;
import dev.hangar.store.service.RunningFlags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Disk failures driven through {@link DefaultMessageStore} on real mapped files ({@link FailingDiskStorageProvider}
 * fails them on demand): no acknowledgement without durability, the store stops taking writes and says why, readers
 * go on, and a restart on a healed disk recovers.
 */
class FailuresThroughTheStoreTest {
    @TempDir
    Path dir;

    @AfterEach
    void healTheDisk() {
        FailingDiskStorageProvider.heal();
    }

    @Test
    void aSyncFlushPutWhoseForceFailsIsNeverAcknowledgedAndTheStoreSaysWhy() {
        String[] settings = {"mappedFile", FailingDiskStorageProvider.NAME, "flushDiskType", "SYNC_FLUSH",
                "syncFlushTimeout", "3000"};
        try (DefaultMessageStore store = TestStores.started(dir, settings)) {
            for (int i = 0; i < 5; i++) {
                assertEquals(PutMessageStatus.PUT_OK, store.putMessage(TestStores.message("Fail", 0, "ok" + i)).status());
            }
            FailingDiskStorageProvider.FAIL_COMMIT_LOG_FORCE.set(true);
            PutMessageResult failed = store.putMessage(TestStores.message("Fail", 0, "never-durable"));
            assertEquals(PutMessageStatus.FLUSH_DISK_TIMEOUT, failed.status(), "a put whose force failed: " + failed);

            assertFalse(TestInternals.runningFlags(store).isWritable());
            String reason = TestInternals.runningFlags(store).reason();
            assertNotNull(reason);
            assertTrue(reason.contains(FailingDiskStorageProvider.FORCE_FAILURE), reason);
            Map<String, Object> stat = store.statsSnapshot().toMap();
            assertEquals(Boolean.FALSE, stat.get("writable"));
            assertTrue(String.valueOf(stat.get("notWritableReason")).contains(FailingDiskStorageProvider.FORCE_FAILURE),
                    "stat names the failed force: " + stat.get("notWritableReason"));
            PutMessageResult refused = store.putMessage(TestStores.message("Fail", 0, "refused"));
            assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE, refused.status());
            assertTrue(refused.reason().contains(FailingDiskStorageProvider.FORCE_FAILURE), refused.reason());

            GetMessageResult read = store.getMessage("g", "Fail", 0, 0, 32, null);
            assertEquals(GetMessageStatus.FOUND, read.status(), "readers keep working");
            assertEquals(5, read.messages().size(), "the acknowledged puts, and not the one never made durable");
        }
        FailingDiskStorageProvider.heal();
        try (DefaultMessageStore store = TestStores.started(dir, settings)) {
            assertTrue(TestInternals.runningFlags(store).isWritable(), "a restart on a healed disk takes writes again");
            assertEquals(PutMessageStatus.PUT_OK, store.putMessage(TestStores.message("Fail", 0, "after")).status());
            GetMessageResult read = store.getMessage("g", "Fail", 0, 0, 32, null);
            assertTrue(read.messages().size() >= 6, "the acknowledged puts survived the failure and the restart");
            for (int i = 0; i < 5; i++) {
                assertEquals("ok" + i, new String(read.messages().get(i).body()));
            }
        }
    }

    @Test
    void aConsumeQueueWriteFailureRefusesPutsWithTheLogicQueueReason() {
        try (DefaultMessageStore store = TestStores.started(dir, "mappedFile", FailingDiskStorageProvider.NAME)) {
            assertTrue(store.putMessage(TestStores.message("Cq", 0, "before")).isOk());
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            FailingDiskStorageProvider.FAIL_CONSUME_QUEUE_APPEND.set(true);
            store.putMessage(TestStores.message("Cq", 0, "not indexed"));
            TestStores.await("the logic-queue error flag",
                    () -> (TestInternals.runningFlags(store).bits() & RunningFlags.WRITE_LOGICS_QUEUE_ERROR) != 0);
            PutMessageResult refused = store.putMessage(TestStores.message("Cq", 0, "refused"));
            assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE, refused.status());
            assertTrue(refused.reason().contains("consume-queue") && refused.reason().contains("ConsumeQueue Cq-0"),
                    refused.reason());
            assertTrue(String.valueOf(store.statsSnapshot().toMap().get("runningFlags")).contains("WRITE_LOGICS_QUEUE_ERROR"));
            assertEquals(GetMessageStatus.FOUND, store.getMessage("g", "Cq", 0, 0, 8, null).status(),
                    "what was dispatched stays readable");
        }
        FailingDiskStorageProvider.heal();
        try (DefaultMessageStore store = TestStores.started(dir, "mappedFile", FailingDiskStorageProvider.NAME)) {
            assertTrue(TestInternals.runningFlags(store).isWritable());
            TestStores.await("re-dispatched", () -> store.dispatchBehindBytes() == 0);
            assertEquals(2, store.getMaxOffsetInQueue("Cq", 0), "the restart re-dispatched the record the queue missed");
        }
    }

    @Test
    void anIndexWriteFailureRefusesPutsWithTheIndexReason() throws Exception {
        String[] settings = {"maxHashSlotNum", "4", "maxIndexNum", "4"};
        try (DefaultMessageStore store = TestStores.started(dir, settings)) {
            assertTrue(store.putMessage(TestStores.message("Idx", 0, "before").keys("k0")).isOk());
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            // the index directory turns into a plain file: the next index file cannot be created (even for root)
            Path index = dir.resolve("index");
            TestStores.deleteTree(index);
            Files.writeString(index, "in the way");
            for (int i = 1; i < 10 && TestInternals.runningFlags(store).isWritable(); i++) {
                store.putMessage(TestStores.message("Idx", 0, "m" + i).keys("k" + i));
                TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            }
            assertTrue((TestInternals.runningFlags(store).bits() & RunningFlags.WRITE_INDEX_FILE_ERROR) != 0,
                    "flags: " + TestInternals.runningFlags(store).names());
            PutMessageResult refused = store.putMessage(TestStores.message("Idx", 0, "refused"));
            assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE, refused.status());
            assertTrue(refused.reason().contains("dispatcher index failed"), refused.reason());
            assertEquals(GetMessageStatus.FOUND, store.getMessage("g", "Idx", 0, 0, 8, null).status());
            Files.delete(index);
        }
        try (DefaultMessageStore store = TestStores.started(dir, settings)) {
            assertTrue(TestInternals.runningFlags(store).isWritable(), "a restart with the directory back takes writes again");
            assertTrue(store.putMessage(TestStores.message("Idx", 0, "after").keys("k-after")).isOk());
        }
    }
}
