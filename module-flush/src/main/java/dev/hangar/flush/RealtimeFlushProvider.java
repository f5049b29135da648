package dev.hangar.flush;

import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.flush.FlushCommitLogServiceProvider;
import dev.hangar.spi.flush.FlushContext;

/** Provides the {@code realtime} flush service ({@link RealtimeFlushService}). Stateless, thread-safe. */
public final class RealtimeFlushProvider implements FlushCommitLogServiceProvider {
    static final String NAME = "realtime";

    public RealtimeFlushProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Async flush: forces the mapped CommitLog every flushIntervalCommitLog ms; puts are acknowledged before the fsync";
    }

    /** The asynchronous flush of a CommitLog written in place. */
    @Override
    public boolean isDefaultFor(boolean syncFlush, boolean commitsWriteBuffer) {
        return !syncFlush && !commitsWriteBuffer;
    }

    @Override
    public FlushCommitLogService create(FlushContext context) {
        return new RealtimeFlushService(FlushContexts.requireComplete(context));
    }
}
