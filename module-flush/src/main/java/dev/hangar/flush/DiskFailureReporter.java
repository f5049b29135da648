package dev.hangar.flush;

import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.flush.StoreHealth;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports failed forces and commits: counts every one, and on the first failure of a failure streak logs it
 * and marks the store not writable, so a disk that keeps failing on each retry does not flood the log or the
 * health. A later success ends the streak (the store stays not writable: only an operator clears that), so a
 * new failure afterwards is reported again.
 *
 * <p>Thread-safe: one reporter may be shared by a committer and its flusher.
 */
final class DiskFailureReporter {
    private static final Logger LOG = LoggerFactory.getLogger(DiskFailureReporter.class);

    private final String service;
    private final StoreHealth health;
    private final FlushStatistics statistics;
    private final AtomicBoolean failing = new AtomicBoolean();

    DiskFailureReporter(String service, StoreHealth health, FlushStatistics statistics) {
        this.service = service;
        this.health = health;
        this.statistics = statistics;
    }

    /** {@code operation} is e.g. "flush" or "commit". */
    void failed(String operation, Exception cause) {
        statistics.recordFlushFailure();
        if (!failing.compareAndSet(false, true)) {
            LOG.debug("{}: {} failed again: {}", service, operation, cause.toString());
            return;
        }
        String reason = service + ": CommitLog " + operation + " failed (" + cause + "); data past the flushed "
                + "position is not durable";
        LOG.error("{}; marking the store not writable, retrying in the background", reason, cause);
        try {
            health.markNotWritable(reason, cause);
        } catch (RuntimeException e) {
            LOG.error("{}: StoreHealth.markNotWritable threw", service, e);
        }
    }

    /** A force or commit moved its position: the failure streak, if any, is over. */
    void succeeded(String operation) {
        if (failing.get() && failing.compareAndSet(true, false)) {
            LOG.warn("{}: CommitLog {} succeeds again; the store stays not writable until an operator clears it",
                    service, operation);
        }
    }
}
