package dev.hangar.flush;

import static dev.hangar.flush.FlushFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.flush.FlushWaiter;
import dev.hangar.spi.store.PutMessageStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit keeps the disk busy: a force covers everything written when it starts, releases every waiter it
 * covers, and the next force starts as soon as the last returns when puts were written meanwhile. Forces are held
 * by the test (each one records the position it covers and waits for a permit), so the checks count events and do
 * not depend on the disk's speed.
 */
class GroupCommitPipelineTest {
    private static final int LONG_TIMEOUT = 60_000;

    @TempDir
    Path dir;

    /** One waiter: remembers its status and whether the flushed position covered it when it was told. */
    private static final class Waiter implements FlushWaiter {
        final AtomicReference<PutMessageStatus> status = new AtomicReference<>();
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public void flushed(PutMessageStatus s) {
            calls.incrementAndGet();
            status.set(s);
        }
    }

    private FlushFixture groupCommit() throws Exception {
        return FlushFixture.groupCommit(dir, LONG_TIMEOUT);
    }

    @Test
    void aForceReleasesEveryCoveredWaiterAndTheNextForceStartsRightAfterCoveringAllPutsWrittenDuringIt()
            throws Exception {
        try (FlushFixture f = groupCommit()) {
            List<Long> covered = new CopyOnWriteArrayList<>();
            Semaphore permits = new Semaphore(0);
            f.target.forceStarting = end -> {
                covered.add(end);
                permits.acquireUninterruptibly();
            };
            GroupCommitFlushService service = (GroupCommitFlushService) f.service;
            service.start();
            try {
                pipeline(f, service, covered, permits);
            } finally {
                permits.release(1_000); // the shutdown's flush must not wait, even after a failure
            }
        }
    }

    private static void pipeline(FlushFixture f, GroupCommitFlushService service, List<Long> covered,
                                 Semaphore permits) throws Exception {
        {
            long endA = f.target.append(100, 1);
            long endB = f.target.append(100, 2);
            Waiter a = new Waiter();
            assertNull(service.awaitFlush(endA, a), "nothing is flushed yet: the put waits");
            waitFor("the first force to start", () -> covered.size() == 1);
            assertEquals(endB, covered.get(0), "a force covers everything written when it starts");

            // B registers after the first force started, though its bytes are in it; C is written during it.
            Waiter b = new Waiter();
            assertNull(service.awaitFlush(endB, b));
            List<Waiter> during = new ArrayList<>();
            long endC = 0;
            for (int i = 0; i < 10; i++) {
                endC = f.target.append(100, 3 + i);
                Waiter c = new Waiter();
                assertNull(service.awaitFlush(endC, c));
                during.add(c);
            }

            permits.release(); // the first force returns
            long lastWritten = endC;
            waitFor("the second force to start without another put", () -> covered.size() == 2);
            assertEquals(lastWritten, covered.get(1), "the next force covers every put written during the last");
            assertEquals(PutMessageStatus.PUT_OK, a.status.get());
            assertEquals(PutMessageStatus.PUT_OK, b.status.get(),
                    "a waiter covered by a force is released by that force, not by the next one");
            for (Waiter c : during) {
                assertNull(c.status.get(), "not durable yet: the second force is still held");
            }

            permits.release();
            for (Waiter c : during) {
                waitFor("the second force to release the puts written during the first",
                        () -> c.status.get() != null);
                assertEquals(PutMessageStatus.PUT_OK, c.status.get());
            }
            assertEquals(2, f.target.forces.get(), "12 puts, 2 forces");
            assertEquals(1, a.calls.get());
            assertEquals(1, b.calls.get());
            assertEquals(0, service.waitingPuts());
        }
    }

    @Test
    void closedLoopPutsNeedFarFewerForcesThanPuts() throws Exception {
        int threads = 16;
        int putsPerThread = 200;
        try (FlushFixture f = groupCommit()) {
            GroupCommitFlushService service = (GroupCommitFlushService) f.service;
            AtomicInteger finished = new AtomicInteger();
            // Hold each force until every putter still running has registered: then each force covers (nearly)
            // one put per thread, whatever the disk's speed.
            f.target.forceStarting = end -> waitFor("every running putter to wait",
                    () -> service.waitingPuts() + finished.get() >= threads);
            service.start();
            AtomicInteger notOk = new AtomicInteger();
            List<Thread> putters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread putter = new Thread(() -> {
                    try {
                        for (int i = 0; i < putsPerThread; i++) {
                            long end = f.target.append(64, i + 1);
                            Waiter w = new Waiter();
                            PutMessageStatus now = service.awaitFlush(end, w);
                            if (now == null) {
                                waitFor("the put to be told", () -> w.status.get() != null);
                                now = w.status.get();
                            }
                            if (now != PutMessageStatus.PUT_OK || f.target.flushedWhere() < end) {
                                notOk.incrementAndGet();
                            }
                        }
                    } catch (Exception e) {
                        notOk.incrementAndGet();
                    } finally {
                        finished.incrementAndGet();
                    }
                });
                putters.add(putter);
                putter.start();
            }
            for (Thread putter : putters) {
                putter.join(120_000);
            }
            int puts = threads * putsPerThread;
            assertEquals(0, notOk.get());
            int forces = f.target.forces.get();
            assertTrue(forces * 4 <= puts, forces + " forces for " + puts + " puts");
            assertEquals(0, service.waitingPuts());
        }
    }
}
