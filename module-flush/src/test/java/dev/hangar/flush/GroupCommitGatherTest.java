package dev.hangar.flush;

import static dev.hangar.flush.FlushFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.flush.FlushWaiter;
import dev.hangar.spi.store.PutMessageStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group commit's gather: after a force released more puts than are waiting again, the next force waits for the
 * released writers to come back (up to {@code groupCommitGatherPercent} % of that force's time), so each
 * closed-loop put waits for one force instead of the rest of one plus a whole next one. Forces are held by the
 * test, and the first one is held long (a second) so the gather's bound is far longer than the few registrations
 * each test makes: the checks count forces and do not depend on the disk's or the machine's speed.
 */
class GroupCommitGatherTest {
    private static final int LONG_TIMEOUT = 60_000;
    /** How long the test holds the first force: the gather's bound is a share of it. */
    private static final long FIRST_FORCE_MILLIS = 1_000;

    @TempDir
    Path dir;

    private static final class Waiter implements FlushWaiter {
        final AtomicReference<PutMessageStatus> status = new AtomicReference<>();

        @Override
        public void flushed(PutMessageStatus s) {
            status.set(s);
        }
    }

    private FlushFixture groupCommit(int gatherPercent) throws Exception {
        StoreConfig config = StoreConfig.builder()
                .set(StoreConfigKeys.FLUSH_DISK_TYPE, "SYNC_FLUSH")
                .set(StoreConfigKeys.SYNC_FLUSH_TIMEOUT, LONG_TIMEOUT)
                .set(StoreConfigKeys.GROUP_COMMIT_GATHER_PERCENT, gatherPercent)
                .build();
        return new FlushFixture(dir, false, config, new GroupCommitFlushProvider()::create);
    }

    /** Registers four puts, holds the first force {@link #FIRST_FORCE_MILLIS}, and lets it release all four. */
    private static void firstRoundOfFourPuts(FlushFixture f, GroupCommitFlushService service, List<Long> covered,
                                             Semaphore permits) throws Exception {
        // All four written before any registers, so the force that the first registration starts covers them all.
        long[] ends = new long[4];
        for (int i = 0; i < 4; i++) {
            ends[i] = f.target.append(100, i + 1);
        }
        List<Waiter> first = new ArrayList<>();
        for (long end : ends) {
            Waiter w = new Waiter();
            assertNull(service.awaitFlush(end, w));
            first.add(w);
        }
        long lastOfFirst = ends[3];
        waitFor("the first force to start", () -> covered.size() == 1 && covered.get(0) == lastOfFirst);
        FlushFixture.pause(FIRST_FORCE_MILLIS);
        permits.release();
        for (Waiter w : first) {
            waitFor("the first force to release its puts", () -> w.status.get() != null);
            assertEquals(PutMessageStatus.PUT_OK, w.status.get());
        }
    }

    @Test
    void theNextForceWaitsUntilEveryReleasedWriterPutAgainAndCoversThemAll() throws Exception {
        try (FlushFixture f = groupCommit(100)) {
            List<Long> covered = new CopyOnWriteArrayList<>();
            Semaphore permits = new Semaphore(0);
            f.target.forceStarting = end -> {
                covered.add(end);
                permits.acquireUninterruptibly();
            };
            GroupCommitFlushService service = (GroupCommitFlushService) f.service;
            service.start();
            try {
                firstRoundOfFourPuts(f, service, covered, permits);
                List<Waiter> again = new ArrayList<>();
                long end = 0;
                for (int i = 0; i < 3; i++) {
                    end = f.target.append(100, 10 + i);
                    Waiter w = new Waiter();
                    assertNull(service.awaitFlush(end, w));
                    again.add(w);
                }
                // Three of the four released writers are back: the flush thread keeps gathering (its bound is a
                // second away). Without the gather a force would have started at the first of them.
                FlushFixture.pause(50);
                assertEquals(1, covered.size(), "no force starts while released writers are still coming back");
                end = f.target.append(100, 13);
                Waiter last = new Waiter();
                assertNull(service.awaitFlush(end, last));
                again.add(last);
                long lastWritten = end;
                waitFor("the second force to start once all four are back", () -> covered.size() == 2);
                assertEquals(lastWritten, covered.get(1), "the second force covers all four returned puts");
                permits.release();
                for (Waiter w : again) {
                    waitFor("the second force to release the returned puts", () -> w.status.get() != null);
                    assertEquals(PutMessageStatus.PUT_OK, w.status.get());
                }
                waitFor("the counters to see the second force", () -> service.counters().forces() == 2);
                assertEquals(8, service.counters().putsThatWaitedForces(1), "every put waited for one force");
                // The first gather saw everyone back; the next one (after the second force) finds nobody coming.
                assertEquals(1, service.counters().gathersEveryoneBack(), "one gather ended with everyone back");
                // What stat and /metrics show: the same figures through the statistics the store reads.
                assertEquals(8, f.statistics.groupCommitRequests());
                assertEquals(0, f.statistics.requestsThatWaitedMoreThanOneForce(), "nobody waited for two forces");
                assertEquals(service.counters().gathers(), f.statistics.gathers());
                assertEquals(service.counters().gathersTimedOut(), f.statistics.gathersBoundRanOut());
            } finally {
                permits.release(1_000); // the shutdown's flush must not wait, even after a failure
            }
        }
    }

    @Test
    void aGatherEndsAtItsBoundWhenTheReleasedWritersDoNotComeBack() throws Exception {
        try (FlushFixture f = groupCommit(10)) {
            List<Long> covered = new CopyOnWriteArrayList<>();
            Semaphore permits = new Semaphore(0);
            f.target.forceStarting = end -> {
                covered.add(end);
                permits.acquireUninterruptibly();
            };
            GroupCommitFlushService service = (GroupCommitFlushService) f.service;
            service.start();
            try {
                firstRoundOfFourPuts(f, service, covered, permits);
                long end = f.target.append(100, 10);
                Waiter lonely = new Waiter();
                assertNull(service.awaitFlush(end, lonely));
                // Only one of four comes back: the force starts when the bound (10 % of a second) runs out.
                waitFor("the second force to start at the gather's bound", () -> covered.size() == 2);
                assertEquals(end, covered.get(1));
                permits.release();
                waitFor("the lonely put to be released", () -> lonely.status.get() != null);
                assertEquals(PutMessageStatus.PUT_OK, lonely.status.get());
                // The first gather ran out; the one after the lonely put's force may have too (nobody came back).
                assertEquals(true, service.counters().gathersTimedOut() >= 1);
                assertEquals(0, service.counters().gathersEveryoneBack(), "no gather saw everyone back");
                assertEquals(f.statistics.gathers(), f.statistics.gathersBoundRanOut(), "every gather ran out");
            } finally {
                permits.release(1_000);
            }
        }
    }

    @Test
    void withoutTheGatherAReturningWriterStartsTheNextForceAlone() throws Exception {
        // The control for the first test: with groupCommitGatherPercent=0 the first returning writer's put is
        // forced by itself, and the three after it wait for that force and the next (two forces each).
        try (FlushFixture f = groupCommit(0)) {
            List<Long> covered = new CopyOnWriteArrayList<>();
            Semaphore permits = new Semaphore(0);
            f.target.forceStarting = end -> {
                covered.add(end);
                permits.acquireUninterruptibly();
            };
            GroupCommitFlushService service = (GroupCommitFlushService) f.service;
            service.start();
            try {
                firstRoundOfFourPuts(f, service, covered, permits);
                long firstBack = f.target.append(100, 10);
                assertNull(service.awaitFlush(firstBack, new Waiter()));
                waitFor("a force for the first writer back", () -> covered.size() == 2);
                assertEquals(firstBack, covered.get(1), "the force covers only the first writer back");
                List<Waiter> later = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    Waiter w = new Waiter();
                    assertNull(service.awaitFlush(f.target.append(100, 11 + i), w));
                    later.add(w);
                }
                permits.release(2);
                for (Waiter w : later) {
                    waitFor("the third force to release the later writers", () -> w.status.get() != null);
                }
                waitFor("the counters to see the third force", () -> service.counters().forces() == 3);
                assertEquals(3, service.counters().putsThatWaitedForces(2), "three puts waited for two forces");
                assertEquals(0, service.counters().gathers());
                assertEquals(3, f.statistics.requestsThatWaitedMoreThanOneForce(), "as stat and /metrics show it");
                assertEquals(0, f.statistics.gathers());
            } finally {
                permits.release(1_000);
            }
        }
    }

    @Test
    void theGatherIsOnByDefaultOverAWriteBufferAndOffOverTheMappingUnlessSet() {
        StoreConfig mmap = StoreConfig.builder().set(StoreConfigKeys.MAPPED_FILE, "mmap").build();
        StoreConfig pool = StoreConfig.builder().set(StoreConfigKeys.MAPPED_FILE, "transient-pool").build();
        StoreConfig mmapSet = StoreConfig.builder().set(StoreConfigKeys.MAPPED_FILE, "mmap")
                .set(StoreConfigKeys.GROUP_COMMIT_GATHER_PERCENT, 30).build();
        assertEquals(0, FlushSettings.from(mmap).gatherPercent());
        assertEquals(StoreConfigKeys.GROUP_COMMIT_GATHER_PERCENT.defaultValue(),
                FlushSettings.from(pool).gatherPercent());
        assertEquals(30, FlushSettings.from(mmapSet).gatherPercent(), "set explicitly, it applies to any storage");
    }

    @Test
    void theCountersBucketPutsPerForceAndForcesWaited() {
        GroupCommitCounters counters = new GroupCommitCounters();
        counters.force(4096, 1_000_000, 16);
        counters.gathered(3, 4, 1_000);
        counters.force(1024, 1_000_000, 1);
        for (int i = 1; i <= 6; i++) {
            counters.waited(i);
        }
        assertEquals(2, counters.forces());
        assertEquals(1, counters.putsThatWaitedForces(1));
        assertEquals(1, counters.putsThatWaitedForces(2));
        assertEquals(1, counters.putsThatWaitedForces(3));
        assertEquals(3, counters.putsThatWaitedForces(4), "four forces or more share the last bucket");
        String summary = counters.summary();
        assertEquals(true, summary.contains("[0, 1, 0, 0, 0, 1, 0, 0, 0, 0]"), summary);
        assertEquals(true, summary.contains("bytes/force 2560"), summary);
        assertEquals(true, summary.contains("bound ran out 1 with 3 of 4 puts back"), summary);
    }
}
