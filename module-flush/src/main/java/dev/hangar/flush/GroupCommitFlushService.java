package dev.hangar.flush;

import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.flush.FlushContext;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.flush.FlushTarget;
import dev.hangar.spi.flush.FlushWaiter;
import dev.hangar.spi.store.PutMessageStatus;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sync flush ({@code group-commit}): a put that waits is told {@code PUT_OK} once the flushed position covers its
 * {@code nextOffset}.
 *
 * <p>Group commit that keeps the disk busy: put threads register in the {@link WaitingPuts} table (keyed by their
 * end offset) and wake the flush thread. Each round the thread notes the written position, forces up to it (again
 * only if the force stopped at a file boundary), and releases every waiter the new flushed position covers, in one
 * pass. Then it looks again at once: if puts were written during the force, the next force starts right away and
 * covers all of them; the thread only sleeps when nothing is written beyond the flushed position. So one fsync
 * acknowledges as many puts as arrived during the previous one, and no waiter covered by a force waits for a
 * later one.
 *
 * <p>Gathering the writers it just released: in a closed loop (each writer puts again as soon as it is told), a
 * force that returns releases most writers while few puts are pending; starting the next force at once would cover
 * only those few, and the released writers, putting again during it, would wait for that force AND the next. So
 * when a force released more puts than are still waiting, the thread waits, woken by each registration, until as
 * many puts wait as it saw in that round (released + still waiting), or until {@code groupCommitGatherPercent} % of
 * that force's time passed, whichever comes first. When at least as many were still waiting as were released, or
 * more than {@link #MAX_GATHERED_PUTS} in all (many puts in flight), the next force starts at once, as without
 * gathering. A lonely writer's next put ends the gather as soon as it registers. The {@link GroupCommitCounters}
 * show the effect (forces each put waited for, puts per force, how gathers ended), logged at shutdown.
 *
 * <p>The {@link FlushDeadlineWatcher} completes waiters still waiting after {@code syncFlushTimeout} ms with
 * {@code FLUSH_DISK_TIMEOUT}, even if a force hangs.
 *
 * <p>Commit, then force: with a write buffer ({@code mappedFile=transient-pool}) appended bytes reach the file only
 * when committed ({@code pwrite} of the buffer), and a force covers only committed bytes. So each round first
 * commits up to the noted position, then forces; a put is told {@code PUT_OK} only when its bytes were written to
 * the file AND forced. Where appends go straight into the mapping the commit moves nothing and costs no system call.
 *
 * <p>A failed force leaves the flushed position where it was: no waiter beyond it is ever told {@code PUT_OK}. The
 * failure is counted, marks the store not writable once, the waiting puts complete {@code FLUSH_DISK_TIMEOUT}, and
 * later rounds retry, so puts succeed again once the disk recovers.
 *
 * <p>Telling the released puts does not hold back the next force: a release of more than
 * {@link PutReleaser#TOLD_INLINE_AT_MOST} puts (many puts in flight) is told by the {@link PutReleaser}'s thread
 * while the flush thread starts the next force; a smaller one (closed-loop writers, who wait for their answer) is
 * told at once by the flush thread, saving a second thread's wake-up per put.
 *
 * <p>Waiters are told on the flush thread, the release thread or the watcher's: callers should attach slow work to
 * the {@link #handle} futures with the {@code *Async} stages. Thread-safety: {@link #handle}, {@link #awaitFlush},
 * {@link #wakeup}, {@link #statistics} from any thread; {@link #start} and {@link #shutdown} once each. Shutdown
 * flushes everything and tells every waiter.
 */
final class GroupCommitFlushService implements FlushCommitLogService {
    static final String THREAD_NAME = "hangar-flush-group-commit";
    /** With nothing to wait for, still flush data of puts that did not wait at least this often. */
    private static final long IDLE_WAIT_MILLIS = 1_000;
    /** After a failed force: how soon to retry when no new request arrives. */
    private static final long FAILURE_RETRY_MILLIS = 200;
    /** When a force made no progress though puts wait (e.g. the data is not committed yet). */
    private static final long STALLED_RETRY_MILLIS = 5;
    /**
     * The most puts a gather waits for: 64 closed-loop writers (the bench's largest closed loop). A gather pays for
     * closed-loop writers (one put each, back within a small part of a force); hundreds of puts pending at once
     * come from callers with many puts in flight, who refill while the force runs anyway: waiting for them only
     * idles the disk (measured with 4 x 256 in flight and no such cap: gathers of 10-14 ms, half of them running
     * out of their bound).
     */
    static final int MAX_GATHERED_PUTS = 64;
    /** A force may stop at a file boundary; a record never spans two files, so a few forces reach any goal. */
    private static final int MAX_FLUSHES_PER_ROUND = 4;

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitFlushService.class);

    private final FlushTarget target;
    private final FlushSettings settings;
    private final FlushStatistics statistics;
    private final CheckpointingFlusher flusher;
    private final DiskFailureReporter failures;
    private final WaitingPuts waiting = new WaitingPuts();
    /** Tells the puts of each release: large ones on its own thread, so the next force need not wait for them. */
    private final PutReleaser releaser = new PutReleaser();
    private final GroupCommitCounters counters;
    /** Forces that moved the flushed position so far; written by the flush thread only. */
    private volatile long forcesDone;
    /**
     * Of the last round: the puts it told {@code PUT_OK}, the puts still waiting right after its sweep (before
     * anyone was told, so no released writer is among them), and how long its commit and force took.
     */
    private int lastReleased;
    private int lastKept;
    private long lastRoundNanos;
    private final FlushDeadlineWatcher watcher;
    private final ServiceWorker worker;
    private final long timeoutNanos;
    private final AtomicBoolean shutDown = new AtomicBoolean();
    /** Set once the final flush is done: from then on a put is answered at once by what is flushed. */
    private volatile boolean closed;
    private boolean lastRoundFailed;

    GroupCommitFlushService(FlushContext context) {
        FlushContexts.requireComplete(context);
        this.target = context.target();
        this.settings = FlushSettings.from(context.config());
        this.statistics = context.statistics();
        this.failures = new DiskFailureReporter(GroupCommitFlushProvider.NAME, context.health(), statistics);
        this.flusher = new CheckpointingFlusher(target, context.checkpoint(), statistics, failures);
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.syncFlushTimeoutMillis());
        this.counters = new GroupCommitCounters(timeoutNanos);
        this.watcher = new FlushDeadlineWatcher(waiting, target::flushedWhere, settings.syncFlushTimeoutMillis());
        this.worker = new ServiceWorker(THREAD_NAME, this::run);
    }

    @Override
    public void start() {
        releaser.start();
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
        FlushRequest request = new FlushRequest();
        PutMessageStatus now = awaitFlush(nextOffset, request);
        if (now != null) {
            request.complete(now);
        }
        return request;
    }

    @Override
    public PutMessageStatus awaitFlush(long nextOffset, FlushWaiter waiter) {
        FlushContexts.requireOffset(nextOffset);
        if (closed || target.flushedWhere() >= nextOffset) {
            return statusByCoverage(nextOffset);
        }
        waiting.add(waiter, nextOffset, System.nanoTime() + timeoutNanos, forcesDone);
        worker.wakeup();
        if (closed) {
            // Shutdown's final sweep may have run before our add: make sure nothing is left waiting forever.
            releaseAll(new WaitingPuts.Batch());
        }
        return null;
    }

    /** What the group commit did so far; for tests (figures written by the flush thread). */
    GroupCommitCounters counters() {
        return counters;
    }

    /** Releases told on the release thread so far; for tests. */
    long releasesHandedOff() {
        return releaser.releasesHandedOff();
    }

    /** Puts registered and not yet told; for tests. */
    int waitingPuts() {
        return waiting.size();
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
        boolean flushThreadEnded = true;
        if (worker.isStarted()) {
            worker.stop();
            flushThreadEnded = worker.join(RealtimeFlushService.SHUTDOWN_JOIN_MILLIS);
        } else {
            finishBeforeStop();
        }
        if (flushThreadEnded) {
            releaser.stop(RealtimeFlushService.SHUTDOWN_JOIN_MILLIS); // after telling what was handed off last
        } // else the release thread stays to tell what a flush thread that hung in a force hands off later
        closed = true;
        watcher.stop(RealtimeFlushService.SHUTDOWN_JOIN_MILLIS);
        // Normally none is left; some are if the flush thread hung in a force past the join bound.
        int left = releaseAll(new WaitingPuts.Batch());
        if (left > 0) {
            LOG.warn("{}: told {} waiting put(s) left behind by a flush thread that did not stop", THREAD_NAME, left);
        }
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
                long idleStart = System.nanoTime();
                worker.await(nextWaitMillis(), true);
                counters.idled(System.nanoTime() - idleStart);
            } else {
                gatherReturningWriters();
            }
        }
        finishBeforeStop();
        LOG.info("{}: {}, releases handed off {}", THREAD_NAME, counters.summary(), releaser.releasesHandedOff());
    }

    /**
     * After a force that released puts: waits for the released writers to put again, unless as many puts were
     * still waiting as were released, or too many for a closed loop (then the next force starts at once). See the
     * class comment.
     */
    private void gatherReturningWriters() {
        // Counted at the sweep: a writer told early in the release may already be waiting again by now.
        int expected = lastReleased + lastKept;
        if (settings.gatherPercent() == 0 || lastReleased <= lastKept || expected > MAX_GATHERED_PUTS) {
            counters.startedAtOnce();
            return;
        }
        long start = System.nanoTime();
        long deadline = start + lastRoundNanos * settings.gatherPercent() / 100;
        int back;
        while (true) {
            back = waiting.size();
            long remaining = deadline - System.nanoTime();
            if (back >= expected || remaining <= 0 || worker.isStopping()) {
                break;
            }
            worker.awaitNanos(remaining, true);
        }
        counters.gathered(back, expected, System.nanoTime() - start);
        statistics.recordGather(back < expected);
    }

    /**
     * One group commit. Returns true when the flushed position moved, so the caller looks again at once for
     * puts written during the force instead of waiting.
     */
    private boolean commitRound() {
        long startNanos = System.nanoTime();
        long flushedBefore = target.flushedWhere();
        // Noted before forcing: everything written so far is in the file, so one force covers it.
        long goal = target.maxWrotePosition();
        lastRoundFailed = false;
        if (!commitUpTo(goal, MAX_FLUSHES_PER_ROUND) || (flushedBefore < goal
                && flusher.flushUpTo(goal, MAX_FLUSHES_PER_ROUND) == CheckpointingFlusher.FAILED)) {
            lastRoundFailed = true;
            release(true);
            return false;
        }
        long moved = target.flushedWhere() - flushedBefore;
        if (moved <= 0) {
            release(false);
            return false;
        }
        long forcedNanos = System.nanoTime();
        lastRoundNanos = forcedNanos - startNanos;
        forcesDone = forcesDone + 1; // the only writer: before the sweep, so it counts this force
        counters.forceSpan(startNanos, forcedNanos);
        lastReleased = release(false);
        counters.force(moved, lastRoundNanos, lastReleased);
        counters.released(System.nanoTime() - forcedNanos);
        return true;
    }

    /**
     * Commits the write buffer up to {@code goal} (a commit stops at a file boundary, so up to {@code maxCommits}
     * of them). False when a commit threw: then nothing beyond the committed position may be forced or told.
     */
    private boolean commitUpTo(long goal, int maxCommits) {
        for (int i = 0; i < maxCommits && target.committedWhere() < goal; i++) {
            long before = target.committedWhere();
            try {
                target.commit(0);
            } catch (IOException | RuntimeException e) {
                failures.failed("commit", e);
                return false;
            }
            if (target.committedWhere() == before) {
                break;
            }
            statistics.recordCommit();
            failures.succeeded("commit");
        }
        return true;
    }

    private long nextWaitMillis() {
        if (lastRoundFailed) {
            return FAILURE_RETRY_MILLIS;
        }
        return waiting.isEmpty() ? IDLE_WAIT_MILLIS : STALLED_RETRY_MILLIS;
    }

    /**
     * Tells {@code PUT_OK} every waiter the flushed position covers (read now, after the force), and
     * {@code FLUSH_DISK_TIMEOUT} the others when {@code failUncovered} or past their deadline: here, or for more than
     * {@link PutReleaser#TOLD_INLINE_AT_MOST} puts on the release thread. Returns how many get {@code PUT_OK}.
     */
    private int release(boolean failUncovered) {
        WaitingPuts.Batch released = releaser.claim();
        waiting.sweep(target.flushedWhere(), System.nanoTime(), failUncovered, released, forcesDone, counters);
        lastKept = waiting.size();
        int told = released.size();
        int waitedMoreThanOneForce = counters.takeSweptAfterMoreForces();
        int acknowledged = released.acknowledged();
        if (acknowledged > 0) {
            // Before anyone is told: a put's caller that then reads the statistics finds its put counted.
            statistics.recordGroupCommit(acknowledged, waitedMoreThanOneForce);
        }
        releaser.handOff(released);
        if (failUncovered && told > acknowledged) {
            LOG.warn("{}: {} waiting put(s) completed FLUSH_DISK_TIMEOUT because the force failed", THREAD_NAME,
                    told - acknowledged);
        }
        return acknowledged;
    }

    /** Tells every waiter left: {@code PUT_OK} when covered, else {@code FLUSH_DISK_TIMEOUT}. Returns how many. */
    private int releaseAll(WaitingPuts.Batch batch) {
        waiting.sweep(target.flushedWhere(), System.nanoTime(), true, batch);
        int told = batch.size();
        batch.tell();
        return told;
    }

    /** Final work, on the flush thread (or on the caller if the service never started). */
    private void finishBeforeStop() {
        commitUpTo(target.maxWrotePosition(), Integer.MAX_VALUE);
        if (!flusher.flushEverything(RealtimeFlushService.SHUTDOWN_FLUSH_TRIES)) {
            LOG.error("{}: could not flush everything before stopping: flushed {} of {} bytes", THREAD_NAME,
                    target.flushedWhere(), target.maxWrotePosition());
        }
        closed = true;
        release(true);
    }

    private PutMessageStatus statusByCoverage(long nextOffset) {
        return target.flushedWhere() >= nextOffset ? PutMessageStatus.PUT_OK : PutMessageStatus.FLUSH_DISK_TIMEOUT;
    }
}
