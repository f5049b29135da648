package dev.hangar.store.reput;

import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.dispatch.DispatcherChain;
import dev.hangar.store.format.DispatchRecordView;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One dispatch thread of the reput loop: a cursor of its own over the CommitLog and a group of the built-in
 * dispatchers it feeds ({@link DispatcherChain#builtInGroups}). With {@code dispatchThreads=one} a single lane feeds
 * every built-in; with {@code per-dispatcher} the ConsumeQueue and the index each follow the log on a lane of their
 * own, so on a machine with idle cores they are built in parallel, and the slower of the two, not their sum, bounds
 * how fast records become readable (docs/PERFORMANCE.md 56). Each lane reads the records itself: a record's fixed
 * fields and properties are decoded once per lane, which costs less than handing decoded records between threads.
 *
 * <p>While records keep coming the lane naps briefly between passes ({@link ReputMessageService#NAP_NANOS}) so that
 * puts need not wake it; idle, it parks until {@link #wakeup()}.
 *
 * <p>Thread-safety: {@link #run()} on the lane's thread; {@link #catchUp()} before that thread starts (recovery).
 * {@link #publishedOffset()}, {@link #offset()} and {@link #wakeup()} from anywhere.
 */
final class DispatchLane implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(DispatchLane.class);
    /**
     * Written but not yet visible (a sync flush is under way: the flush does not wake us), or visible but cut (a
     * slave between two frames; the next append wakes us sooner): look again soon.
     */
    private static final long PENDING_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final String threadName;
    private final ReputMessageService reput;
    private final DispatcherChain chain;
    private final DispatcherChain.Entry[] group;
    /** What the lane does with each record before its dispatchers get it (the reput service's share of the work). */
    private final Consumer<DispatchRecordView> beforeDispatch;
    private final CommitLogCursor cursor;
    /**
     * The cursor's offset when this lane's dispatchers last ended a batch: everything below it is visible to readers
     * of them (the cursor moves per record, the dispatchers publish per batch).
     */
    private volatile long publishedOffset;
    /** Records handed to the dispatchers since their last batch end (lane thread only). */
    private int recordsInBatch;
    // made once: a pass may carry a single record, so what a pass allocates counts per record
    private final Consumer<DispatchRecordView> dispatchOne = this::dispatch;
    private final LongSupplier visibleEnd;
    private final BooleanSupplier stopRequested = () -> this.stopped;
    private volatile boolean stopped;
    private volatile boolean sleeping;
    /** When the last pass dispatched something (lane thread only). */
    private long lastDispatchNanos;
    private volatile Thread thread;

    /**
     * @param beforeDispatch told every record, in log order, before the group's dispatchers; must not throw
     */
    DispatchLane(String threadName, CommitLog commitLog, ReputMessageService reput, DispatcherChain chain,
                 DispatcherChain.Entry[] group, Consumer<DispatchRecordView> beforeDispatch) {
        this.threadName = threadName;
        this.reput = reput;
        this.chain = chain;
        this.group = group;
        this.beforeDispatch = beforeDispatch;
        this.cursor = new CommitLogCursor(commitLog, threadName, 0);
        this.visibleEnd = reput::visibleEnd;
    }

    String threadName() {
        return threadName;
    }

    /** Commit-log offset of the next record this lane hands on. */
    long offset() {
        return cursor.offset();
    }

    void offset(long offset) {
        cursor.offset(offset);
        publishedOffset = offset;
    }

    /** The commit-log offset below which this lane's dispatchers have published every record. */
    long publishedOffset() {
        return publishedOffset;
    }

    /** Dispatches everything visible now, on the calling thread. Returns the number of records dispatched. */
    long catchUp() {
        long total = 0;
        long n;
        while ((n = dispatchAvailable()) > 0) {
            total += n;
        }
        return total;
    }

    void start() {
        Thread t = new Thread(this, threadName);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** Unparks the lane's thread if it sleeps; true when it did (a syscall on the caller's thread). */
    boolean wakeup() {
        if (sleeping) {
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
                return true;
            }
        }
        return false;
    }

    boolean isAlive() {
        Thread t = thread;
        return t != null && t.isAlive();
    }

    void stop() {
        stopped = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    void join(long waitMillis) {
        Thread t = thread;
        if (t != null) {
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
                long seenEnd = reput.visibleEnd();
                if (dispatchAvailable() > 0) {
                    lastDispatchNanos = System.nanoTime();
                } else if (reput.writtenEnd() <= seenEnd
                        && System.nanoTime() - lastDispatchNanos < ReputMessageService.NAPPING_WINDOW_NANOS) {
                    // only when nothing written waits to become visible: during a sync flush (or a write buffer's
                    // commit) naps would wake 10x as often as the pending park below, for nothing to dispatch
                    LockSupport.parkNanos(this, ReputMessageService.NAP_NANOS);
                } else {
                    sleeping = true;
                    // park unless more became visible since the pass began (an append that saw "not sleeping" did
                    // not wake us). Being behind is no reason to spin: on a slave the visible end cuts a record
                    // between two frames from the master, nothing can be dispatched until the next append (which
                    // wakes us), and re-scanning at once took the CPU from the HA client bringing the rest
                    long end = reput.visibleEnd();
                    if (end == seenEnd && !stopped) {
                        boolean pending = reput.writtenEnd() > end || end > publishedOffset;
                        LockSupport.parkNanos(this, pending && !reput.visibleEndWakesUs()
                                ? PENDING_PARK_NANOS : IDLE_PARK_NANOS);
                    }
                    sleeping = false;
                }
            } catch (RuntimeException e) {
                LOG.error("{}: dispatch failed at commit-log offset {}; retrying", threadName, cursor.offset(), e);
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
            reput.passEnded();
        }
        return dispatched;
    }

    private void endBatch() {
        recordsInBatch = 0;
        chain.endBatch(group);
        publishedOffset = cursor.offset();
    }

    private void dispatch(DispatchRecordView request) {
        beforeDispatch.accept(request);
        chain.dispatch(group, request);
        if (++recordsInBatch >= DispatcherChain.MAX_BATCH_RECORDS) {
            // a pass goes on while the writers keep up: readers must not wait for its end
            endBatch();
        }
        reput.dispatched(this, request);
    }
}
