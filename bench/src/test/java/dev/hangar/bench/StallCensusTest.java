package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    /**
     * A spinning put is on a CPU or waiting for one, so it is classed running or runnable. On a loaded VM the
     * hypervisor may also take the vCPU away for most of the 60 ms (steal: neither CPU time nor run-queue wait in
     * the thread's schedstat), which the census rightly classes "off CPU"; so a few attempts are made, each printed,
     * and one classed on or waiting for a CPU is required. A census that classed spinning as off CPU fails them all.
     */
    @Test
    void aPutThatSpinsIsNeverClassedAsleep() throws Exception {
        List<StallCensus.Counts> attempts = new ArrayList<>();
        for (int attempt = 0; attempt < 5; attempt++) {
            StallCensus.Counts counts = censusOfOnePut(() -> {
                long t0 = System.nanoTime();
                while (System.nanoTime() - t0 < HELD) {
                    Thread.onSpinWait();
                }
            });
            assertEquals(1, counts.stalls());
            attempts.add(counts);
            System.out.println("spinning put, attempt " + (attempt + 1) + ": " + counts);
            if (counts.writerOffCpu() == 0 && counts.writerRunning() + counts.writerWaitingForCpu() == 1) {
                return;
            }
        }
        fail("a spinning put was never classed running or waiting for a CPU in " + attempts.size() + " attempts: "
                + attempts);
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
