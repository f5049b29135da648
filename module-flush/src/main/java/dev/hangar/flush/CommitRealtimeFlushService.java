package dev.hangar.flush;

import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.flush.FlushContext;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.flush.FlushTarget;
import dev.hangar.spi.store.PutMessageStatus;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Async flush for a CommitLog with a write buffer ({@code commit-realtime}): a committer thread copies the
 * buffer to the file channel every {@code commitIntervalCommitLog} ms (at least
 * {@code commitCommitLogLeastPages} pages, everything every {@code commitCommitLogThoroughInterval} ms) and,
 * when it committed something, wakes its own {@link RealtimeFlushService}, which forces the channel on the
 * {@code flushCommitLog*} settings. Puts wake the committer, never the flusher, and are acknowledged at once.
 *
 * <p>A failed commit or force is counted, marks the store not writable once (one reporter for both threads),
 * and is retried. {@link #shutdown()} commits everything, then flushes everything.
 *
 * <p>Thread-safety: as {@link RealtimeFlushService}.
 */
final class CommitRealtimeFlushService implements FlushCommitLogService {
    static final String COMMIT_THREAD_NAME = "hangar-flush-commit";
    static final String FLUSH_THREAD_NAME = "hangar-flush-commit-realtime";

    private static final Logger LOG = LoggerFactory.getLogger(CommitRealtimeFlushService.class);

    private final FlushTarget target;
    private final FlushSettings settings;
    private final FlushStatistics statistics;
    private final DiskFailureReporter failures;
    private final RealtimeFlushService flusher;
    private final ServiceWorker committer;
    private final AtomicBoolean shutDown = new AtomicBoolean();
    /** The highest end someone waits to see committed ({@link #commitThrough}); 0 when nobody asked. */
    private final AtomicLong commitWanted = new AtomicLong();

    CommitRealtimeFlushService(FlushContext context) {
        FlushContexts.requireComplete(context);
        this.target = context.target();
        this.settings = FlushSettings.from(context.config());
        this.statistics = context.statistics();
        this.failures = new DiskFailureReporter(CommitRealtimeFlushProvider.NAME, context.health(), statistics);
        // Woken by the committer after each commit that moved data: that is when there is something to force.
        this.flusher = new RealtimeFlushService(context, FLUSH_THREAD_NAME, true, failures);
        this.committer = new ServiceWorker(COMMIT_THREAD_NAME, this::run);
    }

    @Override
    public void start() {
        flusher.start();
        committer.start();
        LOG.info("{} started: every {} ms at least {} pages, all every {} ms", COMMIT_THREAD_NAME,
                settings.commitIntervalMillis(), settings.commitLeastPages(), settings.commitThoroughIntervalMillis());
    }

    @Override
    public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForFlush) {
        FlushContexts.requireOffset(nextOffset);
        committer.wakeup();
        return RealtimeFlushService.ACKNOWLEDGED;
    }

    /** Async flush: puts are acknowledged before the force. */
    @Override
    public boolean acknowledgesAtOnce() {
        return true;
    }

    @Override
    public void wakeup() {
        committer.wakeup();
    }

    /** The next round commits through {@code nextOffset} whatever {@code commitCommitLogLeastPages} says. */
    @Override
    public void commitThrough(long nextOffset) {
        // read first: under load every put asks, and most asks are already covered by a higher one
        if (nextOffset > commitWanted.get()) {
            commitWanted.accumulateAndGet(nextOffset, Math::max);
        }
        committer.wakeup();
    }

    @Override
    public void shutdown() {
        if (!shutDown.compareAndSet(false, true)) {
            return;
        }
        if (committer.isStarted()) {
            committer.stop();
            committer.join(RealtimeFlushService.SHUTDOWN_JOIN_MILLIS);
        } else {
            commitBeforeStop();
        }
        // Only now: the flusher's final flush must see everything the committer's final commit wrote.
        flusher.shutdown();
    }

    @Override
    public FlushStatistics statistics() {
        return statistics;
    }

    private void run() {
        long thoroughNanos = TimeUnit.MILLISECONDS.toNanos(settings.commitThoroughIntervalMillis());
        long lastThoroughNanos = System.nanoTime();
        while (!committer.isStopping()) {
            int leastPages = settings.commitLeastPages();
            long now = System.nanoTime();
            if (now - lastThoroughNanos >= thoroughNanos) {
                lastThoroughNanos = now;
                leastPages = 0;
            }
            if (target.committedWhere() < commitWanted.get()) {
                // a put waits for these bytes to be readable (its slave's acknowledgement): no minimum
                leastPages = 0;
            }
            try {
                commit(leastPages);
            } catch (RuntimeException e) {
                LOG.error("{}: unexpected failure in a commit round", COMMIT_THREAD_NAME, e);
            }
            committer.await(settings.commitIntervalMillis(), true);
        }
        commitBeforeStop();
    }

    /** Returns false when the commit threw. */
    private boolean commit(int leastPages) {
        long before = target.committedWhere();
        try {
            target.commit(leastPages);
        } catch (IOException | RuntimeException e) {
            failures.failed("commit", e);
            return false;
        }
        if (target.committedWhere() > before) {
            statistics.recordCommit();
            failures.succeeded("commit");
            flusher.wakeup();
        }
        return true;
    }

    private void commitBeforeStop() {
        for (int i = 0; i < RealtimeFlushService.SHUTDOWN_FLUSH_TRIES
                && target.committedWhere() < target.maxWrotePosition(); i++) {
            commit(0);
        }
        if (target.committedWhere() < target.maxWrotePosition()) {
            LOG.error("{}: could not commit everything before stopping: committed {} of {} bytes",
                    COMMIT_THREAD_NAME, target.committedWhere(), target.maxWrotePosition());
        }
    }
}
