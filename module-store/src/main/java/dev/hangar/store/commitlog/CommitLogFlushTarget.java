package dev.hangar.store.commitlog;

import dev.hangar.spi.flush.FlushTarget;
import dev.hangar.spi.mapped.MappedFileQueue;
import java.io.IOException;

/**
 * The CommitLog's mapped-file queue seen as a {@link FlushTarget}. With a write buffer, a commit is what makes
 * appends readable: {@link #afterCommit} tells whoever ships readable bytes (a master's replication) that the
 * readable end moved. Under sync flush a force is what makes appends dispatchable: {@link #afterFlush} tells the
 * dispatch thread.
 */
public final class CommitLogFlushTarget implements FlushTarget {
    private static final Runnable NOBODY = () -> { };
    private final MappedFileQueue queue;
    private volatile Runnable committed = NOBODY;
    private volatile Runnable flushed = NOBODY;

    public CommitLogFlushTarget(MappedFileQueue queue) {
        this.queue = queue;
    }

    /** Runs {@code listener} on the committing thread after each commit that moved the committed position. */
    public void afterCommit(Runnable listener) {
        this.committed = listener == null ? NOBODY : listener;
    }

    /**
     * Runs {@code listener} on the flushing thread after each flush that moved the flushed position (under sync
     * flush the position up to which records may be dispatched).
     */
    public void afterFlush(Runnable listener) {
        this.flushed = listener == null ? NOBODY : listener;
    }

    @Override
    public boolean flush(int leastPages) throws IOException {
        long before = queue.getFlushedWhere();
        boolean nothing = queue.flush(leastPages);
        if (queue.getFlushedWhere() != before) {
            flushed.run();
        }
        return nothing;
    }

    @Override
    public boolean commit(int leastPages) throws IOException {
        long before = queue.getCommittedWhere();
        boolean nothing = queue.commit(leastPages);
        if (queue.getCommittedWhere() != before) {
            committed.run();
        }
        return nothing;
    }

    @Override
    public long flushedWhere() {
        return queue.getFlushedWhere();
    }

    @Override
    public long committedWhere() {
        return queue.getCommittedWhere();
    }

    @Override
    public long maxWrotePosition() {
        return queue.getMaxWrotePosition();
    }

    @Override
    public long storeTimestamp() {
        var last = queue.getLastMappedFile();
        return last == null ? 0 : last.storeTimestamp();
    }
}
