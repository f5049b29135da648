package dev.hangar.flush;

import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.flush.FlushCommitLogServiceProvider;
import dev.hangar.spi.flush.FlushContext;

/** Provides the {@code group-commit} flush service ({@link GroupCommitFlushService}). Stateless, thread-safe. */
public final class GroupCommitFlushProvider implements FlushCommitLogServiceProvider {
    static final String NAME = "group-commit";

    public GroupCommitFlushProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Sync flush: puts wait for a group fsync that covers them, FLUSH_DISK_TIMEOUT after syncFlushTimeout";
    }

    /**
     * The synchronous flush of any CommitLog: one written in place, and one with a write buffer, which each round
     * commits before it forces.
     */
    @Override
    public boolean isDefaultFor(boolean syncFlush, boolean commitsWriteBuffer) {
        return syncFlush;
    }

    @Override
    public FlushCommitLogService create(FlushContext context) {
        return new GroupCommitFlushService(FlushContexts.requireComplete(context));
    }
}
