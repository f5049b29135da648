package dev.hangar.bench;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * When each slow put of a run happened, so that a stall can be matched with what else happened then (a CommitLog
 * roll-over, seen as the time its file appears; a GC or safepoint in {@code -Xlog}; the kernel's dirty-page
 * counters sampled beside the run). Filled by one writer thread into preallocated arrays (nothing allocated per
 * put), logged once the writers are done: seconds since the run's start, the wall clock, and how long the put took.
 */
final class PutStallLog {
    /** Puts slower than this are logged: below the 20 ms that counts as a stall, to show what leads up to one. */
    static final long LOGGED_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    static final int CAPACITY = 2_000;

    private final long[] startedNanos = new long[CAPACITY];
    private final long[] tookNanos = new long[CAPACITY];
    private int count;
    private long dropped;

    /**
     * Notes a put that began at {@code t0} and took {@code took} nanoseconds, if it is slow enough; true when it
     * was noted (as number {@link #count()} - 1).
     */
    boolean record(long t0, long took) {
        if (took < LOGGED_NANOS) {
            return false;
        }
        if (count == CAPACITY) {
            dropped++;
            return false;
        }
        startedNanos[count] = t0;
        tookNanos[count] = took;
        count++;
        return true;
    }

    /** Slow puts noted (at most {@link #CAPACITY}). */
    int count() {
        return count;
    }

    /** When slow put {@code i} began, on the nanoTime clock. */
    long startedNanos(int i) {
        return startedNanos[i];
    }

    /** How long slow put {@code i} took. */
    long tookNanos(int i) {
        return tookNanos[i];
    }

    /** Logs every slow put, {@code beginNanos} being the run's start on the nanoTime clock. */
    void log(Logger log, String run, long beginNanos) {
        // the wall clock of the run's start, from the two clocks read together now
        long wallNowMillis = System.currentTimeMillis();
        long nowNanos = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long sinceStart = startedNanos[i] - beginNanos;
            Instant at = Instant.ofEpochMilli(wallNowMillis - TimeUnit.NANOSECONDS.toMillis(nowNanos - startedNanos[i]));
            log.info("{}: slow put at +{} s ({}): {} ms", run, String.format("%.3f", sinceStart / 1e9), at,
                    String.format("%.1f", tookNanos[i] / 1e6));
        }
        if (dropped > 0) {
            log.info("{}: {} more slow puts not logged", run, dropped);
        }
    }
}
