package dev.hangar.spi.flush;

import dev.hangar.spi.NamedProvider;

/**
 * Provides a {@link FlushCommitLogService}; selected by name with {@code flushService}, else the one provider that
 * {@link #isDefaultFor says} it serves the configured {@code flushDiskType} and mapped-file variant (built-ins:
 * {@code realtime}, {@code group-commit}, and {@code commit-realtime} when the CommitLog uses a write buffer).
 */
public interface FlushCommitLogServiceProvider extends NamedProvider {

    FlushCommitLogService create(FlushContext context);

    /**
     * Whether the store picks this provider when {@code flushService} is not set. Exactly one provider found must
     * say so for each combination; a third-party provider keeps the default (false) and is chosen by name.
     *
     * @param syncFlush           {@code flushDiskType=SYNC_FLUSH}: puts wait for their fsync
     * @param commitsWriteBuffer  the mapped-file variant {@link
     *                            dev.hangar.spi.mapped.MappedStorageProvider#needsCommitService needs a commit service}
     */
    default boolean isDefaultFor(boolean syncFlush, boolean commitsWriteBuffer) {
        return false;
    }
}
