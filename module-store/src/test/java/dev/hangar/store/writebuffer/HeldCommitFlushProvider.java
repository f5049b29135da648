package dev.hangar.store.writebuffer;

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
 * An asynchronous flush service for a write buffer whose committer is as slow as a test wants: it commits only when
 * the test calls {@link #commitEverything()}, or when the store shuts down. Puts are acknowledged at once. It stands
 * for a committer that cannot keep up with the writers, so that a file roll finds the write-buffer pool empty while
 * the file before still holds an uncommitted tail.
 */
public final class HeldCommitFlushProvider implements FlushCommitLogServiceProvider {
    static final String NAME = "test-held-commit";
    /** The target of the service created last (one store at a time in the tests that use it). */
    private static volatile FlushTarget lastTarget;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Test only: commits the write buffer only when the test says so (a committer slower than the writers)";
    }

    /** Commits every appended byte of the last created service's CommitLog (the held committer catches up). */
    static void commitEverything() {
        commitAll(lastTarget);
    }

    private static void commitAll(FlushTarget target) {
        try {
            for (int i = 0; i < 64 && target.committedWhere() < target.maxWrotePosition(); i++) {
                target.commit(0);
            }
            target.flush(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public FlushCommitLogService create(FlushContext context) {
        FlushTarget target = context.target();
        FlushStatistics statistics = context.statistics();
        lastTarget = target;
        return new FlushCommitLogService() {
            @Override
            public void start() {
            }

            @Override
            public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForFlush) {
                return CompletableFuture.completedFuture(PutMessageStatus.PUT_OK);
            }

            @Override
            public boolean acknowledgesAtOnce() {
                return true;
            }

            @Override
            public void wakeup() {
            }

            @Override
            public void shutdown() {
                commitAll(target);
            }

            @Override
            public FlushStatistics statistics() {
                return statistics;
            }
        };
    }
}
