package dev.hangar.flush;

import dev.hangar.spi.flush.FlushWaiter;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The puts waiting for a force, keyed by their end offset: three parallel arrays (waiter, end offset, deadline)
 * under one monitor. Adding a put stores three slots (no node, no future; the arrays grow, rarely, to the most
 * puts ever in flight at once). A force releases every waiter whose end offset is at or below the flushed
 * position in one pass, whatever order the put threads registered in.
 *
 * <p>Exactly once: a waiter is told only by the thread that removed it from the table, under the monitor, and
 * that thread calls {@link FlushWaiter#flushed} after leaving the monitor (a waiter may complete a future whose
 * dependents start another put, which must not find the table locked mid-sweep). Each sweeping thread owns a
 * {@link Batch} it reuses, so sweeping allocates nothing either.
 *
 * <p>Thread-safety: every method from any thread; a {@link Batch} belongs to one thread.
 */
final class WaitingPuts {
    private static final Logger LOG = LoggerFactory.getLogger(WaitingPuts.class);
    private static final int INITIAL_CAPACITY = 64;

    private final Object lock = new Object();
    private FlushWaiter[] waiters = new FlushWaiter[INITIAL_CAPACITY];
    private long[] endOffsets = new long[INITIAL_CAPACITY];
    private long[] deadlines = new long[INITIAL_CAPACITY];
    /** How many forces had completed when each put registered: tells how many it waited for. */
    private long[] forcesAtAdd = new long[INITIAL_CAPACITY];
    private int size;

    /** Waiters removed by one sweep, with the status each gets; reused by the thread that owns it. */
    static final class Batch {
        private FlushWaiter[] waiters = new FlushWaiter[INITIAL_CAPACITY];
        private PutMessageStatus[] statuses = new PutMessageStatus[INITIAL_CAPACITY];
        private int size;
        private int acknowledged;

        private void add(FlushWaiter waiter, PutMessageStatus status) {
            if (size == waiters.length) {
                waiters = Arrays.copyOf(waiters, size * 2);
                statuses = Arrays.copyOf(statuses, size * 2);
            }
            waiters[size] = waiter;
            statuses[size++] = status;
            if (status == PutMessageStatus.PUT_OK) {
                acknowledged++;
            }
        }

        /** Tells every removed waiter its status (outside the table's monitor); returns how many got {@code PUT_OK}. */
        int tell() {
            int ok = acknowledged;
            for (int i = 0; i < size; i++) {
                PutMessageStatus status = statuses[i];
                FlushWaiter waiter = waiters[i];
                waiters[i] = null;
                statuses[i] = null;
                try {
                    waiter.flushed(status);
                } catch (RuntimeException e) {
                    // One waiter's failure must not leave the others of the batch untold (nor end the telling thread).
                    LOG.error("a put waiting for the flush failed when told {}", status, e);
                }
            }
            size = 0;
            acknowledged = 0;
            return ok;
        }

        int size() {
            return size;
        }

        /** How many of the removed waiters get {@code PUT_OK} once told. */
        int acknowledged() {
            return acknowledged;
        }
    }

    /** Registers a put; {@code forcesDone}: how many forces had completed when it registered (for the counters). */
    void add(FlushWaiter waiter, long endOffset, long deadlineNanos, long forcesDone) {
        synchronized (lock) {
            if (size == waiters.length) {
                int capacity = size * 2;
                waiters = Arrays.copyOf(waiters, capacity);
                endOffsets = Arrays.copyOf(endOffsets, capacity);
                deadlines = Arrays.copyOf(deadlines, capacity);
                forcesAtAdd = Arrays.copyOf(forcesAtAdd, capacity);
            }
            waiters[size] = waiter;
            endOffsets[size] = endOffset;
            forcesAtAdd[size] = forcesDone;
            deadlines[size++] = deadlineNanos;
        }
    }

    boolean isEmpty() {
        synchronized (lock) {
            return size == 0;
        }
    }

    int size() {
        synchronized (lock) {
            return size;
        }
    }

    /**
     * Removes into {@code out} every waiter covered by {@code flushedWhere} ({@code PUT_OK}); with {@code failOthers}
     * also every other one ({@code FLUSH_DISK_TIMEOUT}), else only those whose deadline is at or before
     * {@code nowNanos}. Returns the earliest deadline left, or {@link Long#MAX_VALUE} when none is left.
     */
    long sweep(long flushedWhere, long nowNanos, boolean failOthers, Batch out) {
        return sweep(flushedWhere, nowNanos, failOthers, out, 0, null);
    }

    /**
     * As {@link #sweep(long, long, boolean, Batch)}, and counts in {@code counters} (when not null) how many forces
     * each put told {@code PUT_OK} waited for, {@code forcesDone} being the forces completed by now. Only the
     * thread that owns {@code counters} may pass them.
     */
    long sweep(long flushedWhere, long nowNanos, boolean failOthers, Batch out, long forcesDone,
               GroupCommitCounters counters) {
        synchronized (lock) {
            int kept = 0;
            long earliest = Long.MAX_VALUE;
            for (int i = 0; i < size; i++) {
                if (endOffsets[i] <= flushedWhere) {
                    out.add(waiters[i], PutMessageStatus.PUT_OK);
                    if (counters != null) {
                        counters.waited(forcesDone - forcesAtAdd[i], deadlines[i]);
                    }
                } else if (failOthers || deadlines[i] - nowNanos <= 0) {
                    out.add(waiters[i], PutMessageStatus.FLUSH_DISK_TIMEOUT);
                } else {
                    if (kept != i) {
                        waiters[kept] = waiters[i];
                        endOffsets[kept] = endOffsets[i];
                        deadlines[kept] = deadlines[i];
                        forcesAtAdd[kept] = forcesAtAdd[i];
                    }
                    if (earliest == Long.MAX_VALUE || deadlines[kept] - earliest < 0) {
                        earliest = deadlines[kept];
                    }
                    kept++;
                }
            }
            Arrays.fill(waiters, kept, size, null);
            size = kept;
            return earliest;
        }
    }
}
