package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.PutMessageStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AckWaitersTest {
    /** Long enough that no deadline fires in these tests unless a test wants it to. */
    private static final long NO_TIMEOUT_MILLIS = 600_000;

    @Test
    void anAcknowledgementReleasesExactlyThePutsAtOrBelowIt() {
        AckWaiters w = new AckWaiters(NO_TIMEOUT_MILLIS);
        w.start();
        try {
            List<CompletableFuture<PutMessageStatus>> f = new ArrayList<>();
            for (long end = 100; end <= 1000; end += 100) {
                f.add(w.await(end));
            }
            w.acknowledge(550);
            for (int i = 0; i < f.size(); i++) {
                long end = 100L * (i + 1);
                assertEquals(end <= 550, f.get(i).isDone(), "put ending at " + end);
            }
            assertEquals(5, w.waitingCount());
            w.acknowledge(1000);
            f.forEach(x -> assertEquals(PutMessageStatus.PUT_OK, x.join()));
            assertEquals(0, w.waitingCount());
        } finally {
            w.shutdown();
        }
    }

    @Test
    void putsThatArriveOutOfOffsetOrderAreReleasedByOffsetNotByArrival() {
        AckWaiters w = new AckWaiters(NO_TIMEOUT_MILLIS);
        w.start();
        try {
            // put threads overtake each other between their append and their wait
            long[] ends = {500, 300, 900, 100, 700, 200, 800};
            List<CompletableFuture<PutMessageStatus>> f = new ArrayList<>();
            for (long end : ends) {
                f.add(w.await(end));
            }
            w.acknowledge(300);
            for (int i = 0; i < ends.length; i++) {
                assertEquals(ends[i] <= 300, f.get(i).isDone(), "put ending at " + ends[i]);
            }
            w.acknowledge(750);
            for (int i = 0; i < ends.length; i++) {
                assertEquals(ends[i] <= 750, f.get(i).isDone(), "put ending at " + ends[i]);
            }
        } finally {
            w.shutdown();
        }
    }

    @Test
    void aPutAlreadyCoveredIsAnsweredAtOnceAndAnAcknowledgementNeverGoesBack() {
        AckWaiters w = new AckWaiters(NO_TIMEOUT_MILLIS);
        w.start();
        try {
            w.acknowledge(1000);
            w.acknowledge(400); // an older report from a second slave
            assertEquals(1000, w.acked());
            assertSame(SettledOutcomes.PUT_OK, w.await(1000));
            assertFalse(w.await(1001).isDone());
        } finally {
            w.shutdown();
        }
    }

    @Test
    void moreWaitersThanTheFirstCapacityAllStayInOrderAcrossTheRingsGrowth() {
        AckWaiters w = new AckWaiters(NO_TIMEOUT_MILLIS);
        w.start();
        try {
            List<CompletableFuture<PutMessageStatus>> f = new ArrayList<>();
            // release some first so the ring's head is not at index 0 when it grows
            for (long end = 1; end <= 700; end++) {
                f.add(w.await(end));
            }
            w.acknowledge(500);
            for (long end = 701; end <= 5000; end++) {
                f.add(w.await(end));
            }
            assertEquals(4500, w.waitingCount());
            for (long upTo = 1000; upTo <= 5000; upTo += 1000) {
                w.acknowledge(upTo);
                for (int i = 0; i < f.size(); i++) {
                    assertEquals(i + 1 <= upTo, f.get(i).isDone(), "put ending at " + (i + 1) + " after ack " + upTo);
                }
            }
        } finally {
            w.shutdown();
        }
    }

    @Test
    void aPutNobodyAcknowledgesTimesOutAndOnlyThatOne() throws Exception {
        AckWaiters w = new AckWaiters(200);
        w.start();
        try {
            CompletableFuture<PutMessageStatus> late = w.await(100);
            assertEquals(PutMessageStatus.FLUSH_SLAVE_TIMEOUT, late.get(60, TimeUnit.SECONDS));
            // the watcher goes back to sleep and wakes again for the next waiter
            CompletableFuture<PutMessageStatus> second = w.await(200);
            assertEquals(PutMessageStatus.FLUSH_SLAVE_TIMEOUT, second.get(60, TimeUnit.SECONDS));
            assertEquals(0, w.waitingCount());
        } finally {
            w.shutdown();
        }
    }

    @Test
    void shutdownAnswersEveryWaiterAndLaterPutsFlushSlaveTimeout() {
        AckWaiters w = new AckWaiters(NO_TIMEOUT_MILLIS);
        w.start();
        List<CompletableFuture<PutMessageStatus>> f = new ArrayList<>();
        for (long end = 1; end <= 50; end++) {
            f.add(w.await(end));
        }
        w.shutdown();
        f.forEach(x -> assertEquals(PutMessageStatus.FLUSH_SLAVE_TIMEOUT, x.join()));
        assertEquals(PutMessageStatus.FLUSH_SLAVE_TIMEOUT, w.await(51).join());
    }

    /**
     * Put threads waiting while a connection thread acknowledges what was appended, over and over: a put that reads
     * the old acknowledged offset just before the acknowledgement that covers it must still be released by that
     * acknowledgement, else it hangs until its deadline (a slave's next report may be seconds away). No final
     * acknowledgement is sent: every put at or below the last acknowledged offset must be done, none other.
     */
    @Test
    void underConcurrentPutsAndAcknowledgementsNoCoveredPutIsLeftWaiting() throws Exception {
        AckWaiters w = new AckWaiters(NO_TIMEOUT_MILLIS);
        w.start();
        try {
            int threads = 4;
            int perThread = 20_000;
            AtomicLong nextEnd = new AtomicLong();
            AtomicLong appended = new AtomicLong();
            record Put(long end, CompletableFuture<PutMessageStatus> future) {
            }
            List<Put> all = java.util.Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(threads);
            for (int t = 0; t < threads; t++) {
                Thread put = new Thread(() -> {
                    for (int i = 0; i < perThread; i++) {
                        long end = nextEnd.addAndGet(10);
                        appended.accumulateAndGet(end, Math::max);
                        all.add(new Put(end, w.await(end)));
                    }
                    done.countDown();
                }, "ack-waiters-test-put-" + t);
                put.start();
            }
            Thread acker = new Thread(() -> {
                while (done.getCount() > 0) {
                    w.acknowledge(appended.get());
                }
            }, "ack-waiters-test-ack");
            acker.start();
            assertTrue(done.await(120, TimeUnit.SECONDS), "put threads finished");
            acker.join(120_000);
            long last = w.acked();
            assertEquals(threads * perThread, all.size());
            int stranded = 0;
            for (Put p : all) {
                if (p.end() <= last && !p.future().isDone()) {
                    stranded++;
                }
                if (p.end() > last) {
                    assertFalse(p.future().isDone(), "a put past every acknowledgement completed: " + p.end());
                }
            }
            assertEquals(0, stranded, "puts covered by an acknowledgement but still waiting");
        } finally {
            w.shutdown();
        }
    }
}
