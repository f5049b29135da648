package dev.hangar.store.reput;

import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.spi.store.MessageArrivingListener;
import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.dispatch.DispatcherChain;
import dev.hangar.store.format.DispatchRecordView;
import dev.hangar.store.put.DelayLevels;
import dev.hangar.store.service.StoreStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reput loop: follows the CommitLog from the last dispatched offset up to what may be seen (the readable
 * end, or the flushed end under sync flush so nothing unacknowledged becomes visible), decodes each record and
 * hands it to the built-in dispatchers in order, then tells the arrival listeners. The built-ins are fed by one
 * thread, or by a thread each ({@link DispatchLane}, {@code dispatchThreads}); the lane of the ConsumeQueue (the
 * first lane when none offers a {@link ConsumeQueueView}) also applies the consumer-offset records, counts the
 * dispatched records and tells the arrival listeners, so a long poll is woken by the lane that makes its queue
 * readable. Third-party dispatchers are not called here: each follows the log on its own thread
 * ({@link PluginDispatch}), so a slow plugin never slows this loop nor, through the back-pressure on
 * {@link #behindBytes()}, the puts.
 *
 * <p>Thread-safety: the lanes' threads; {@link #catchUp()} runs on the caller's thread (and the other lanes' on
 * threads of their own) before they are started (recovery). {@link #behindBytes()} from anywhere.
 */
public final class ReputMessageService {
    private static final Logger LOG = LoggerFactory.getLogger(ReputMessageService.class);
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
    private final LongSupplier visibleEnd;
    private final LongSupplier writtenEnd;
    private final DelayLevels delayLevels;
    private final StoreStats stats;
    /** Copied on add (rare) so that telling them per record needs no iterator. */
    private volatile MessageArrivingListener[] listeners = new MessageArrivingListener[0];
    private final DispatchLane[] lanes;
    /** The lane that applies consumer offsets, counts records and tells the listeners. */
    private final DispatchLane primary;
    /**
     * Set when whoever moves the visible end wakes the lanes itself (the sync flush, after each force): then an
     * append, not visible until that move, does not wake them, and while written bytes wait to become visible they
     * park until woken instead of looking again every half millisecond.
     */
    private volatile boolean wokenByVisibleEnd;
    /**
     * Set when a consensus provider bounds the visible end and wakes the lanes when it moves
     * ({@code ReplicatedLog.committedMoved}): bytes written but not yet committed are then not looked at again every
     * half millisecond, which on a raft node cost 15 % of a core (docs/PERFORMANCE.md 53). Appends still wake them: a
     * provider whose committed offset does not lag never calls committedMoved.
     */
    private volatile boolean wokenByCommit;
    /** Unparks by {@link #wakeup()}: how often a put paid for waking a dispatch thread. */
    private final AtomicLong wakeupsSent = new AtomicLong();

    /**
     * @param visibleEnd     the offset dispatch may not pass: the readable end, or the flushed end for sync flush
     * @param writtenEnd     the offset appends have reached (at or past {@code visibleEnd})
     * @param threadPerDispatcher a dispatch thread per built-in dispatcher, rather than one for all of them
     * @param plugins        the third-party dispatchers, each on its own cursor: woken after each pass
     * @param recordObserver told every record, in log order, before the dispatchers; must be quick and not throw
     * @param deletedTopic   the topic a record deletes, or null; must be quick for other records and not throw
     */
    public ReputMessageService(CommitLog commitLog, DispatcherChain dispatchers, boolean threadPerDispatcher,
                               LongSupplier visibleEnd, LongSupplier writtenEnd, DelayLevels delayLevels,
                               StoreStats stats, PluginDispatch plugins, Consumer<DispatchRecordView> recordObserver,
                               Function<DispatchRecordView, String> deletedTopic) {
        this.plugins = plugins;
        this.visibleEnd = visibleEnd;
        this.writtenEnd = writtenEnd;
        this.delayLevels = delayLevels;
        this.stats = stats;
        List<DispatcherChain.Entry[]> groups = new ArrayList<>(dispatchers.builtInGroups(threadPerDispatcher));
        if (groups.isEmpty()) {
            // no built-in: the lane still applies consumer offsets and tells the listeners
            groups.add(new DispatcherChain.Entry[0]);
        }
        int primaryIndex = 0;
        for (int i = 0; i < groups.size(); i++) {
            if (Arrays.stream(groups.get(i)).anyMatch(e -> e.dispatcher().view(ConsumeQueueView.class).isPresent())) {
                primaryIndex = i;
                break;
            }
        }
        lanes = new DispatchLane[groups.size()];
        for (int i = 0; i < lanes.length; i++) {
            DispatcherChain.Entry[] group = groups.get(i);
            boolean isPrimary = i == primaryIndex;
            String name = isPrimary ? "hangar-reput" : "hangar-reput-" + group[0].name();
            lanes[i] = new DispatchLane(name, commitLog, this, dispatchers, group, record -> {
                if (isPrimary) {
                    recordObserver.accept(record);
                }
                String deleted = deletedTopic.apply(record);
                if (deleted != null) {
                    dispatchers.deleteTopic(group, deleted);
                }
                prepare(record);
            });
        }
        primary = lanes[primaryIndex];
    }

    public synchronized void addListener(MessageArrivingListener listener) {
        MessageArrivingListener[] grown = Arrays.copyOf(listeners, listeners.length + 1);
        grown[grown.length - 1] = listener;
        listeners = grown;
    }

    /** How many dispatch threads feed the built-in dispatchers. */
    public int threads() {
        return lanes.length;
    }

    /** The commit-log offset every dispatch thread has reached (the slowest one's next record). */
    public long reputFromOffset() {
        long min = Long.MAX_VALUE;
        for (DispatchLane lane : lanes) {
            min = Math.min(min, lane.offset());
        }
        return min;
    }

    public void reputFromOffset(long offset) {
        for (DispatchLane lane : lanes) {
            lane.offset(offset);
        }
    }

    /** The CommitLog offset below which every record is dispatched and published to readers. */
    public long publishedOffset() {
        long min = Long.MAX_VALUE;
        for (DispatchLane lane : lanes) {
            min = Math.min(min, lane.publishedOffset());
        }
        return min;
    }

    /** The offset below which the consumer-offset records are applied (the primary lane's position). */
    public long offsetsAppliedThrough() {
        return primary.offset();
    }

    /** Bytes visible in the CommitLog but not yet dispatched and published by every built-in dispatcher. */
    public long behindBytes() {
        return Math.max(0, visibleEnd.getAsLong() - publishedOffset());
    }

    /**
     * Bytes appended but not yet dispatched and published, visible or not: what the put back-pressure bounds. With a
     * write buffer the appends a slow committer has not made readable count too: not counting them let the writers
     * run a whole pool of buffers (768 MiB in the bench) ahead, and once committed that backlog landed on dispatch at
     * once and held every put at the back-pressure's limit for seconds.
     */
    public long lagBehindWrittenBytes() {
        return Math.max(0, writtenEnd.getAsLong() - publishedOffset());
    }

    /**
     * Dispatches everything visible now: the primary lane on the calling thread, every other lane on a thread of its
     * own, in parallel (a start that re-dispatches a long log takes the slowest lane's time, not the sum). Returns
     * the number of messages dispatched.
     */
    public long catchUp() {
        List<Thread> helpers = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (DispatchLane lane : lanes) {
            if (lane != primary) {
                Thread t = new Thread(() -> {
                    try {
                        lane.catchUp();
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, lane.threadName() + "-catch-up");
                t.start();
                helpers.add(t);
            }
        }
        long total = primary.catchUp();
        for (Thread t : helpers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the dispatch threads caught up", e);
            }
        }
        Throwable f = failure.get();
        if (f instanceof RuntimeException re) {
            throw re;
        }
        if (f instanceof Error err) {
            throw err;
        }
        return total;
    }

    public void start() {
        for (DispatchLane lane : lanes) {
            lane.start();
        }
    }

    /** Hints that new data may be visible. Cheap: unparks only a sleeping thread. */
    public void wakeup() {
        for (DispatchLane lane : lanes) {
            if (lane.wakeup()) {
                wakeupsSent.incrementAndGet();
            }
        }
    }

    /**
     * From now on the visible end's mover calls {@link #wakeup()} after each move (see {@link #wokenByVisibleEnd}):
     * {@link #appended()} stops waking the dispatch threads.
     */
    public void wokenByVisibleEnd() {
        wokenByVisibleEnd = true;
    }

    /** From now on a consensus provider's commit wakes the dispatch threads ({@link #wokenByCommit}). */
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

    /** How many times {@link #wakeup()} unparked a dispatch thread (each a syscall on the caller's thread). */
    public long wakeupsSent() {
        return wakeupsSent.get();
    }

    /** Stops after dispatching what is visible, waiting at most {@code waitMillis} for the lanes to catch up. */
    public void shutdown(long waitMillis) {
        long deadline = System.currentTimeMillis() + waitMillis;
        while (behindBytes() > 0 && System.currentTimeMillis() < deadline && anyAlive()) {
            wakeup();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        for (DispatchLane lane : lanes) {
            lane.stop();
        }
        for (DispatchLane lane : lanes) {
            lane.join(waitMillis);
        }
    }

    private boolean anyAlive() {
        for (DispatchLane lane : lanes) {
            if (lane.isAlive()) {
                return true;
            }
        }
        return false;
    }

    /** What a dispatcher is handed for a record: delayed messages carry their delivery time as tags code. */
    public void prepare(DispatchRecordView request) {
        if (MessageConst.SCHEDULE_TOPIC.equals(request.topic())) {
            request.tagsCode(delayLevels.deliverTimestamp(levelOf(request), request.storeTimestamp()));
        }
    }

    // --- called by the lanes

    long visibleEnd() {
        return visibleEnd.getAsLong();
    }

    long writtenEnd() {
        return writtenEnd.getAsLong();
    }

    /** Whoever moves the visible end wakes the lanes: written bytes that wait for it are not looked at again soon. */
    boolean visibleEndWakesUs() {
        return wokenByVisibleEnd || wokenByCommit;
    }

    /** A lane's pass dispatched records: the plugins, which follow the same end, may find them too. */
    void passEnded() {
        plugins.wakeup();
    }

    /** A lane's dispatchers took {@code request}: the primary lane counts it and tells the arrival listeners. */
    void dispatched(DispatchLane lane, DispatchRecordView request) {
        if (lane != primary) {
            return;
        }
        stats.recordDispatched();
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
