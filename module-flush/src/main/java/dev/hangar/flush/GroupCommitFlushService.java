package dev.hangar.flush;

import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.flush.FlushContext;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.flush.FlushTarget;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sync flush ({@code group-commit}): a put that waits gets a future completed {@code PUT_OK} once the flushed
 * position covers its {@code nextOffset}.
 *
 * <p>Group commit: put threads add requests to a lock-free queue and wake the flush thread. Each round the
 * thread takes every queued request, notes the written position, forces once (again only if the force stopped
 * at a file boundary) and completes every request the new flushed position covers. Puts arriving during the
 * fsync wait for the next round, so one fsync acknowledges as many puts as arrived during the previous one.
 * Requests not yet covered stay for the next round; the {@link FlushDeadlineWatcher} completes those still
 * waiting after {@code syncFlushTimeout} ms with {@code FLUSH_DISK_TIMEOUT}, even if a force hangs.
 *
 * <p>A failed force leaves the flushed position where it was: no request beyond it is ever completed
 * {@code PUT_OK}. The failure is counted, marks the store not writable once, the waiting requests complete
 * {@code FLUSH_DISK_TIMEOUT}, and later rounds retry, so requests succeed again once the disk recovers.
 *
 * <p>Futures are completed on the flush thread (or the watcher's): callers should attach slow work with the
 * {@code *Async} stages. Thread-safety: {@link #handle}, {@link #wakeup}, {@link #statistics} from any thread;
 * {@link #start} and {@link #shutdown} once each. Shutdown flushes everything and completes every request.
 */
final class GroupCommitFlushService implements FlushCommitLogService {
    static final String THREAD_NAME = "hangar-flush-group-commit";
    /** With nothing to wait for, still flush data of puts that did not wait at least this often. */
    private static final long IDLE_WAIT_MILLIS = 1_000;
    /** After a failed force: how soon to retry when no new request arrives. */
    private static final long FAILURE_RETRY_MILLIS = 200;
    /** When a force made no progress though requests wait (e.g. the data is not committed yet). */
    private static final long STALLED_RETRY_MILLIS = 5;
    /** A force may stop at a file boundary; a record never spans two files, so a few forces reach any goal. */
    private static final int MAX_FLUSHES_PER_ROUND = 4;

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitFlushService.class);

    private final FlushTarget target;
    private final FlushSettings settings;
    private final FlushStatistics statistics;
    private final CheckpointingFlusher flusher;
    private final FlushDeadlineWatcher watcher;
    private final ServiceWorker worker;
    private final long timeoutNanos;
    private final ConcurrentLinkedQueue<FlushRequest> incoming = new ConcurrentLinkedQueue<>();
    /** Requests taken from {@link #incoming} and not yet completed; flush thread only. */
    private final List<FlushRequest> waiting = new ArrayList<>();
    private final AtomicBoolean shutDown = new AtomicBoolean();
    /** Set once the final flush is done: from then on a put completes its own request. */
    private volatile boolean closed;
    private boolean lastRoundFailed;

    GroupCommitFlushService(FlushContext context) {
        FlushContexts.requireComplete(context);
        this.target = context.target();
        this.settings = FlushSettings.from(context.config());
        this.statistics = context.statistics();
        DiskFailureReporter failures = new DiskFailureReporter(GroupCommitFlushProvider.NAME, context.health(),
                statistics);
        this.flusher = new CheckpointingFlusher(target, context.checkpoint(), statistics, failures);
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.syncFlushTimeoutMillis());
        this.watcher = new FlushDeadlineWatcher(settings.syncFlushTimeoutMillis());
        this.worker = new ServiceWorker(THREAD_NAME, this::run);
    }

    @Override
    public void start() {
        watcher.start();
        worker.start();
        LOG.info("{} started: syncFlushTimeout {} ms", THREAD_NAME, settings.syncFlushTimeoutMillis());
    }

    @Override
    public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForFlush) {
        FlushContexts.requireOffset(nextOffset);
        if (!waitForFlush) {
            worker.wakeup();
            return RealtimeFlushService.ACKNOWLEDGED;
        }
        if (closed) {
            return CompletableFuture.completedFuture(statusByCoverage(nextOffset));
        }
        FlushRequest request = new FlushRequest(nextOffset, System.nanoTime() + timeoutNanos);
        watcher.watch(request);
        incoming.add(request);
        worker.wakeup();
        if (closed) {
            // Shutdown's final sweep may have run before our add: make sure nothing is left waiting forever.
            completeIncomingAfterClose();
        }
        return request.future();
    }

    @Override
    public void wakeup() {
        worker.wakeup();
    }

    @Override
    public void shutdown() {
        if (!shutDown.compareAndSet(false, true)) {
            return;
        }
        if (worker.isStarted()) {
            worker.stop();
            worker.join(RealtimeFlushService.SHUTDOWN_JOIN_MILLIS);
        } else {
            finishBeforeStop();
        }
        closed = true;
        watcher.stop(RealtimeFlushService.SHUTDOWN_JOIN_MILLIS);
        // Normally none is left; some are if the flush thread hung in a force past the join bound.
        int left = watcher.completeRemaining(target::flushedWhere);
        if (left > 0) {
            LOG.warn("{}: completed {} request(s) left behind by a flush thread that did not stop", THREAD_NAME, left);
        }
        completeIncomingAfterClose();
    }

    @Override
    public FlushStatistics statistics() {
        return statistics;
    }

    private void run() {
        while (!worker.isStopping()) {
            boolean progressed = false;
            try {
                progressed = commitRound();
            } catch (RuntimeException e) {
                LOG.error("{}: unexpected failure in a group commit round", THREAD_NAME, e);
            }
            if (!progressed) {
                worker.await(nextWaitMillis(), true);
            }
        }
        finishBeforeStop();
    }

    /**
     * One group commit. Returns true when the flushed position moved, so the caller looks again at once for
     * puts that arrived during the force instead of waiting.
     */
    private boolean commitRound() {
        drainIncoming();
        long flushedBefore = target.flushedWhere();
        // Noted before forcing: everything written so far is in the file, so one force covers it.
        long goal = target.maxWrotePosition();
        lastRoundFailed = false;
        if (flushedBefore < goal && flusher.flushUpTo(goal, MAX_FLUSHES_PER_ROUND) == CheckpointingFlusher.FAILED) {
            lastRoundFailed = true;
            completeWaiting(true);
            return false;
        }
        completeWaiting(false);
        return target.flushedWhere() > flushedBefore;
    }

    private long nextWaitMillis() {
        if (lastRoundFailed) {
            return FAILURE_RETRY_MILLIS;
        }
        return waiting.isEmpty() ? IDLE_WAIT_MILLIS : STALLED_RETRY_MILLIS;
    }

    private void drainIncoming() {
        for (FlushRequest r = incoming.poll(); r != null; r = incoming.poll()) {
            waiting.add(r);
        }
    }

    /**
     * Completes {@code PUT_OK} every waiting request the flushed position covers (read now, after the force);
     * the others stay, or complete {@code FLUSH_DISK_TIMEOUT} when {@code failUncovered}.
     */
    private void completeWaiting(boolean failUncovered) {
        long flushed = target.flushedWhere();
        int acknowledged = 0;
        int failed = 0;
        int kept = 0;
        for (int i = 0, n = waiting.size(); i < n; i++) {
            FlushRequest request = waiting.get(i);
            if (request.isDone()) {
                continue;
            }
            if (request.isCoveredBy(flushed)) {
                if (request.complete(PutMessageStatus.PUT_OK)) {
                    acknowledged++;
                }
            } else if (failUncovered) {
                if (request.complete(PutMessageStatus.FLUSH_DISK_TIMEOUT)) {
                    failed++;
                }
            } else {
                waiting.set(kept++, request);
            }
        }
        waiting.subList(kept, waiting.size()).clear();
        if (acknowledged > 0) {
            statistics.recordGroupCommit(acknowledged);
        }
        if (failed > 0) {
            LOG.warn("{}: {} waiting put(s) completed FLUSH_DISK_TIMEOUT because the force failed", THREAD_NAME, failed);
        }
    }

    /** Final work, on the flush thread (or on the caller if the service never started). */
    private void finishBeforeStop() {
        drainIncoming();
        if (!flusher.flushEverything(RealtimeFlushService.SHUTDOWN_FLUSH_TRIES)) {
            LOG.error("{}: could not flush everything before stopping: flushed {} of {} bytes", THREAD_NAME,
                    target.flushedWhere(), target.maxWrotePosition());
        }
        closed = true;
        drainIncoming();
        completeWaiting(true);
    }

    private void completeIncomingAfterClose() {
        for (FlushRequest r = incoming.poll(); r != null; r = incoming.poll()) {
            r.complete(statusByCoverage(r.nextOffset()));
        }
    }

    private PutMessageStatus statusByCoverage(long nextOffset) {
        return target.flushedWhere() >= nextOffset ? PutMessageStatus.PUT_OK : PutMessageStatus.FLUSH_DISK_TIMEOUT;
    }
}
