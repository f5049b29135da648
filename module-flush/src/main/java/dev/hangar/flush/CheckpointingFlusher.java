package dev.hangar.flush;

import dev.hangar.spi.flush.Checkpoint;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.flush.FlushTarget;
import java.io.IOException;

/**
 * One flush of the CommitLog as every service does it: read the store timestamp first (what is appended by
 * then is what this flush covers), force, and only if the flushed position moved record the bytes and the
 * fsync time and stamp the checkpoint with that timestamp. A failure goes to the {@link DiskFailureReporter}
 * and leaves the checkpoint alone.
 *
 * <p>Not thread-safe on its own: each service calls it from its single flushing thread (or, once that thread
 * is gone, from the thread shutting the service down).
 */
final class CheckpointingFlusher {
    /** Returned by {@link #flush(int)} when the force threw. */
    static final long FAILED = -1;

    private final FlushTarget target;
    private final Checkpoint checkpoint;
    private final FlushStatistics statistics;
    private final DiskFailureReporter failures;

    CheckpointingFlusher(FlushTarget target, Checkpoint checkpoint, FlushStatistics statistics,
                         DiskFailureReporter failures) {
        this.target = target;
        this.checkpoint = checkpoint;
        this.statistics = statistics;
        this.failures = failures;
    }

    /** Flushes at least {@code leastPages} dirty pages (0 = any); returns the bytes the flushed position moved, or {@link #FAILED}. */
    long flush(int leastPages) {
        long storeTimestamp = target.storeTimestamp();
        long before = target.flushedWhere();
        long startNanos = System.nanoTime();
        try {
            target.flush(leastPages);
        } catch (IOException | RuntimeException e) {
            failures.failed("flush", e);
            return FAILED;
        }
        long micros = (System.nanoTime() - startNanos) / 1_000;
        long moved = target.flushedWhere() - before;
        if (moved <= 0) {
            return 0;
        }
        statistics.recordFlush(moved, micros);
        if (storeTimestamp > 0) {
            checkpoint.physicMsgTimestamp(storeTimestamp);
        }
        failures.succeeded("flush");
        return moved;
    }

    /**
     * One round of a periodic flusher: {@code flush(leastPages)}, repeated while it makes progress and the
     * flushed position is still short of what was written when the round began, at most {@code maxForces}
     * times. A force stops at the end of a CommitLog file, so without the repeat a backlog of several files
     * would take one round per file (and grow without bound under load with small files). Returns
     * {@link #FAILED} if a force threw, else the bytes the flushed position moved.
     */
    long flushRound(int leastPages, int maxForces) {
        long goal = target.maxWrotePosition();
        long total = 0;
        for (int i = 0; i < maxForces; i++) {
            long moved = flush(leastPages);
            if (moved == FAILED) {
                return FAILED;
            }
            total += moved;
            if (moved == 0 || target.flushedWhere() >= goal) {
                break;
            }
        }
        return total;
    }

    /**
     * Flushes everything up to {@code goal}, calling {@code flush(0)} again while it makes progress (a flush
     * may stop at a file boundary), at most {@code maxFlushes} times. Returns {@link #FAILED} if a force threw,
     * else the flushed position reached.
     */
    long flushUpTo(long goal, int maxFlushes) {
        for (int i = 0; i < maxFlushes && target.flushedWhere() < goal; i++) {
            long moved = flush(0);
            if (moved == FAILED) {
                return FAILED;
            }
            if (moved == 0) {
                break;
            }
        }
        return target.flushedWhere();
    }

    /**
     * For shutdown: flushes until everything appended is flushed. A flush covers at most one file, so rounds
     * that make progress do not count; up to {@code tries} rounds that fail or make no progress are allowed.
     * True when the flushed position reached the written position.
     */
    boolean flushEverything(int tries) {
        int fruitless = 0;
        while (fruitless < tries && target.flushedWhere() < target.maxWrotePosition()) {
            long moved = flush(0);
            if (moved == FAILED || moved == 0) {
                fruitless++;
            }
        }
        return target.flushedWhere() >= target.maxWrotePosition();
    }
}
