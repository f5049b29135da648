package dev.hangar.flush;

import static dev.hangar.flush.FlushFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.flush.FlushWaiter;
import dev.hangar.spi.store.PutMessageStatus;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group commit's next force does not wait for the puts of the last one to be told: a large release (many puts
 * in flight) is told on the release thread while the next force runs; a small one (closed-loop writers) is told by
 * the flush thread itself. Forces are held by the test and the telling is held by a waiter that blocks, so the
 * checks count events and do not depend on the disk's or the machine's speed.
 */
class GroupCommitReleaseTest {
    private static final int LONG_TIMEOUT = 60_000;
    private static final int LARGE = PutReleaser.TOLD_INLINE_AT_MOST + 36;

    @TempDir
    Path dir;

    /** A waiter that records how often and on which thread it was told; the gated one blocks until let go. */
    private static final class Waiter implements FlushWaiter {
        final AtomicReference<PutMessageStatus> status = new AtomicReference<>();
        final AtomicInteger calls = new AtomicInteger();
        volatile String thread;
        final CountDownLatch gate;
        final CountDownLatch entered = new CountDownLatch(1);

        Waiter(CountDownLatch gate) {
            this.gate = gate;
        }

        @Override
        public void flushed(PutMessageStatus s) {
            thread = Thread.currentThread().getName();
            calls.incrementAndGet();
            status.set(s);
            entered.countDown();
            if (gate != null) {
                try {
                    gate.await(FlushFixture.WAIT_BOUND_MILLIS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private FlushFixture groupCommit() throws Exception {
        return FlushFixture.groupCommit(dir, LONG_TIMEOUT);
    }

    /**
     * Appends the bytes of {@code count} puts in one append (so a force covers all of them or none), then registers a
     * waiter for each put's end (the first one gated by {@code gate}). The test holds every force until it lets one
     * go, so one force releases them all.
     */
    private static List<Waiter> register(FlushFixture f, GroupCommitFlushService service, int count,
                                         CountDownLatch gate) throws Exception {
        int bytesPerPut = 64;
        long start = f.target.append(bytesPerPut * count, count) - (long) bytesPerPut * count;
        List<Waiter> waiters = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Waiter w = new Waiter(i == 0 ? gate : null);
            long end = start + (long) bytesPerPut * (i + 1);
            assertNull(service.awaitFlush(end, w), "nothing is forced yet: the put waits");
            waiters.add(w);
        }
        return waiters;
    }

    /** Holds each force until the test releases a permit; returns the positions the forces cover. */
    private static List<Long> holdForces(FlushFixture f, Semaphore permits) {
        List<Long> covered = new CopyOnWriteArrayList<>();
        f.target.forceStarting = end -> {
            covered.add(end);
            permits.acquireUninterruptibly();
        };
        return covered;
    }

    /** A started group commit whose forces wait for {@code forces} permits, and a gate for a release's telling. */
    private record Held(GroupCommitFlushService service, Semaphore forces, List<Long> covered,
                        CountDownLatch telling) {
    }

    private static Held startHeld(FlushFixture f) {
        Semaphore forces = new Semaphore(0);
        List<Long> covered = holdForces(f, forces);
        GroupCommitFlushService service = (GroupCommitFlushService) f.service;
        service.start();
        return new Held(service, forces, covered, new CountDownLatch(1));
    }

    private static void assertToldOnceOn(List<Waiter> waiters, String thread, String what) {
        for (Waiter w : waiters) {
            waitFor(what + " to be told", () -> w.calls.get() > 0);
            assertEquals(1, w.calls.get(), what + ": told exactly once");
            assertEquals(PutMessageStatus.PUT_OK, w.status.get(), what);
            assertEquals(thread, w.thread, what + ": told on");
        }
    }

    @Test
    void theNextForceStartsWhileALargeReleaseIsStillBeingToldOnTheReleaseThread() throws Exception {
        try (FlushFixture f = groupCommit()) {
            Held h = startHeld(f);
            try {
                List<Waiter> first = register(f, h.service(), LARGE, h.telling());
                waitFor("the first force to start", () -> h.covered().size() == 1);
                h.forces().release();
                waitFor("the first release to be told", () -> first.get(0).entered.getCount() == 0);
                assertEquals(PutReleaser.THREAD_NAME, first.get(0).thread, "a large release is handed off");

                // The first release's telling is held. Puts written now must get their own force at once.
                List<Waiter> second = register(f, h.service(), 3, null);
                waitFor("a second force while the first release is still being told", () -> h.covered().size() == 2);
                h.forces().release();
                assertToldOnceOn(second, GroupCommitFlushService.THREAD_NAME, "the small second release");
                assertTrue(first.get(1).calls.get() == 0, "the first release is still held behind its first waiter");

                h.telling().countDown();
                assertToldOnceOn(first, PutReleaser.THREAD_NAME, "the large first release");
                assertEquals(1, h.service().releasesHandedOff());
            } finally {
                h.telling().countDown();
                h.forces().release(1_000);
            }
        }
    }

    @Test
    void whenEveryReleaseSlotIsTakenTheFlushThreadTellsTheNextReleaseItselfAndForcesOn() throws Exception {
        try (FlushFixture f = groupCommit()) {
            Held h = startHeld(f);
            try {
                List<Waiter> held = register(f, h.service(), LARGE, h.telling());
                waitFor("the first force", () -> h.covered().size() == 1);
                h.forces().release();
                waitFor("the held release to be told", () -> held.get(0).entered.getCount() == 0);
                List<List<Waiter>> queued = new ArrayList<>();
                for (int i = 1; i < PutReleaser.SLOTS; i++) {
                    List<Waiter> release = register(f, h.service(), LARGE, null);
                    int force = i + 1;
                    waitFor("force " + force, () -> h.covered().size() == force);
                    h.forces().release();
                    waitFor("release " + force + " to be handed off",
                            () -> h.service().releasesHandedOff() == force);
                    queued.add(release);
                }
                List<Waiter> overflow = register(f, h.service(), LARGE, null);
                waitFor("the force of the release that finds no free slot",
                        () -> h.covered().size() == PutReleaser.SLOTS + 1);
                h.forces().release();
                assertToldOnceOn(overflow, GroupCommitFlushService.THREAD_NAME, "a release while every slot is taken");
                for (List<Waiter> release : queued) {
                    assertEquals(0, release.get(0).calls.get(), "queued behind the held release");
                }

                h.telling().countDown();
                assertToldOnceOn(held, PutReleaser.THREAD_NAME, "the held release");
                for (List<Waiter> release : queued) {
                    assertToldOnceOn(release, PutReleaser.THREAD_NAME, "a queued release");
                }
                assertEquals(PutReleaser.SLOTS, h.service().releasesHandedOff());
            } finally {
                h.telling().countDown();
                h.forces().release(1_000);
            }
        }
    }

    @Test
    void shutdownTellsEveryReleaseHandedOffBeforeItReturns() throws Exception {
        FlushFixture f = groupCommit();
        Semaphore forces = new Semaphore(0);
        List<Long> covered = holdForces(f, forces);
        GroupCommitFlushService service = (GroupCommitFlushService) f.service;
        service.start();
        CountDownLatch telling = new CountDownLatch(1);
        List<Waiter> handed = register(f, service, LARGE, telling);
        waitFor("the force to start", () -> covered.size() == 1);
        forces.release();
        waitFor("the release to be handed off", () -> handed.get(0).entered.getCount() == 0);
        List<Waiter> last = register(f, service, LARGE, null); // its force is held until shutdown is under way

        Thread closer = new Thread(() -> {
            try {
                f.close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        closer.start();
        forces.release(1_000);
        // Let the held waiter go only once shutdown is under way, so the release thread has work when asked to stop.
        waitFor("every put to be forced", () -> f.target.flushedWhere() == f.target.maxWrotePosition());
        telling.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(60));
        assertTrue(!closer.isAlive(), "shutdown returned");
        for (Waiter w : handed) {
            assertEquals(1, w.calls.get(), "told exactly once by the time shutdown returned");
            assertEquals(PutMessageStatus.PUT_OK, w.status.get());
        }
        for (Waiter w : last) {
            assertEquals(1, w.calls.get(), "told exactly once by the time shutdown returned");
            assertEquals(PutMessageStatus.PUT_OK, w.status.get());
        }
    }

    @Test
    void manyPutsInFlightAreEachToldOnceAndNeverBeforeTheirForce() throws Exception {
        int threads = 4;
        int inFlight = 256;
        int putsPerThread = 4_000;
        try (FlushFixture f = groupCommit()) {
            f.service.start();
            AtomicInteger early = new AtomicInteger();
            AtomicInteger ok = new AtomicInteger();
            Set<CompletableFuture<PutMessageStatus>> completedTwice = ConcurrentHashMap.newKeySet();
            List<Thread> putters = new ArrayList<>();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread putter = new Thread(() -> {
                    try {
                        ArrayDeque<CompletableFuture<PutMessageStatus>> pending = new ArrayDeque<>();
                        for (int i = 0; i < putsPerThread; i++) {
                            long next;
                            synchronized (f.target) {
                                next = f.target.append(64, i);
                            }
                            AtomicInteger completions = new AtomicInteger();
                            CompletableFuture<PutMessageStatus> answer = f.service.handle(next, true);
                            answer.whenComplete((s, e) -> {
                                if (s == PutMessageStatus.PUT_OK && f.target.flushedWhere() < next) {
                                    early.incrementAndGet();
                                }
                                if (completions.incrementAndGet() > 1) {
                                    completedTwice.add(answer);
                                }
                            });
                            pending.addLast(answer);
                            if (pending.size() >= inFlight) {
                                count(pending.removeFirst(), ok);
                            }
                        }
                        while (!pending.isEmpty()) {
                            count(pending.removeFirst(), ok);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                putters.add(putter);
                putter.start();
            }
            for (Thread putter : putters) {
                putter.join(TimeUnit.MINUTES.toMillis(2));
            }
            assertEquals(List.of(), failures);
            assertEquals(threads * putsPerThread, ok.get(), "every put told PUT_OK");
            assertEquals(0, early.get(), "no put told PUT_OK before its force covered it");
            assertTrue(completedTwice.isEmpty(), "no put told twice");
            GroupCommitFlushService service = (GroupCommitFlushService) f.service;
            assertTrue(service.releasesHandedOff() > 0, "with 1 024 puts in flight some releases are large enough "
                    + "to hand off: " + service.counters().summary());
        }
    }

    private static void count(CompletableFuture<PutMessageStatus> answer, AtomicInteger ok) throws Exception {
        if (answer.get(FlushFixture.WAIT_BOUND_MILLIS, TimeUnit.MILLISECONDS) == PutMessageStatus.PUT_OK) {
            ok.incrementAndGet();
        }
    }
}
