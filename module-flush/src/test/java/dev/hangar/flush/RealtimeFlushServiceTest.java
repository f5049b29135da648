package dev.hangar.flush;

import static dev.hangar.flush.FileChannelFlushTarget.PAGE;
import static dev.hangar.flush.FlushFixture.pause;
import static dev.hangar.flush.FlushFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.store.PutMessageStatus;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RealtimeFlushServiceTest {
    /** How long a test lets a fast-ticking flusher run to show that it does NOT flush something. */
    private static final long SEVERAL_ROUNDS_MILLIS = 300;

    @TempDir
    Path dir;

    private FlushFixture realtime(int intervalMillis, int leastPages, int thoroughMillis, boolean timed) throws Exception {
        StoreConfig config = StoreConfig.builder()
                .set(StoreConfigKeys.FLUSH_INTERVAL_COMMIT_LOG, intervalMillis)
                .set(StoreConfigKeys.FLUSH_COMMIT_LOG_LEAST_PAGES, leastPages)
                .set(StoreConfigKeys.FLUSH_COMMIT_LOG_THOROUGH_INTERVAL, thoroughMillis)
                .set(StoreConfigKeys.FLUSH_COMMIT_LOG_TIMED, timed)
                .build();
        return new FlushFixture(dir, false, config, new RealtimeFlushProvider()::create);
    }

    @Test
    void flushesOnItsOwnEveryInterval() throws Exception {
        try (FlushFixture f = realtime(10, 1, 3_600_000, true)) {
            f.service.start();
            long end = f.target.append(2 * PAGE + 100, 1_000);

            waitFor("the flusher to force two pages", () -> f.target.flushedWhere() >= 2 * PAGE);
            assertTrue(f.statistics.flushes() >= 1);
            assertTrue(f.statistics.flushedBytes() >= 2 * PAGE);
            assertEquals(end, f.target.fileSize());
        }
    }

    @Test
    void leavesFewerThanLeastPagesDirtyUntilEnoughAccumulate() throws Exception {
        try (FlushFixture f = realtime(10, 4, 3_600_000, true)) {
            f.service.start();
            f.target.append(100, 1_000);
            pause(SEVERAL_ROUNDS_MILLIS);
            assertEquals(0, f.target.flushedWhere(), "100 bytes are less than 4 dirty pages");
            assertEquals(0, f.target.forces.get());

            long end = f.target.append(5 * PAGE, 2_000);
            waitFor("4+ dirty pages to be flushed", () -> f.target.flushedWhere() == end);
        }
    }

    @Test
    void flushesLittleDataAtTheThoroughInterval() throws Exception {
        try (FlushFixture f = realtime(10, 4, 200, true)) {
            f.service.start();
            long end = f.target.append(100, 1_000);
            waitFor("the thorough flush of 100 bytes", () -> f.target.flushedWhere() == end);
        }
    }

    @Test
    void oneRoundWorksOffABacklogThatSpansSeveralFiles() throws Exception {
        try (FlushFixture f = realtime(3_600_000, 0, 3_600_000, false)) {
            f.target.maxBytesPerForce = PAGE; // each force stops at a "file" end, as a mapped file queue does
            f.service.start();
            pause(50); // let the thread reach its (hour-long) wait: from now on only handle() starts a round
            long end = f.target.append(10 * PAGE, 1_000);

            f.service.handle(end, false);

            waitFor("one woken round to flush all ten files", () -> f.target.flushedWhere() == end);
            assertEquals(10, f.target.forces.get());
        }
    }

    @Test
    void untimedFlusherIsWokenByHandle() throws Exception {
        try (FlushFixture f = realtime(3_600_000, 0, 3_600_000, false)) {
            f.service.start();
            pause(50); // let the thread reach its (hour-long) wait
            long end = f.target.append(100, 1_000);

            CompletableFuture<PutMessageStatus> ack = f.service.handle(end, false);

            assertTrue(ack.isDone(), "async flush acknowledges before the fsync");
            assertEquals(PutMessageStatus.PUT_OK, ack.join());
            waitFor("the woken flusher to flush", () -> f.target.flushedWhere() == end);
        }
    }

    @Test
    void timedFlusherSleepsThroughHandleButShutdownFlushesEverything() throws Exception {
        try (FlushFixture f = realtime(3_600_000, 0, 3_600_000, true)) {
            f.service.start();
            long end = f.target.append(3 * PAGE + 7, 1_000);
            assertSame(PutMessageStatus.PUT_OK, f.service.handle(end, true).join());
            pause(SEVERAL_ROUNDS_MILLIS);
            assertEquals(0, f.target.flushedWhere(), "a timed flusher is not woken by puts");

            f.service.shutdown();

            assertEquals(end, f.target.flushedWhere());
            assertTrue(f.statistics.flushes() >= 1);
            assertFalse(threadAlive(RealtimeFlushService.THREAD_NAME), "the flush thread ended");
        }
    }

    @Test
    void shutdownRetriesAFailingForceUntilEverythingIsFlushed() throws Exception {
        try (FlushFixture f = realtime(3_600_000, 1_000, 3_600_000, false)) {
            f.service.start();
            long end = f.target.append(PAGE, 1_000);
            f.target.failingForces.set(3);

            f.service.shutdown();

            assertEquals(end, f.target.flushedWhere());
            assertEquals(3, f.statistics.flushFailures());
            assertEquals(1, f.health.marks.get(), "one failure streak marks the store once");
        }
    }

    @Test
    void shutdownFlushesEverythingEvenWhenEachForceCoversOnlyOneFile() throws Exception {
        try (FlushFixture f = realtime(3_600_000, 1_000, 3_600_000, false)) {
            f.service.start();
            long end = 0;
            for (int i = 0; i < 30; i++) {
                end = f.target.append(PAGE, 1_000 + i);
            }
            f.target.maxBytesPerForce = PAGE;

            f.service.shutdown();

            assertEquals(end, f.target.flushedWhere(), "30 files' worth, one force each");
            assertEquals(0, f.statistics.flushFailures());
        }
    }

    @Test
    void shutdownWithoutStartStillFlushes() throws Exception {
        try (FlushFixture f = realtime(500, 4, 10_000, true)) {
            long end = f.target.append(10, 1_000);
            f.service.shutdown();
            assertEquals(end, f.target.flushedWhere());
        }
    }

    @Test
    void failingForceMarksTheStoreNotWritableOnceAndKeepsRunning() throws Exception {
        try (FlushFixture f = realtime(5, 0, 3_600_000, true)) {
            f.target.failingForces.set(-1);
            f.service.start();
            long end = f.target.append(PAGE, 1_000);

            waitFor("several failed rounds", () -> f.statistics.flushFailures() >= 5);
            assertEquals(0, f.target.flushedWhere(), "a failed force does not move the flushed position");
            assertEquals(1, f.health.marks.get());
            assertTrue(f.health.reason.contains("flush failed"), f.health.reason);
            assertEquals(0, f.checkpoint.physicUpdates.get(), "nothing durable, nothing to stamp");

            f.target.failingForces.set(0);
            waitFor("the flusher to succeed once the disk heals", () -> f.target.flushedWhere() == end);
        }
    }

    @Test
    void checkpointGetsTheStoreTimestampReadBeforeTheFlush() throws Exception {
        try (FlushFixture f = realtime(5, 0, 3_600_000, true)) {
            // A record stamped during the force is not covered by it: the checkpoint must not claim it.
            f.target.duringForce = () -> f.target.storeTimestamp(9_999_999);
            f.target.append(100, 1_234_567);
            f.service.start();

            waitFor("the first flush", () -> f.target.flushedWhere() == 100);
            waitFor("the checkpoint stamp", () -> f.checkpoint.physicUpdates.get() == 1);
            assertEquals(1_234_567, f.checkpoint.physicMsgTimestamp());
        }
    }

    @Test
    void rejectsANegativeOffset() throws Exception {
        try (FlushFixture f = realtime(500, 4, 10_000, true)) {
            assertThrows(IllegalArgumentException.class, () -> f.service.handle(-1, false));
        }
    }

    static boolean threadAlive(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }
}
