package dev.hangar.store.reput;

import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.mapped.SelectedRegion;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.spi.store.MessageArrivingListener;
import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.dispatch.DispatcherChain;
import dev.hangar.store.format.RecordDecoder;
import dev.hangar.store.put.DelayLevels;
import dev.hangar.store.service.StoreStats;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reput loop: follows the CommitLog from the last dispatched offset up to what may be seen (the readable
 * end, or the flushed end under sync flush so nothing unacknowledged becomes visible), decodes each record and
 * hands it to the dispatchers in order, then tells the arrival listeners. Woken by puts; parks when idle.
 *
 * <p>Thread-safety: one dispatch thread; {@link #catchUp()} runs on the caller's thread before that thread is
 * started (recovery). {@link #behindBytes()} from anywhere.
 */
public final class ReputMessageService implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ReputMessageService.class);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** Written but not yet visible (a sync flush is under way): look again soon, the flush does not wake us. */
    private static final long PENDING_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    private final CommitLog commitLog;
    private final DispatcherChain dispatchers;
    private final LongSupplier visibleEnd;
    private final LongSupplier writtenEnd;
    private final DelayLevels delayLevels;
    private final StoreStats stats;
    private final List<MessageArrivingListener> listeners = new CopyOnWriteArrayList<>();
    private volatile long reputFromOffset;
    private volatile boolean stopped;
    private volatile boolean sleeping;
    private volatile Thread thread;

    /**
     * @param visibleEnd the offset dispatch may not pass: the readable end, or the flushed end for sync flush
     * @param writtenEnd the offset appends have reached (at or past {@code visibleEnd})
     */
    public ReputMessageService(CommitLog commitLog, DispatcherChain dispatchers, LongSupplier visibleEnd,
                               LongSupplier writtenEnd, DelayLevels delayLevels, StoreStats stats) {
        this.commitLog = commitLog;
        this.dispatchers = dispatchers;
        this.visibleEnd = visibleEnd;
        this.writtenEnd = writtenEnd;
        this.delayLevels = delayLevels;
        this.stats = stats;
    }

    public void addListener(MessageArrivingListener listener) {
        listeners.add(listener);
    }

    public long reputFromOffset() {
        return reputFromOffset;
    }

    public void reputFromOffset(long offset) {
        this.reputFromOffset = offset;
    }

    /** Bytes visible in the CommitLog but not yet dispatched. */
    public long behindBytes() {
        return Math.max(0, visibleEnd.getAsLong() - reputFromOffset);
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
                LockSupport.unpark(t);
            }
        }
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
                if (dispatchAvailable() == 0) {
                    sleeping = true;
                    if (behindBytes() == 0 && !stopped) {
                        boolean pending = writtenEnd.getAsLong() > visibleEnd.getAsLong();
                        LockSupport.parkNanos(this, pending ? PENDING_PARK_NANOS : IDLE_PARK_NANOS);
                    }
                    sleeping = false;
                }
            } catch (RuntimeException e) {
                LOG.error("dispatch failed at commit-log offset {}; retrying", reputFromOffset, e);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }

    /** One pass over what is visible now, file by file. */
    private long dispatchAvailable() {
        long dispatchedNow = 0;
        while (!stopped) {
            long end = visibleEnd.getAsLong();
            long from = reputFromOffset;
            if (from >= end) {
                break;
            }
            long min = commitLog.getMinOffset();
            if (from < min) {
                LOG.warn("dispatch offset {} is below the commit log's first offset {}; jumping", from, min);
                reputFromOffset = min;
                continue;
            }
            long before = dispatchedNow;
            try (SelectedRegion region = commitLog.getData(from)) {
                if (region == null) {
                    break;
                }
                int limit = (int) Math.min(region.size(), end - from);
                int pos = 0;
                while (pos < limit) {
                    RecordDecoder.Check check = RecordDecoder.check(region.buffer(), pos, limit - pos, false);
                    if (check.kind() == RecordDecoder.Kind.MESSAGE) {
                        dispatch(RecordDecoder.toDispatchRequest(region.buffer(), pos));
                        pos += check.size();
                        reputFromOffset = from + pos;
                        dispatchedNow++;
                    } else if (check.kind() == RecordDecoder.Kind.BLANK) {
                        reputFromOffset = commitLog.rollNextFile(from + pos);
                        pos = limit;
                        dispatchedNow++; // progress
                    } else {
                        if (check.kind() == RecordDecoder.Kind.INVALID && !isCopyInProgress(region, pos, limit)) {
                            LOG.error("cannot dispatch the record at {}: {}", from + pos, check.reason());
                        }
                        return dispatchedNow;
                    }
                }
            }
            if (dispatchedNow == before) {
                break;
            }
        }
        return dispatchedNow;
    }

    /**
     * A slave receives a master's log in chunks that may end inside a record: a record cut by the visible end (a
     * header, or a message whose length runs past the end but fits its file) is waited for, not reported.
     */
    private boolean isCopyInProgress(SelectedRegion region, int pos, int limit) {
        int left = limit - pos;
        if (left < 8) {
            return true;
        }
        int total = region.buffer().getInt(pos);
        int magic = region.buffer().getInt(pos + 4);
        return magic == dev.hangar.store.format.CommitLogRecordFormat.MESSAGE_MAGIC_CODE && total > left
                && region.startOffset() % commitLog.queue().mappedFileSize() + pos + (long) total
                <= commitLog.queue().mappedFileSize();
    }

    private void dispatch(DispatchRequest request) {
        if (MessageConst.SCHEDULE_TOPIC.equals(request.topic())) {
            long deliverAt = delayLevels.deliverTimestamp(levelOf(request), request.storeTimestamp());
            request = new DispatchRequest(request.topic(), request.queueId(), request.commitLogOffset(),
                    request.msgSize(), deliverAt, request.storeTimestamp(), request.consumeQueueOffset(),
                    request.keys(), request.uniqKey(), request.sysFlag(), request.preparedTransactionOffset(),
                    request.properties(), request.bornTimestamp());
        }
        dispatchers.dispatch(request);
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
        String v = m.properties().get(MessageConst.DELAY_TIME_LEVEL);
        try {
            return v == null ? 1 : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
