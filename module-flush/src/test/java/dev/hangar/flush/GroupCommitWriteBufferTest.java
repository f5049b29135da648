package dev.hangar.flush;

import static dev.hangar.flush.FlushFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.store.PutMessageStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SYNC_FLUSH over a write buffer ({@code mappedFile=transient-pool}): the group commit must write the buffer to
 * the file (commit) before it forces, and tell a put {@code PUT_OK} only once its bytes are both in the file and
 * forced. Before the group commit committed, such a put waited for a commit that never came and timed out.
 */
class GroupCommitWriteBufferTest {
    private static final int LONG_TIMEOUT = 60_000;

    @TempDir
    Path dir;

    private FlushFixture groupCommitOverAWriteBuffer(int syncFlushTimeoutMillis) throws Exception {
        StoreConfig config = StoreConfig.builder()
                .set(StoreConfigKeys.FLUSH_DISK_TYPE, "SYNC_FLUSH")
                .set(StoreConfigKeys.SYNC_FLUSH_TIMEOUT, syncFlushTimeoutMillis)
                .build();
        return new FlushFixture(dir, true, config, new GroupCommitFlushProvider()::create);
    }

    private static PutMessageStatus await(CompletableFuture<PutMessageStatus> future) throws Exception {
        return future.get(FlushFixture.WAIT_BOUND_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Test
    void everyPutIsAcknowledgedOnlyOnceItsBytesWereCommittedToTheFileAndForced() throws Exception {
        int threads = 8;
        int putsPerThread = 300;
        try (FlushFixture f = groupCommitOverAWriteBuffer(LONG_TIMEOUT)) {
            f.service.start();
            AtomicInteger acknowledged = new AtomicInteger();
            AtomicInteger acknowledgedEarly = new AtomicInteger();
            AtomicInteger failed = new AtomicInteger();
            List<Thread> putters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread putter = new Thread(() -> {
                    try {
                        for (int i = 0; i < putsPerThread; i++) {
                            long next = f.target.append(200, System.currentTimeMillis());
                            PutMessageStatus status = await(f.service.handle(next, true).whenComplete((s, e) -> {
                                // checked when told, on the telling thread: in the file and forced, both
                                if (s == PutMessageStatus.PUT_OK && (f.target.committedWhere() < next
                                        || f.target.flushedWhere() < next)) {
                                    acknowledgedEarly.incrementAndGet();
                                }
                            }));
                            (status == PutMessageStatus.PUT_OK ? acknowledged : failed).incrementAndGet();
                        }
                    } catch (Exception e) {
                        failed.incrementAndGet();
                    }
                }, "putter-" + t);
                putters.add(putter);
                putter.start();
            }
            for (Thread putter : putters) {
                putter.join(TimeUnit.MINUTES.toMillis(2));
            }
            assertEquals(threads * putsPerThread, acknowledged.get(), failed.get() + " puts not acknowledged");
            assertEquals(0, acknowledgedEarly.get(), "puts told PUT_OK before their bytes were committed and forced");
            assertEquals(f.target.maxWrotePosition(), f.target.fileSize(), "every appended byte is in the file");
            assertEquals(f.target.maxWrotePosition(), f.target.flushedWhere());
            assertTrue(f.statistics.commits() > 0, "the commits are counted");
        }
    }

    @Test
    void aFailedCommitIsNeverAcknowledgedAndPutsSucceedAgainOnceTheDiskRecovers() throws Exception {
        try (FlushFixture f = groupCommitOverAWriteBuffer(LONG_TIMEOUT)) {
            f.service.start();
            f.target.failCommits = true;
            long first = f.target.append(100, 1);
            assertEquals(PutMessageStatus.FLUSH_DISK_TIMEOUT, await(f.service.handle(first, true)));
            assertEquals(0, f.target.flushedWhere(), "nothing forced beyond what was committed");
            assertEquals(0, f.target.fileSize(), "the failed commit wrote nothing");
            waitFor("the store marked not writable", () -> f.health.marks.get() > 0);

            f.target.failCommits = false;
            long second = f.target.append(100, 2);
            assertEquals(PutMessageStatus.PUT_OK, await(f.service.handle(second, true)));
            assertEquals(second, f.target.flushedWhere());
            assertEquals(second, f.target.fileSize());
        }
    }

    @Test
    void shutdownCommitsAndForcesWhatPutsThatDidNotWaitLeftInTheBuffer() throws Exception {
        FlushFixture f = groupCommitOverAWriteBuffer(LONG_TIMEOUT);
        try {
            long next = 0;
            for (int i = 0; i < 10; i++) {
                next = f.target.append(300, i);
            }
            f.service.shutdown(); // never started: the caller's thread does the final commit and force
            assertEquals(next, f.target.fileSize());
            assertEquals(next, f.target.flushedWhere());
        } finally {
            f.close();
        }
    }
}
