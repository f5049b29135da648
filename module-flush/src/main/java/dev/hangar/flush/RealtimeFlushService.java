package dev.hangar.flush;

import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.flush.FlushContext;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.flush.FlushTarget;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Async flush ({@code realtime}): a thread forces the CommitLog every {@code flushIntervalCommitLog} ms when
 * at least {@code flushCommitLogLeastPages} pages are dirty, and everything every
 * {@code flushCommitLogThoroughInterval} ms. Puts are acknowledged before the fsync, so {@link #handle} returns
 * a completed {@code PUT_OK}; with {@code flushCommitLogTimed=false} it also wakes the thread.
 *
 * <p>A failed force is counted, marks the store not writable once, and is retried on the next round.
 * {@link #shutdown()} flushes everything (retrying) before the thread ends.
 *
 * <p>Thread-safety: {@link #handle}, {@link #wakeup} and {@link #statistics} from any thread; {@link #start}
 * and {@link #shutdown} once each, from the engine's lifecycle thread.
 */
final class RealtimeFlushService implements FlushCommitLogService {
    static final String THREAD_NAME = "hangar-flush-realtime";
    static final int SHUTDOWN_FLUSH_TRIES = 10;
    static final long SHUTDOWN_JOIN_MILLIS = 30_000;
    /** Shared: completing an already completed future is a no-op, so handing the same one out is safe. */
    static final CompletableFuture<PutMessageStatus> ACKNOWLEDGED = CompletableFuture.completedFuture(PutMessageStatus.PUT_OK);

    private static final Logger LOG = LoggerFactory.getLogger(RealtimeFlushService.class);
    /** Forces one round may make to work off a backlog that spans several CommitLog files. */
    static final int MAX_FORCES_PER_ROUND = 64;

    private final FlushTarget target;
    private final FlushSettings settings;
    private final FlushStatistics statistics;
    private final CheckpointingFlusher flusher;
    private final ServiceWorker worker;
    private final boolean wokenByPuts;
    private final AtomicBoolean shutDown = new AtomicBoolean();

    /** The {@code realtime} service: puts wake it unless {@code flushCommitLogTimed}. */
    RealtimeFlushService(FlushContext context) {
        this(FlushContexts.requireComplete(context), THREAD_NAME,
                !FlushSettings.from(context.config()).flushTimed(),
                new DiskFailureReporter(RealtimeFlushProvider.NAME, context.health(), context.statistics()));
    }

    /**
     * A flusher under another name, e.g. inside {@code commit-realtime}.
     *
     * @param wakeable whether {@link #wakeup()} ends the wait between rounds (else the thread sleeps the interval)
     */
    RealtimeFlushService(FlushContext context, String threadName, boolean wakeable, DiskFailureReporter failures) {
        this.target = context.target();
        this.settings = FlushSettings.from(context.config());
        this.statistics = context.statistics();
        this.flusher = new CheckpointingFlusher(target, context.checkpoint(), statistics, failures);
        this.wokenByPuts = wakeable;
        this.worker = new ServiceWorker(threadName, this::run);
    }

    @Override
    public void start() {
        worker.start();
        LOG.info("{} started: every {} ms at least {} pages, all every {} ms, {}", worker.name(),
                settings.flushIntervalMillis(), settings.flushLeastPages(), settings.flushThoroughIntervalMillis(),
                wokenByPuts ? "also woken by puts" : "timed");
    }

    @Override
    public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForFlush) {
        FlushContexts.requireOffset(nextOffset);
        wakeup();
        return ACKNOWLEDGED;
    }

    /** Async flush: puts are acknowledged before the force. */
    @Override
    public boolean acknowledgesAtOnce() {
        return true;
    }

    @Override
    public void wakeup() {
        if (wokenByPuts) {
            worker.wakeup();
        }
    }

    @Override
    public void shutdown() {
        if (!shutDown.compareAndSet(false, true)) {
            return;
        }
        if (worker.isStarted()) {
            worker.stop();
            worker.join(SHUTDOWN_JOIN_MILLIS);
        } else {
            flushBeforeStop();
        }
    }

    @Override
    public FlushStatistics statistics() {
        return statistics;
    }

    private void run() {
        long thoroughNanos = TimeUnit.MILLISECONDS.toNanos(settings.flushThoroughIntervalMillis());
        long lastThoroughNanos = System.nanoTime();
        while (!worker.isStopping()) {
            int leastPages = settings.flushLeastPages();
            long now = System.nanoTime();
            if (now - lastThoroughNanos >= thoroughNanos) {
                lastThoroughNanos = now;
                leastPages = 0;
            }
            worker.await(settings.flushIntervalMillis(), wokenByPuts);
            if (worker.isStopping()) {
                break;
            }
            try {
                flusher.flushRound(leastPages, MAX_FORCES_PER_ROUND);
            } catch (RuntimeException e) {
                // flush() already handles the target's failures; this is a bug elsewhere: keep the thread alive.
                LOG.error("{}: unexpected failure in a flush round", worker.name(), e);
            }
        }
        flushBeforeStop();
    }

    private void flushBeforeStop() {
        if (flusher.flushEverything(SHUTDOWN_FLUSH_TRIES)) {
            LOG.info("{}: flushed everything up to {} before stopping", worker.name(), target.flushedWhere());
        } else {
            LOG.error("{}: could not flush everything before stopping: flushed {} of {} bytes", worker.name(),
                    target.flushedWhere(), target.maxWrotePosition());
        }
    }
}
