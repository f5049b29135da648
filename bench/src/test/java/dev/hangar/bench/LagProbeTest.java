package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The lag probe's bracket: the lower bound of a sample is the poll before the one that saw it, and only when that
 * earlier poll could have missed it (the sample was already waiting). Driven by a slave end the test moves and by
 * counting the poller's reads, not by time.
 */
class LagProbeTest {
    /** A pair whose slave end the test sets; counts the poller's reads of it. */
    private static final class FakePair implements HaPair {
        final AtomicLong slaveEnd = new AtomicLong();
        final AtomicLong reads = new AtomicLong();

        @Override
        public String name() {
            return "fake";
        }

        @Override
        public CompletableFuture<Long> put(int n) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long slaveMaxOffset() {
            reads.incrementAndGet();
            return slaveEnd.get();
        }

        @Override
        public void close() {
        }
    }

    private static void awaitReads(FakePair pair, long atLeast) {
        await(() -> pair.reads.get() >= atLeast);
    }

    private static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "condition not reached within 60 s");
            LockSupport.parkNanos(1_000_000);
        }
    }

    @Test
    void aSampleTheSlaveHeldBeforeItWasWaitingHasNoLowerBound() throws Exception {
        FakePair pair = new FakePair();
        pair.slaveEnd.set(1_000);
        LagProbe probe = new LagProbe(pair);
        long answered = System.nanoTime();
        // polls that run after the answer but before the sample is waiting: none of them missed it (it was not
        // waiting), so none may serve as its lower bound, however late the sample is registered
        awaitReads(pair, pair.reads.get() + 3);
        probe.expect(500, answered);
        probe.finish();
        assertEquals(0, probe.lowerBoundMaxNanos(), "lower bound of a sample the slave already held");
    }

    @Test
    void aSampleThePollsMissedIsBoundedBelowByTheLastPollThatMissedIt() throws Exception {
        FakePair pair = new FakePair();
        LagProbe probe = new LagProbe(pair);
        long answered = System.nanoTime();
        probe.expect(500, answered);
        long missedFrom = pair.reads.get() + 1;
        awaitReads(pair, missedFrom + 2); // at least two reads saw the sample waiting and the slave short of it
        pair.slaveEnd.set(1_000);
        var upper = probe.finish();
        long lower = probe.lowerBoundMaxNanos();
        assertTrue(lower > 0, "a sample missed by two polls has a positive lower bound: " + lower);
        assertTrue(lower <= upper.max(), "lower " + lower + " <= upper " + upper.max());
        assertTrue(probe.bracket().startsWith("lag bracket: p50 "), probe.bracket());
    }
}
