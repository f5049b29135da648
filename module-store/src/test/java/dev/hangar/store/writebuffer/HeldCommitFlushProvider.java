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
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * An asynchronous flush service for a write buffer whose committer is as slow as a test wants: it commits only when
 * the test calls {@link #commitEverything()}, or when the store shuts down. Puts are acknowledged at once. It stands
 * for a committer that cannot keep up with the writers, so that a file roll finds the write-buffer pool empty while
 * the file before still holds an uncommitted tail. A put held by the dispatch back-pressure while bytes are
 * uncommitted wakes the flush service; {@link #awaitWakeup} lets a test's committer answer exactly those.
 */
public final class HeldCommitFlushProvider implements FlushCommitLogServiceProvider {
    static final String NAME = "test-held-commit";
    /** The target of the service created last (one store at a time in the tests that use it). */
    private static volatile FlushTarget lastTarget;
    /** One permit per {@code wakeup()} of the service created last. */
    private static volatile Semaphore wakeups = new Semaphore(0);

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

    /**
     * Waits up to {@code millis} for a wake-up of the last created service (in these tests only a put held by the
     * back-pressure wakes it); true when one came.
     */
    static boolean awaitWakeup(long millis) throws InterruptedException {
        return wakeups.tryAcquire(millis, TimeUnit.MILLISECONDS);
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
        Semaphore woken = new Semaphore(0);
        wakeups = woken;
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
                woken.release();
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
