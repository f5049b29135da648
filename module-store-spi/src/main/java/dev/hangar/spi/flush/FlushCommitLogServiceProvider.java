package dev.hangar.spi.flush;

import dev.hangar.spi.NamedProvider;

/**
 * Provides a {@link FlushCommitLogService}; selected by {@code flushService}, else by {@code flushDiskType}
 * ({@code realtime} / {@code group-commit}), and {@code commit-realtime} when the CommitLog uses a write buffer.
 */
public interface FlushCommitLogServiceProvider extends NamedProvider {

    FlushCommitLogService create(FlushContext context);
}
