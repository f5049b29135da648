package dev.hangar.store.commitlog;

import dev.hangar.spi.flush.FlushTarget;
import dev.hangar.spi.mapped.MappedFileQueue;
import java.io.IOException;

/** The CommitLog's mapped-file queue seen as a {@link FlushTarget}. */
public final class CommitLogFlushTarget implements FlushTarget {
    private final MappedFileQueue queue;

    public CommitLogFlushTarget(MappedFileQueue queue) {
        this.queue = queue;
    }

    @Override
    public boolean flush(int leastPages) throws IOException {
        return queue.flush(leastPages);
    }

    @Override
    public boolean commit(int leastPages) throws IOException {
        return queue.commit(leastPages);
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
