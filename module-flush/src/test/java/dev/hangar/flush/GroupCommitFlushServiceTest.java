package dev.hangar.flush;

import static dev.hangar.flush.FlushFixture.pause;
import static dev.hangar.flush.FlushFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.store.PutMessageStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class GroupCommitFlushServiceTest {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitFlushServiceTest.class);
    private static final int LONG_TIMEOUT = 60_000;

    @TempDir
    Path dir;

    private FlushFixture groupCommit(int syncFlushTimeoutMillis) throws Exception {
        return FlushFixture.groupCommit(dir, syncFlushTimeoutMillis);
    }

    private static PutMessageStatus await(CompletableFuture<PutMessageStatus> future) throws Exception {
        return future.get(FlushFixture.WAIT_BOUND_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Test
    void oneFsyncAcknowledgesManyConcurrentPuts() throws Exception {
        int threads = 16;
        int putsPerThread = 500;
        try (FlushFixture f = groupCommit(LONG_TIMEOUT)) {
            f.service.start();
            AtomicInteger acknowledgedEarly = new AtomicInteger();
            AtomicInteger acknowledged = new AtomicInteger();
            Map<PutMessageStatus, AtomicInteger> others = new ConcurrentHashMap<>();
            List<Thread> putters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread putter = new Thread(() -> {
                    try {
                        for (int i = 0; i < putsPerThread; i++) {
                            long next = f.target.append(128, System.currentTimeMillis());
                            PutMessageStatus status = await(f.service.handle(next, true).whenComplete((s, e) -> {
                                // Checked at the moment of completion, on the completing thread.
                                if (s == PutMessageStatus.PUT_OK && f.target.flushedWhere() < next) {
                                    acknowledgedEarly.incrementAndGet();
                                }
                            }));
                            if (status == PutMessageStatus.PUT_OK) {
                                acknowledged.incrementAndGet();
                            } else {
                                others.computeIfAbsent(status, k -> new AtomicInteger()).incrementAndGet();
                            }
                        }
                    } catch (Exception e) {
                        others.computeIfAbsent(PutMessageStatus.UNKNOWN_ERROR, k -> new AtomicInteger()).incrementAndGet();
                    }
                }, "putter-" + t);
                putters.add(putter);
                putter.start();
            }
            for (Thread putter : putters) {
                putter.join(TimeUnit.MINUTES.toMillis(2));
            }

            int requests = threads * putsPerThread;
            assertEquals(requests, acknowledged.get(), "every put acknowledged; others: " + others);
            assertEquals(0, acknowledgedEarly.get(), "no put acknowledged before its bytes were flushed");
            assertEquals(f.target.maxWrotePosition(), f.target.flushedWhere());
            long fsyncs = f.target.forces.get();
            LOG.info("{} puts from {} threads: {} fsyncs, {} puts per group commit, fsync p99 {} us", requests,
                    threads, fsyncs, f.statistics.requestsPerGroupCommit(),
                    f.statistics.fsyncLatency().percentile(0.99));
            assertTrue(fsyncs * 2 < requests, "group commit: " + fsyncs + " fsyncs for " + requests + " puts");
            assertTrue(f.statistics.requestsPerGroupCommit() > 2, "puts per group commit: "
                    + f.statistics.requestsPerGroupCommit());
            assertEquals(fsyncs, f.statistics.flushes());
        }
    }

    @Test
    void aPutThatDoesNotWaitIsAcknowledgedAtOnceAndStillFlushed() throws Exception {
        try (FlushFixture f = groupCommit(LONG_TIMEOUT)) {
            f.service.start();
            long next = f.target.append(100, 1);
            CompletableFuture<PutMessageStatus> ack = f.service.handle(next, false);
            assertTrue(ack.isDone());
            assertEquals(PutMessageStatus.PUT_OK, ack.join());
            waitFor("the woken flush thread to flush", () -> f.target.flushedWhere() == next);
        }
    }

    @Test
    void aForceThatHangsEndsInFlushDiskTimeout() throws Exception {
        try (FlushFixture f = groupCommit(200)) {
            f.target.forceGate = new CountDownLatch(1);
            f.service.start();
            long next = f.target.append(100, 1);

            assertEquals(PutMessageStatus.FLUSH_DISK_TIMEOUT, await(f.service.handle(next, true)));
            assertEquals(0, f.target.flushedWhere());

            f.target.forceGate.countDown();
            waitFor("the released force to complete", () -> f.target.flushedWhere() == next);
            long later = f.target.append(100, 2);
            assertEquals(PutMessageStatus.PUT_OK, await(f.service.handle(later, true)));
        }
    }

    @Test
    void aForceThatNeverAdvancesEndsInFlushDiskTimeout() throws Exception {
        try (FlushFixture f = groupCommit(200)) {
            f.target.stalled = true;
            f.service.start();
            long next = f.target.append(100, 1);
            assertEquals(PutMessageStatus.FLUSH_DISK_TIMEOUT, await(f.service.handle(next, true)));
            assertEquals(0, f.health.marks.get(), "a slow disk is not a failed disk");
        }
    }

    @Test
    void aFailingForceNeverAcknowledgesAndTheServiceRecoversWithTheDisk() throws Exception {
        try (FlushFixture f = groupCommit(LONG_TIMEOUT)) {
            f.target.failingForces.set(-1);
            f.service.start();
            List<CompletableFuture<PutMessageStatus>> during = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                during.add(f.service.handle(f.target.append(100, i + 1), true));
            }
            for (CompletableFuture<PutMessageStatus> future : during) {
                assertEquals(PutMessageStatus.FLUSH_DISK_TIMEOUT, await(future), "the force failed, no PUT_OK");
            }
            assertEquals(0, f.target.flushedWhere());
            assertTrue(f.statistics.flushFailures() >= 1);
            assertEquals(1, f.health.marks.get(), "marked not writable once for the streak");
            assertEquals(0, f.checkpoint.physicUpdates.get());

            f.target.failingForces.set(0);
            long next = f.target.append(100, 99);
            PutMessageStatus first = await(f.service.handle(next, true));
            if (first != PutMessageStatus.PUT_OK) {
                // A round whose force began (and failed) before the disk recovered may fail a put registered
                // during it; every round after it succeeds, so the next put must be acknowledged.
                next = f.target.append(100, 100);
                first = await(f.service.handle(next, true));
            }
            assertEquals(PutMessageStatus.PUT_OK, first);
            assertTrue(f.target.flushedWhere() >= next);
            assertEquals(1, f.health.marks.get());
        }
    }

    @Test
    void shutdownFlushesAndAcknowledgesEveryWaitingPut() throws Exception {
        try (FlushFixture f = groupCommit(LONG_TIMEOUT)) {
            f.target.stalled = true;
            f.service.start();
            List<CompletableFuture<PutMessageStatus>> waiting = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                waiting.add(f.service.handle(f.target.append(100, i + 1), true));
            }
            pause(100);
            assertFalse(waiting.get(0).isDone(), "nothing flushed yet, nothing acknowledged");
            // The disk catches up just as the store shuts down: the final flush covers every waiting put.
            f.target.forceGate = new CountDownLatch(1);
            f.target.stalled = false;
            Thread releaser = new Thread(() -> {
                pause(100);
                f.target.forceGate.countDown();
            });
            releaser.start();

            f.service.shutdown();

            releaser.join();
            for (CompletableFuture<PutMessageStatus> future : waiting) {
                assertTrue(future.isDone());
                assertEquals(PutMessageStatus.PUT_OK, future.join());
            }
            assertEquals(f.target.maxWrotePosition(), f.target.flushedWhere());
            assertFalse(RealtimeFlushServiceTest.threadAlive(GroupCommitFlushService.THREAD_NAME));
            assertFalse(RealtimeFlushServiceTest.threadAlive(FlushDeadlineWatcher.THREAD_NAME));
        }
    }

    @Test
    void shutdownCompletesWaitingPutsItCannotFlushWithTimeout() throws Exception {
        try (FlushFixture f = groupCommit(LONG_TIMEOUT)) {
            f.target.stalled = true;
            f.service.start();
            List<CompletableFuture<PutMessageStatus>> waiting = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                waiting.add(f.service.handle(f.target.append(100, i + 1), true));
            }

            f.service.shutdown();

            for (CompletableFuture<PutMessageStatus> future : waiting) {
                assertTrue(future.isDone(), "no put is left waiting after shutdown");
                assertEquals(PutMessageStatus.FLUSH_DISK_TIMEOUT, future.join());
            }
            long late = f.target.append(100, 99);
            assertEquals(PutMessageStatus.FLUSH_DISK_TIMEOUT, f.service.handle(late, true).getNow(null),
                    "a put after shutdown is answered at once");
        }
    }

    @Test
    void checkpointGetsTheStoreTimestampReadBeforeTheFlush() throws Exception {
        try (FlushFixture f = groupCommit(LONG_TIMEOUT)) {
            f.target.duringForce = () -> f.target.storeTimestamp(9_999_999);
            f.service.start();
            long next = f.target.append(100, 1_234_567);
            assertEquals(PutMessageStatus.PUT_OK, await(f.service.handle(next, true)));
            assertEquals(1_234_567, f.checkpoint.physicMsgTimestamp());
        }
    }
}
