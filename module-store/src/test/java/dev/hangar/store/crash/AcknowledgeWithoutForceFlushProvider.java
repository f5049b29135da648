package dev.hangar.store.crash;

import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.flush.FlushCommitLogServiceProvider;
import dev.hangar.spi.flush.FlushContext;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.concurrent.CompletableFuture;

/**
 * The negative control of the power-cut harness: a broken flush service that acknowledges every put at once and
 * never forces the CommitLog (writes reach the page cache only). Survives {@code kill -9}; must lose
 * acknowledged puts under a power cut, and {@link PowerCutCrashTest} asserts that the harness sees it.
 */
public final class AcknowledgeWithoutForceFlushProvider implements FlushCommitLogServiceProvider {
    static final String NAME = "test-acknowledge-without-force";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Test only: acknowledges puts without forcing the CommitLog (a broken flush)";
    }

    @Override
    public FlushCommitLogService create(FlushContext context) {
        FlushStatistics statistics = context.statistics();
        return new FlushCommitLogService() {
            @Override
            public void start() {
            }

            @Override
            public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForFlush) {
                return CompletableFuture.completedFuture(PutMessageStatus.PUT_OK);
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
