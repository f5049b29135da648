package dev.hangar.flush;

import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.flush.FlushCommitLogServiceProvider;
import dev.hangar.spi.flush.FlushContext;

/** Provides the {@code commit-realtime} flush service ({@link CommitRealtimeFlushService}). Stateless, thread-safe. */
public final class CommitRealtimeFlushProvider implements FlushCommitLogServiceProvider {
    static final String NAME = "commit-realtime";

    public CommitRealtimeFlushProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Async flush for the write buffer: commits it to the file channel, then forces it";
    }

    /** The async flush of a write buffer (under SYNC_FLUSH, {@code group-commit} commits it before each force). */
    @Override
    public boolean isDefaultFor(boolean syncFlush, boolean commitsWriteBuffer) {
        return !syncFlush && commitsWriteBuffer;
    }

    @Override
    public FlushCommitLogService create(FlushContext context) {
        return new CommitRealtimeFlushService(FlushContexts.requireComplete(context));
    }
}
