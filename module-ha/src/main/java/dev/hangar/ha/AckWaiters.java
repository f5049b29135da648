package dev.hangar.ha;

import dev.hangar.spi.store.PutMessageStatus;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * SYNC_MASTER puts waiting for a slave's acknowledgement: one future per put, keyed by the offset its bytes end
 * at (each append ends at its own offset). An acknowledgement completes every put at or below it at once; one
 * watcher thread completes the late ones {@code FLUSH_SLAVE_TIMEOUT}. No thread waits per put.
 *
 * <p>Thread-safety: {@link #await} from put threads, {@link #acknowledge} from connection threads, any number.
 */
final class AckWaiters {
    /** The longest the watcher sleeps while puts wait (it sleeps until the oldest one's deadline, at most this). */
    private static final long MAX_WATCH_SLEEP_NANOS = 50_000_000;

    private record Waiter(CompletableFuture<PutMessageStatus> future, long deadlineNanos) {
    }

    private final ConcurrentSkipListMap<Long, Waiter> waiting = new ConcurrentSkipListMap<>();
    private final AtomicLong acked = new AtomicLong(-1);
    private final long timeoutNanos;
    private final Thread watcher;
    private volatile boolean watcherIdle;
    private volatile boolean stopped;

    AckWaiters(long timeoutMillis) {
        this.timeoutNanos = timeoutMillis * 1_000_000;
        this.watcher = new Thread(this::watch, "hangar-ha-ack-deadlines");
        this.watcher.setDaemon(true);
    }

    void start() {
        watcher.start();
    }

    /** The highest offset any slave acknowledged, -1 before the first. */
    long acked() {
        return acked.get();
    }

    /** Puts waiting now. */
    int waitingCount() {
        return waiting.size();
    }

    CompletableFuture<PutMessageStatus> await(long nextOffset) {
        if (stopped) {
            return SettledOutcomes.FLUSH_SLAVE_TIMEOUT;
        }
        if (acked.get() >= nextOffset) {
            return SettledOutcomes.PUT_OK;
        }
        Waiter w = new Waiter(new CompletableFuture<>(), System.nanoTime() + timeoutNanos);
        waiting.put(nextOffset, w);
        // an acknowledgement may have passed between the check and the put
        release(acked.get());
        if (watcherIdle) {
            LockSupport.unpark(watcher);
        }
        return w.future();
    }

    void acknowledge(long offset) {
        long now = acked.accumulateAndGet(offset, Math::max);
        release(now);
    }

    private void release(long upTo) {
        Map.Entry<Long, Waiter> e;
        while ((e = waiting.firstEntry()) != null && e.getKey() <= upTo) {
            if (waiting.remove(e.getKey(), e.getValue())) {
                e.getValue().future().complete(PutMessageStatus.PUT_OK);
            }
        }
    }

    /**
     * Times out the oldest waiters. Deadlines grow with the offsets (a put waits right after its append), so only the
     * first entry is looked at and the watcher sleeps until its deadline: scanning every waiter every few
     * milliseconds cost 2-3 µs of CPU per put with 1 024 puts waiting. Where a put's thread was held up between its
     * append and its wait, a later put behind it times out as late as that delay, never earlier.
     */
    private void watch() {
        while (!stopped) {
            Map.Entry<Long, Waiter> head = waiting.firstEntry();
            if (head == null) {
                watcherIdle = true;
                if (waiting.isEmpty() && !stopped) {
                    LockSupport.park(this);
                }
                watcherIdle = false;
                continue;
            }
            long left = head.getValue().deadlineNanos() - System.nanoTime();
            if (left <= 0) {
                if (waiting.remove(head.getKey(), head.getValue())) {
                    head.getValue().future().complete(PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
                }
                continue;
            }
            LockSupport.parkNanos(this, Math.min(left, MAX_WATCH_SLEEP_NANOS));
        }
    }

    /** Stops the watcher and completes every waiting put {@code FLUSH_SLAVE_TIMEOUT}. */
    void shutdown() {
        stopped = true;
        LockSupport.unpark(watcher);
        Map.Entry<Long, Waiter> e;
        while ((e = waiting.pollFirstEntry()) != null) {
            e.getValue().future().complete(PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
        }
        try {
            watcher.join(5_000);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }
}
