package dev.hangar.store.clean;

import dev.hangar.store.TestInternals;
import static dev.hangar.store.clean.RetentionFixture.FILES;
import static dev.hangar.store.clean.RetentionFixture.FILE_SIZE;
import static dev.hangar.store.clean.RetentionFixture.TWO_HOURS;
import static dev.hangar.store.clean.RetentionFixture.age;
import static dev.hangar.store.clean.RetentionFixture.clockAtHour;
import static dev.hangar.store.clean.RetentionFixture.cleaner;
import static dev.hangar.store.clean.RetentionFixture.queue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.SelectedRegion;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import dev.hangar.store.service.RunningFlags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RocketMQ's DefaultMessageStoreCleanFilesTest scenarios on 55 CommitLog files of 4 KiB, fileReservedTime 1 h. */
class CleanCommitLogServiceTest {
    private static final int EXPIRED = 15;

    @TempDir
    Path dir;

    /** Runs passes until one deletes nothing; returns what each pass deleted. */
    private static List<Integer> passesUntilIdle(CleanCommitLogService cleaner) {
        List<Integer> deleted = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int n = cleaner.run().deleted();
            deleted.add(n);
            if (n == 0) {
                break;
            }
        }
        return deleted;
    }

    @Test
    void whenTheHourComesExpiredFilesGoTenPerPassAndTheFirstUnexpiredFileStops() throws Exception {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir)) {
            MappedFileQueue q = queue(store);
            age(q, EXPIRED, TWO_HOURS);
            CleanCommitLogService cleaner = cleaner(store, 0.10, clockAtHour(4), new RunningFlags());

            CleanCommitLogService.PassResult first = cleaner.run();
            assertEquals(10, first.deleted());
            assertTrue(first.timeUp());
            assertFalse(first.cleanImmediately());
            assertEquals(FILES - 10, q.mappedFiles().size());
            assertEquals(List.of(5, 0), passesUntilIdle(cleaner));

            assertEquals(FILES - EXPIRED, q.mappedFiles().size());
            assertEquals((long) EXPIRED * FILE_SIZE, store.getMinPhyOffset());
            assertNull(store.lookMessageByOffset(FILE_SIZE), "the deleted message is gone");
            assertNotNull(store.lookMessageByOffset((long) EXPIRED * FILE_SIZE), "the first kept message is readable");
            assertEquals(15, cleaner.totalDeleted());
            try (var files = Files.list(dir.resolve("commitlog"))) {
                assertTrue(files.noneMatch(p -> p.getFileName().toString().equals(String.format("%020d", 0))));
            }
        }
    }

    @Test
    void whenNothingHasExpiredNothingIsDeletedEvenAtTheHour() {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir)) {
            CleanCommitLogService cleaner = cleaner(store, 0.10, clockAtHour(4), new RunningFlags());
            CleanCommitLogService.PassResult r = cleaner.run();
            assertTrue(r.ran());
            assertEquals(0, r.deleted());
            assertEquals(FILES, queue(store).mappedFiles().size());
        }
    }

    @Test
    void outsideTheHoursWithRoomOnDiskExpiredFilesStay() throws Exception {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir, "deleteWhen", "04;16")) {
            age(queue(store), EXPIRED, TWO_HOURS);
            CleanCommitLogService cleaner = cleaner(store, 0.70, clockAtHour(10), new RunningFlags());
            CleanCommitLogService.PassResult r = cleaner.run();
            assertFalse(r.ran());
            assertEquals(FILES, queue(store).mappedFiles().size());
            assertTrue(cleaner(store, 0.10, clockAtHour(16), new RunningFlags()).run().timeUp(), "16 is a delete hour");
        }
    }

    @Test
    void pastDiskMaxUsedSpaceRatioOnlyExpiredFilesGoAtAnyHour() throws Exception {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir)) {
            age(queue(store), EXPIRED, TWO_HOURS);
            RunningFlags flags = new RunningFlags();
            CleanCommitLogService cleaner = cleaner(store, 0.80, clockAtHour(10), flags);
            CleanCommitLogService.PassResult first = cleaner.run();
            assertTrue(first.spaceToDelete());
            assertFalse(first.timeUp());
            assertFalse(first.cleanImmediately(), "80% is below the clean-forcibly level");
            assertEquals(10, first.deleted());
            assertEquals(List.of(5, 0), passesUntilIdle(cleaner));
            assertEquals(FILES - EXPIRED, queue(store).mappedFiles().size());
            assertTrue(flags.isWritable(), "80% does not stop writes");
        }
    }

    @Test
    void pastTheCleanForciblyRatioEvenUnexpiredFilesGoTenPerPassButNeverTheLast() {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir)) {
            MappedFileQueue q = queue(store);
            long lastFileStart = q.getLastMappedFile().fileFromOffset();
            CleanCommitLogService cleaner = cleaner(store, 0.87, clockAtHour(10), new RunningFlags());
            CleanCommitLogService.PassResult first = cleaner.run();
            assertTrue(first.cleanImmediately());
            assertEquals(10, first.deleted());
            assertEquals(List.of(10, 10, 10, 10, 4, 0), passesUntilIdle(cleaner));

            assertEquals(1, q.mappedFiles().size(), "only the file being written is left");
            assertEquals(lastFileStart, q.getFirstMappedFile().fileFromOffset());
            assertEquals(RetentionFixture.BODY.length(), store.lookMessageByOffset(lastFileStart).body().length);
            assertTrue(store.putMessage(TestStores.message("Retention", 0, "after the clean")).isOk());
        }
    }

    @Test
    void withCleanFileForciblyDisabledANearlyFullDiskDeletesOnlyExpiredFiles() throws Exception {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir,
                "cleanFileForciblyEnable", "false")) {
            age(queue(store), EXPIRED, TWO_HOURS);
            CleanCommitLogService cleaner = cleaner(store, 0.87, clockAtHour(10), new RunningFlags());
            assertEquals(List.of(10, 5, 0), passesUntilIdle(cleaner));
            assertEquals(FILES - EXPIRED, queue(store).mappedFiles().size());
        }
    }

    @Test
    void pastTheWarningLevelTheDiskIsFullAndFilesGoAtOnce() {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir)) {
            RunningFlags flags = new RunningFlags();
            CleanCommitLogService cleaner = cleaner(store, 0.95, clockAtHour(10), flags);
            CleanCommitLogService.PassResult r = cleaner.run();
            assertEquals(10, r.deleted());
            assertTrue(r.cleanImmediately());
            assertFalse(flags.isWritable());
            assertTrue(flags.names().contains("DISK_FULL"));
        }
    }

    @Test
    void aManualCleanDeletesExpiredFilesWhateverTheHourOverSeveralPasses() throws Exception {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir)) {
            age(queue(store), EXPIRED, TWO_HOURS);
            assertEquals(10, store.executeDeleteFilesManually());
            RetentionService retention = TestInternals.retention(store);
            assertEquals(RetentionPolicy.MANUAL_PASSES - 1, retention.commitLogCleaner().manualPassesLeft());
            assertEquals(5, retention.runPass(), "the next scheduled pass goes on with the manual clean");
            assertEquals(0, retention.runPass());
            assertEquals(RetentionPolicy.MANUAL_PASSES - 3, retention.commitLogCleaner().manualPassesLeft());
            assertEquals(FILES - EXPIRED, queue(store).mappedFiles().size());
            assertEquals((long) EXPIRED * FILE_SIZE, store.getMinPhyOffset());
            Map<?, ?> stats = (Map<?, ?>) store.statsSnapshot().toMap().get("retention");
            assertEquals(15L, ((Number) stats.get("filesDeleted")).longValue());
        }
    }

    /** A clock the test moves. */
    private static final class MovableClock extends Clock {
        private Instant now;

        MovableClock(Instant start) {
            now = start;
        }

        void advance(long millis) {
            now = now.plusMillis(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void aFileAReaderStillHoldsIsRetriedAfterRedeleteHangedFileInterval() throws Exception {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir,
                "destroyMapedFileIntervalForcibly", "600000", "redeleteHangedFileInterval", "120000")) {
            MappedFileQueue q = queue(store);
            age(q, 1, TWO_HOURS);
            MovableClock clock = new MovableClock(clockAtHour(4).instant());
            CleanCommitLogService cleaner = cleaner(store, 0.10, clock, new RunningFlags());
            SelectedRegion held = TestInternals.commitLog(store).getData(0, 100);
            assertNotNull(held);
            assertEquals(0, cleaner.run().deleted(), "a reader holds the file");
            assertEquals(FILES, q.mappedFiles().size());
            assertFalse(q.getFirstMappedFile().isAvailable(), "but it is on its way out");
            assertEquals(FILE_SIZE, store.getMinPhyOffset(), "and readers already skip it");

            held.close();
            clock.advance(60_000);
            assertFalse(cleaner.redeleteHangedFile(), "not before redeleteHangedFileInterval");
            clock.advance(60_001);
            assertTrue(cleaner.redeleteHangedFile());
            assertEquals(FILES - 1, q.mappedFiles().size());
            assertFalse(Files.exists(dir.resolve("commitlog").resolve(String.format("%020d", 0))));
        }
    }

    @Test
    void theStoresOwnScheduleDeletesWhenTheDiskFills() throws Exception {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir,
                "cleanResourceInterval", "50")) {
            age(queue(store), EXPIRED, TWO_HOURS);
            TestInternals.retention(store).diskMonitor().useProbe(DiskUsageProbe.fixedRatio(0.80));
            TestStores.await("scheduled passes delete the 15 expired files",
                    () -> queue(store).mappedFiles().size() == FILES - EXPIRED);
            long passes = TestInternals.retention(store).passes();
            TestStores.await("three more scheduled passes", () -> TestInternals.retention(store).passes() >= passes + 3);
            assertEquals(FILES - EXPIRED, queue(store).mappedFiles().size(), "and stop at the first unexpired file");
        }
    }

    @Test
    void filesAReplicationPeerStillNeedsStayUntilTheDiskIsNearlyFull() throws Exception {
        try (DefaultMessageStore store = RetentionFixture.storeWithOneMessagePerFile(dir)) {
            MappedFileQueue q = queue(store);
            age(q, EXPIRED, TWO_HOURS);
            // a follower holds the log up to the middle of the fourth file: the first three may go, not the fourth
            long needed = 3L * FILE_SIZE + 100;
            RetentionPolicy policy = RetentionPolicy.from(store.config());
            CleanCommitLogService held = new CleanCommitLogService(q, new DiskSpaceMonitor(TestInternals.root(store),
                    DiskUsageProbe.fixedRatio(0.10), new RunningFlags(), policy), policy, clockAtHour(4), () -> needed);
            assertEquals(List.of(3, 0), passesUntilIdle(held));
            assertEquals(3L * FILE_SIZE, store.getMinPhyOffset(), "the file holding the needed offset is kept");

            // past the clean-forcibly line the disk wins, loudly
            CleanCommitLogService full = new CleanCommitLogService(q, new DiskSpaceMonitor(TestInternals.root(store),
                    DiskUsageProbe.fixedRatio(0.87), new RunningFlags(), policy), policy, clockAtHour(4), () -> needed);
            assertEquals(10, full.run().deleted());
        }
    }
}
