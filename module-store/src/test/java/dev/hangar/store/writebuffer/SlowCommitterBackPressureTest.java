package dev.hangar.store.writebuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestInternals;
import dev.hangar.store.TestStores;
import dev.hangar.store.service.StoreStats;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write buffer whose committer is slower than the writers ({@link HeldCommitFlushProvider}: it commits only when
 * the test says so). At a roll the pool (one buffer) is still held by the first CommitLog file, whose tail is not
 * committed; the second file gets no buffer and is written through its mapping, readable at once. The readable end
 * must stop at the first uncommitted byte (before, it was the last file's end, past bytes nobody could read), and
 * the back-pressure on dispatch must pace the writers by commit and dispatch together: before, it measured "behind"
 * against that unreachable end and every put after the roll waited out the full one-second limit, and once that was
 * fixed the writers ran a whole pool ahead of the committer and then waited seconds for dispatch to work it off.
 */
class SlowCommitterBackPressureTest {
    private static final int FILE_SIZE = 64 * 1024;
    private static final String BODY = "x".repeat(900);

    @TempDir
    Path dir;

    private DefaultMessageStore heldCommitStore(int poolSize, String... extra) {
        String[] settings = {"mappedFile", "transient-pool", "transientStorePoolSize", Integer.toString(poolSize),
                "flushService", HeldCommitFlushProvider.NAME, "mappedFileSizeCommitLog", Integer.toString(FILE_SIZE)};
        String[] all = new String[settings.length + extra.length];
        System.arraycopy(settings, 0, all, 0, settings.length);
        System.arraycopy(extra, 0, all, settings.length, extra.length);
        return TestStores.started(dir, all);
    }

    @Test
    void theReadableEndStopsAtTheUncommittedTailBeforeAFileWrittenThroughItsMapping() {
        try (DefaultMessageStore store = heldCommitStore(1)) {
            List<MappedFile> files;
            int puts = 0;
            do {
                assertTrue(store.putMessage(TestStores.message("Slow", 0, BODY)).isOk());
                puts++;
                files = TestInternals.commitLog(store).queue().mappedFiles();
            } while (files.size() < 2 || files.get(files.size() - 1).wrotePosition() < 3 * 1024);
            // the second file holds no buffer: its bytes are readable through the mapping, the first file's are not
            long written = TestInternals.commitLog(store).queue().getMaxWrotePosition();
            assertEquals(0, store.getMaxPhyOffset(), "the readable end stops at the first file's committed end (0)");
            assertEquals(0, store.dispatchBehindBytes(), "dispatch is not behind what it can read");
            assertEquals(written, store.statsSnapshot().commitLog().commitLagBytes(),
                    "stat shows every appended byte as waiting for the committer");

            HeldCommitFlushProvider.commitEverything();
            assertEquals(written, store.getMaxPhyOffset(), "once committed, everything written is readable");
            assertEquals(0, store.statsSnapshot().commitLog().commitLagBytes(), "stat: nothing waits for the committer");
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            assertEquals(puts, store.getMaxOffsetInQueue("Slow", 0));
            var last = store.getMessage("g", "Slow", 0, puts - 1, 1, null);
            assertEquals(GetMessageStatus.FOUND, last.status(), "the last put, in the mapped file, is readable");
        }
    }

    @Test
    void theReadableEndStopsAtTheFirstUncommittedByteEvenWhenTheNextFileHasItsOwnBuffer() {
        try (DefaultMessageStore store = heldCommitStore(2)) {
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

    @Test
    void writersAreHeldWithinTheLimitOfCommitAndDispatchTogetherAndNeverWaitOutTheLimit() throws Exception {
        int limit = 8 * 1024;
        try (DefaultMessageStore store = heldCommitStore(1, "maxDispatchBehindBytes", Integer.toString(limit))) {
            StoreStats stats = TestInternals.stats(store);
            var reput = TestInternals.reput(store);
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicReference<Throwable> committerFailure = new AtomicReference<>();
            // the committer: slower than the writer (it commits only when a put held by the back-pressure wakes
            // it, so the writer is always held first), but it keeps going
            Thread committer = new Thread(() -> {
                try {
                    while (writing.get()) {
                        if (HeldCommitFlushProvider.awaitWakeup(10)) {
                            HeldCommitFlushProvider.commitEverything();
                        }
                    }
                } catch (Throwable t) {
                    committerFailure.set(t);
                }
            }, "test-slow-committer");
            committer.start();
            int puts = 300;
            long worst = 0;
            long end = -1;
            try {
                for (int i = 0; i < puts; i++) {
                    PutMessageResult r = store.putMessage(TestStores.message("Slow", 0, BODY));
                    assertTrue(r.isOk());
                    // a put that rolls the log also appends the blank filler that ends the full file: like its
                    // record, that was appended after the put was admitted, so neither counts against the limit
                    long start = r.appendResult().wroteOffset();
                    long filler = end < 0 ? 0 : start - end;
                    end = start + r.appendResult().wroteBytes();
                    worst = Math.max(worst, reput.lagBehindWrittenBytes() - r.appendResult().wroteBytes() - filler);
                }
            } finally {
                writing.set(false);
                committer.join();
            }
            assertEquals(null, committerFailure.get());
            assertTrue(TestInternals.commitLog(store).queue().mappedFiles().size() >= 4, "the log rolled");
            assertTrue(stats.dispatchWaits() > 0, "the writer outran the committer and was held");
            assertEquals(0, stats.dispatchWaitsOutlasted(), "every wait ended as commit and dispatch moved on");
            var shown = store.statsSnapshot().dispatch();
            assertEquals(stats.dispatchWaits(), shown.backPressureWaits(), "stat shows the held puts");
            assertEquals(0, shown.backPressureWaitsOutlasted());
            assertTrue(worst <= limit, "appended but undispatched bytes before a put stayed within the limit, "
                    + "committed or not: " + worst);
            HeldCommitFlushProvider.commitEverything();
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
            assertEquals(puts, store.getMaxOffsetInQueue("Slow", 0));
        }
    }
}
