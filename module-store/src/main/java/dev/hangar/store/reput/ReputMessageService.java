package dev.hangar.store.reput;

import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.spi.store.MessageArrivingListener;
import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.dispatch.DispatcherChain;
import dev.hangar.store.format.DispatchRecordView;
import dev.hangar.store.put.DelayLevels;
import dev.hangar.store.service.StoreStats;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reput loop: follows the CommitLog from the last dispatched offset up to what may be seen (the readable
 * end, or the flushed end under sync flush so nothing unacknowledged becomes visible), decodes each record and
 * hands it to the built-in dispatchers in order, then tells the arrival listeners. While records keep coming it naps
 * briefly between passes ({@link #NAP_NANOS}) so that puts need not wake it; idle, it parks until a put wakes it.
 * Third-party dispatchers are not called here: each follows the log on its own thread ({@link PluginDispatch}), so
 * a slow plugin never slows this loop nor, through the back-pressure on {@link #behindBytes()}, the puts.
 *
 * <p>Thread-safety: one dispatch thread; {@link #catchUp()} runs on the caller's thread before that thread is
 * started (recovery). {@link #behindBytes()} from anywhere.
 */
public final class ReputMessageService implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ReputMessageService.class);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /**
     * Written but not yet visible (a sync flush is under way: the flush does not wake us), or visible but cut (a
     * slave between two frames; the next append wakes us sooner): look again soon.
     */
    private static final long PENDING_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /**
     * A short nap after a pass that found nothing while records kept coming (and all that was written is visible):
     * during it the thread does not say it sleeps, so puts do not unpark it. With one writer at a paced rate each put
     * used to find this thread parked and paid a futex wake-up syscall (and this thread a context switch) per record;
     * now the thread wakes on its own timer and takes what arrived meanwhile. A record waits at most one nap (plus the
     * kernel's timer slack) to be dispatched, about what a wake-up by unpark takes on a busy 2-core machine.
     */
    static final long NAP_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /**
     * How long after the last dispatched record the thread keeps napping before it parks until a put wakes it (an
     * idle store costs a few dozen timer wake-ups after its last put, then nothing).
     */
    static final long NAPPING_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final PluginDispatch plugins;
    private final DispatcherChain dispatchers;
    /** Told every record before the dispatchers (the consumer-offset table takes the records of its topic). */
    private final Consumer<DispatchRecordView> recordObserver;
    private final LongSupplier visibleEnd;
    private final LongSupplier writtenEnd;
    private final DelayLevels delayLevels;
    private final StoreStats stats;
    /** Copied on add (rare) so that telling them per record needs no iterator. */
    private volatile MessageArrivingListener[] listeners = new MessageArrivingListener[0];
    private final CommitLogCursor cursor;
    /**
     * The cursor's offset when the dispatchers last ended a batch: everything below it is visible to readers (the
     * cursor moves per record, the dispatchers publish per batch). {@link #behindBytes()} counts from here, so a
     * caller that waits for 0 then reads an index finds every record in it.
     */
    private volatile long publishedOffset;
    /** Records handed to the dispatchers since their last batch end (dispatch thread only). */
    private int recordsInBatch;
    // made once: a pass may carry a single record, so what a pass allocates counts per record
    private final Consumer<DispatchRecordView> dispatchOne = this::dispatch;
    private final BooleanSupplier stopRequested = () -> this.stopped;
    private volatile boolean stopped;
    private volatile boolean sleeping;
    /** When the last pass dispatched something (dispatch thread only). */
    private long lastDispatchNanos;
    /**
     * Set when whoever moves the visible end wakes this thread itself (the sync flush, after each force): then an
     * append, not visible until that move, does not wake it, and while written bytes wait to become visible it
     * parks until woken instead of looking again every {@link #PENDING_PARK_NANOS}.
     */
    private volatile boolean wokenByVisibleEnd;
    /**
     * Set when a consensus provider bounds the visible end and wakes this thread when it moves
     * ({@code ReplicatedLog.committedMoved}): bytes written but not yet committed are then not looked at again every
     * {@link #PENDING_PARK_NANOS}, which on a raft node cost 15 % of a core (docs/PERFORMANCE.md 53). Appends still
     * wake it: a provider whose committed offset does not lag never calls committedMoved.
     */
    private volatile boolean wokenByCommit;
    /** Unparks by {@link #wakeup()}: how often a put paid for waking this thread. */
    private final AtomicLong wakeupsSent = new AtomicLong();
    private volatile Thread thread;

    /**
     * @param visibleEnd the offset dispatch may not pass: the readable end, or the flushed end for sync flush
     * @param writtenEnd the offset appends have reached (at or past {@code visibleEnd})
     * @param plugins    the third-party dispatchers, each on its own cursor: woken after each pass
     * @param recordObserver told every record, in log order, before the dispatchers; must be quick and not throw
     */
    public ReputMessageService(CommitLog commitLog, DispatcherChain dispatchers, LongSupplier visibleEnd,
                               LongSupplier writtenEnd, DelayLevels delayLevels, StoreStats stats,
                               PluginDispatch plugins, Consumer<DispatchRecordView> recordObserver) {
        this.plugins = plugins;
        this.recordObserver = recordObserver;
        this.dispatchers = dispatchers;
        this.visibleEnd = visibleEnd;
        this.writtenEnd = writtenEnd;
        this.delayLevels = delayLevels;
        this.stats = stats;
        this.cursor = new CommitLogCursor(commitLog, "dispatch", 0);
    }

    public synchronized void addListener(MessageArrivingListener listener) {
        MessageArrivingListener[] grown = Arrays.copyOf(listeners, listeners.length + 1);
        grown[grown.length - 1] = listener;
        listeners = grown;
    }

    public long reputFromOffset() {
        return cursor.offset();
    }

    public void reputFromOffset(long offset) {
        cursor.offset(offset);
        publishedOffset = offset;
    }

    /** The CommitLog offset below which every record is dispatched and published to readers. */
    public long publishedOffset() {
        return publishedOffset;
    }

    /** Bytes visible in the CommitLog but not yet dispatched and published by every built-in dispatcher. */
    public long behindBytes() {
        return Math.max(0, visibleEnd.getAsLong() - publishedOffset);
    }

    /**
     * Bytes appended but not yet dispatched and published, visible or not: what the put back-pressure bounds. With a
     * write buffer the appends a slow committer has not made readable count too: not counting them let the writers
     * run a whole pool of buffers (768 MiB in the bench) ahead, and once committed that backlog landed on dispatch at
     * once and held every put at the back-pressure's limit for seconds.
     */
    public long lagBehindWrittenBytes() {
        return Math.max(0, writtenEnd.getAsLong() - publishedOffset);
    }

    /** Dispatches everything visible now, on the calling thread. Returns the number of messages dispatched. */
    public long catchUp() {
        long total = 0;
        long n;
        while ((n = dispatchAvailable()) > 0) {
            total += n;
        }
        return total;
    }

    public void start() {
        Thread t = new Thread(this, "hangar-reput");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** Hints that new data may be visible. Cheap: unparks only a sleeping thread. */
    public void wakeup() {
        if (sleeping) {
            Thread t = thread;
            if (t != null) {
                wakeupsSent.incrementAndGet();
                LockSupport.unpark(t);
            }
        }
    }

    /**
     * From now on the visible end's mover calls {@link #wakeup()} after each move (see {@link #wokenByVisibleEnd}):
     * {@link #appended()} stops waking this thread.
     */
    public void wokenByVisibleEnd() {
        wokenByVisibleEnd = true;
    }

    /** From now on a consensus provider's commit wakes this thread ({@link #wokenByCommit}). */
    public void wokenByCommit() {
        wokenByCommit = true;
    }

    /**
     * An append reached the written end: wakes a sleeping dispatch thread, unless the appended bytes become visible
     * only when the visible end's mover says so. Under sync flush a put's bytes are dispatched after the force that
     * covers them; a wake-up per put found nothing new to dispatch (docs/PERFORMANCE.md).
     */
    public void appended() {
        if (!wokenByVisibleEnd) {
            wakeup();
        }
    }

    /** How many times {@link #wakeup()} unparked the dispatch thread (each a syscall on the caller's thread). */
    public long wakeupsSent() {
        return wakeupsSent.get();
    }

    /** Stops after dispatching what is visible, waiting at most {@code waitMillis} for the loop to catch up. */
    public void shutdown(long waitMillis) {
        long deadline = System.currentTimeMillis() + waitMillis;
        while (behindBytes() > 0 && System.currentTimeMillis() < deadline && thread != null && thread.isAlive()) {
            wakeup();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        stopped = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(waitMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                long seenEnd = visibleEnd.getAsLong();
                if (dispatchAvailable() > 0) {
                    lastDispatchNanos = System.nanoTime();
                } else if (writtenEnd.getAsLong() <= seenEnd
                        && System.nanoTime() - lastDispatchNanos < NAPPING_WINDOW_NANOS) {
                    // only when nothing written waits to become visible: during a sync flush (or a write buffer's
                    // commit) naps would wake 10x as often as the pending park below, for nothing to dispatch
                    LockSupport.parkNanos(this, NAP_NANOS);
                } else {
                    sleeping = true;
                    // park unless more became visible since the pass began (an append that saw "not sleeping" did
                    // not wake us). Being behind is no reason to spin: on a slave the visible end cuts a record
                    // between two frames from the master, nothing can be dispatched until the next append (which
                    // wakes us), and re-scanning at once took the CPU from the HA client bringing the rest
                    long end = visibleEnd.getAsLong();
                    if (end == seenEnd && !stopped) {
                        boolean pending = writtenEnd.getAsLong() > end || behindBytes() > 0;
                        LockSupport.parkNanos(this, pending && !wokenByVisibleEnd && !wokenByCommit
                                ? PENDING_PARK_NANOS : IDLE_PARK_NANOS);
                    }
                    sleeping = false;
                }
            } catch (RuntimeException e) {
                LOG.error("dispatch failed at commit-log offset {}; retrying", cursor.offset(), e);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }

    /**
     * One pass over what is visible now, file by file. The batch is ended in any case (also on an Error): a
     * dispatcher may hold a lock that readers wait for until then.
     */
    private long dispatchAvailable() {
        long dispatched;
        try {
            dispatched = cursor.advance(visibleEnd, dispatchOne, stopRequested);
        } finally {
            endBatch();
        }
        if (dispatched > 0) {
            plugins.wakeup();
        }
        return dispatched;
    }

    private void endBatch() {
        recordsInBatch = 0;
        dispatchers.endBatch();
        publishedOffset = cursor.offset();
    }

    /** What a dispatcher is handed for a record: delayed messages carry their delivery time as tags code. */
    public void prepare(DispatchRecordView request) {
        if (MessageConst.SCHEDULE_TOPIC.equals(request.topic())) {
            request.tagsCode(delayLevels.deliverTimestamp(levelOf(request), request.storeTimestamp()));
        }
    }

    private void dispatch(DispatchRecordView request) {
        recordObserver.accept(request);
        prepare(request);
        dispatchers.dispatch(request);
        stats.recordDispatched();
        if (++recordsInBatch >= DispatcherChain.MAX_BATCH_RECORDS) {
            // a pass goes on while the writers keep up: readers must not wait for its end
            endBatch();
        }
        if (MessageSysFlag.takesQueueOffset(request.sysFlag())) {
            for (MessageArrivingListener l : listeners) {
                try {
                    l.arriving(request.topic(), request.queueId(), request.consumeQueueOffset() + 1);
                } catch (RuntimeException e) {
                    LOG.warn("arrival listener failed: {}", e.toString());
                }
            }
        }
    }

    private static int levelOf(DispatchRequest m) {
        String v = m.property(MessageConst.DELAY_TIME_LEVEL);
        try {
            return v == null ? 1 : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
