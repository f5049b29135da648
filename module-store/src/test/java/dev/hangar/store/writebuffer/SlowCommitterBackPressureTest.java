package dev.hangar.store.writebuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestInternals;
import dev.hangar.store.TestStores;
import dev.hangar.store.service.StoreStats;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write buffer whose committer is slower than the writers: the pool (one buffer) is still held by the first
 * CommitLog file, whose tail is not committed, when the log rolls; the second file gets no buffer and is written
 * through its mapping, so it is readable at once. Nothing past the first file's committed end can be dispatched
 * until the committer catches up, so the back-pressure on dispatch must not count those bytes: before the fix it
 * measured "behind" against the last file's end and every put after the roll waited out the full one-second limit.
 */
class SlowCommitterBackPressureTest {
    private static final int FILE_SIZE = 64 * 1024;
    private static final String BODY = "x".repeat(900);

    @TempDir
    Path dir;

    private DefaultMessageStore heldCommitStore() {
        return TestStores.started(dir, "mappedFile", "transient-pool", "transientStorePoolSize", "1",
                "flushService", HeldCommitFlushProvider.NAME, "maxDispatchBehindBytes", "4096",
                "mappedFileSizeCommitLog", Integer.toString(FILE_SIZE));
    }

    @Test
    void putsAfterARollPastAnUncommittedTailDoNotWaitForDispatchThatCannotReachThem() {
        try (DefaultMessageStore store = heldCommitStore()) {
            StoreStats stats = TestInternals.stats(store);
            List<MappedFile> files;
            int puts = 0;
            do {
                assertTrue(store.putMessage(TestStores.message("Slow", 0, BODY)).isOk());
                puts++;
                files = TestInternals.commitLog(store).queue().mappedFiles();
            } while (files.size() < 2 || files.get(files.size() - 1).wrotePosition() < 3 * 1024);
            // the second file holds no buffer: its bytes are readable through the mapping, the first file's are not
            long written = TestInternals.commitLog(store).queue().getMaxWrotePosition();
            assertEquals(0, stats.dispatchWaitsOutlasted(),
                    "no put waited out the back-pressure limit for bytes dispatch could not reach (of " + puts + ")");
            assertEquals(0, store.getMaxPhyOffset(), "the readable end stops at the first file's committed end (0)");
            assertEquals(0, store.dispatchBehindBytes(), "dispatch is not behind what it can read");

            HeldCommitFlushProvider.commitEverything();
            assertEquals(written, store.getMaxPhyOffset(), "once committed, everything written is readable");
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            assertEquals(puts, store.getMaxOffsetInQueue("Slow", 0));
            var last = store.getMessage("g", "Slow", 0, puts - 1, 1, null);
            assertEquals(GetMessageStatus.FOUND, last.status(), "the last put, in the mapped file, is readable");
        }
    }

    @Test
    void theReadableEndStopsAtTheFirstUncommittedByteEvenWhenTheNextFileHasItsOwnBuffer() {
        try (DefaultMessageStore store = TestStores.started(dir, "mappedFile", "transient-pool",
                "transientStorePoolSize", "2", "flushService", HeldCommitFlushProvider.NAME,
                "mappedFileSizeCommitLog", Integer.toString(FILE_SIZE))) {
            var commitLog = TestInternals.commitLog(store);
            while (commitLog.queue().mappedFiles().size() < 2) {
                assertTrue(store.putMessage(TestStores.message("Slow", 0, BODY)).isOk());
            }
            // both files write into buffers, none committed: the last file's readable end (its start) lies past
            // the first file's uncommitted bytes
            assertEquals(0, commitLog.getMaxOffset(), "nothing is committed, nothing is readable");
            HeldCommitFlushProvider.commitEverything();
            assertEquals(commitLog.queue().getMaxWrotePosition(), commitLog.getMaxOffset());
        }
    }
}
