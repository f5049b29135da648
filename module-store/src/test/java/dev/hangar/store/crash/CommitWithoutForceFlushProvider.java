package dev.hangar.store.crash;

import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.flush.FlushCommitLogServiceProvider;
import dev.hangar.spi.flush.FlushContext;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.flush.FlushTarget;
import dev.hangar.spi.store.PutMessageStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;

/**
 * The negative control of SYNC_FLUSH over a write buffer: a broken flush service that commits the buffer to the
 * file (so the bytes reach the page cache and survive {@code kill -9}) and acknowledges the put, but never forces.
 * {@link PowerCutCrashTest} asserts that a power cut catches it losing acknowledged puts.
 */
public final class CommitWithoutForceFlushProvider implements FlushCommitLogServiceProvider {
    static final String NAME = "test-commit-without-force";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Test only: commits the write buffer and acknowledges puts without forcing (a broken sync flush)";
    }

    @Override
    public FlushCommitLogService create(FlushContext context) {
        FlushTarget target = context.target();
        FlushStatistics statistics = context.statistics();
        return new FlushCommitLogService() {
            @Override
            public void start() {
            }

            @Override
            public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForFlush) {
                synchronized (this) {
                    try {
                        for (int i = 0; i < 4 && target.committedWhere() < nextOffset; i++) {
                            target.commit(0);
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return CompletableFuture.completedFuture(target.committedWhere() >= nextOffset
                        ? PutMessageStatus.PUT_OK : PutMessageStatus.FLUSH_DISK_TIMEOUT);
            }

            @Override
            public void wakeup() {
            }

            @Override
            public void shutdown() {
            }

            @Override
            public FlushStatistics statistics() {
                return statistics;
            }
        };
    }
}
