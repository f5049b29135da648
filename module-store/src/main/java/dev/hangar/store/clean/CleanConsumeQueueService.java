package dev.hangar.store.clean;

import dev.hangar.store.dispatch.DispatcherChain;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the CommitLog's retention: when its first offset has grown, asks every dispatcher to drop what points
 * below it (ConsumeQueue files whose last unit does, index files that end below it; each dispatcher does its own
 * per-file work and corrects its queues' min offsets).
 *
 * <p>Thread-safety: {@link #run()} is serialised.
 */
public final class CleanConsumeQueueService {
    private static final Logger LOG = LoggerFactory.getLogger(CleanConsumeQueueService.class);

    private final LongSupplier commitLogMinOffset;
    private final DispatcherChain dispatchers;
    private long lastMinOffset;

    /**
     * @param commitLogMinOffset the CommitLog's first offset now (-1 when empty)
     * @param dispatchers        the dispatchers to tell
     */
    public CleanConsumeQueueService(LongSupplier commitLogMinOffset, DispatcherChain dispatchers) {
        this.commitLogMinOffset = commitLogMinOffset;
        this.dispatchers = dispatchers;
    }

    /** True when the CommitLog had shrunk and the dispatchers were told. */
    public synchronized boolean run() {
        long min = commitLogMinOffset.getAsLong();
        if (min <= lastMinOffset) {
            return false;
        }
        LOG.info("the commit log now starts at {}: deleting ConsumeQueue and index data below it", min);
        dispatchers.deleteExpired(min);
        lastMinOffset = min;
        return true;
    }
}
