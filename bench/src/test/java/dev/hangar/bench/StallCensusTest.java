package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The stall census reads the writer's schedstat around a slow put: a "put" that spins 60 ms is never classed as
 * asleep, one that parks 60 ms is never classed as running. A census that did not read (or mis-parsed) its
 * witnesses classes both alike. No probe runs here, so the machine's load cannot move a put into its class; a
 * loaded machine may still leave either put waiting on the run queue, which both assertions allow.
 */
class StallCensusTest {
    private static final long STALL = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long HELD = TimeUnit.MILLISECONDS.toNanos(60);

    @Test
    void aPutThatSpinsIsNeverClassedAsleep() throws Exception {
        StallCensus.Counts counts = censusOfOnePut(() -> {
            long t0 = System.nanoTime();
            while (System.nanoTime() - t0 < HELD) {
                Thread.onSpinWait();
            }
        });
        assertEquals(1, counts.stalls());
        assertEquals(0, counts.writerOffCpu(), counts.toString());
        assertEquals(1, counts.writerRunning() + counts.writerWaitingForCpu(), counts.toString());
    }

    @Test
    void aPutThatSleepsIsNeverClassedRunning() throws Exception {
        StallCensus.Counts counts = censusOfOnePut(() -> {
            long until = System.nanoTime() + HELD;
            while (System.nanoTime() < until) {
                LockSupport.parkNanos(until - System.nanoTime());
            }
        });
        assertEquals(1, counts.stalls());
        assertEquals(0, counts.writerRunning(), counts.toString());
        assertEquals(1, counts.writerOffCpu() + counts.writerWaitingForCpu(), counts.toString());
    }

    private static StallCensus.Counts censusOfOnePut(Runnable put) throws Exception {
        assertTrue(Files.isReadable(Path.of("/proc/thread-self/schedstat")), "needs Linux schedstat");
        StallCensus census = new StallCensus(1_000);
        PutStallLog slow = new PutStallLog();
        long begin = System.nanoTime();
        census.openOnWriter();
        census.sample(0);
        long t0 = System.nanoTime();
        put.run();
        assertTrue(slow.record(t0, System.nanoTime() - t0));
        census.sample(StallCensus.SAMPLE_EVERY);
        census.closeOnWriter();
        return census.log(LoggerFactory.getLogger(StallCensusTest.class), "test", slow, STALL, begin);
    }
}
