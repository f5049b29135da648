package dev.hangar.ha;

import dev.hangar.spi.store.PutMessageStatus;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * SYNC_MASTER puts waiting for a slave's acknowledgement: one future per put, kept in the order of the offsets their
 * bytes end at (each append ends at its own offset). An acknowledgement completes every put at or below it at once;
 * one watcher thread completes the late ones {@code FLUSH_SLAVE_TIMEOUT}. No thread waits per put.
 *
 * <p>The waiters live in one ring of parallel arrays (offset, deadline, future), sorted by offset, under this
 * object's monitor. Puts append in offset order almost always (a put waits right after its append), so an insert is
 * an append at the tail, or a short shift when put threads overtook each other between append and wait. An
 * acknowledgement takes the covered prefix in one pass under the monitor and completes it outside. A skip list did
 * the same with a node, an index level, a boxed key and a record per put, and a CAS removal per released put, all
 * on the connection thread that should be shipping the next frame.
 *
 * <p>Thread-safety: {@link #await} from put threads, {@link #acknowledge} from connection threads, any number.
 */
final class AckWaiters {
    /** The longest the watcher sleeps while puts wait (it sleeps until the oldest one's deadline, at most this). */
    private static final long MAX_WATCH_SLEEP_NANOS = 50_000_000;
    private static final int INITIAL_CAPACITY = 1024;

    private final AtomicLong acked = new AtomicLong(-1);
    private final long timeoutNanos;
    private final Thread watcher;
    private volatile boolean watcherIdle;
    private volatile boolean stopped;
    /** Waiters now; written under the monitor, read without it by the watcher before it parks and by stats. */
    private volatile int size;
    // the ring: guarded by this; entry i is at (head + i) & (capacity - 1), offsets ascending from head
    private long[] offsets = new long[INITIAL_CAPACITY];
    private long[] deadlines = new long[INITIAL_CAPACITY];
    @SuppressWarnings("unchecked")
    private CompletableFuture<PutMessageStatus>[] futures = new CompletableFuture[INITIAL_CAPACITY];
    private int head;

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
        return size;
    }

    CompletableFuture<PutMessageStatus> await(long nextOffset) {
        if (acked.get() >= nextOffset) {
            return SettledOutcomes.PUT_OK;
        }
        CompletableFuture<PutMessageStatus> f = new CompletableFuture<>();
        synchronized (this) {
            if (stopped) {
                return SettledOutcomes.FLUSH_SLAVE_TIMEOUT;
            }
            // an acknowledgement raises acked before it takes the monitor: re-read under it, so a put either sees
            // that acknowledgement here or is seen by it
            if (acked.get() >= nextOffset) {
                return SettledOutcomes.PUT_OK;
            }
            insert(nextOffset, System.nanoTime() + timeoutNanos, f);
        }
        if (watcherIdle) {
            LockSupport.unpark(watcher);
        }
        return f;
    }

    /** Inserts in offset order, from the tail (where it almost always belongs). Guarded by this. */
    private void insert(long offset, long deadline, CompletableFuture<PutMessageStatus> f) {
        if (size == offsets.length) {
            grow();
        }
        int mask = offsets.length - 1;
        int i = size;
        while (i > 0 && offsets[(head + i - 1) & mask] > offset) {
            int from = (head + i - 1) & mask;
            int to = (head + i) & mask;
            offsets[to] = offsets[from];
            deadlines[to] = deadlines[from];
            futures[to] = futures[from];
            i--;
        }
        int at = (head + i) & mask;
        offsets[at] = offset;
        deadlines[at] = deadline;
        futures[at] = f;
        size = size + 1;
    }

    /** Doubles the ring, unrolling it so the oldest waiter is at index 0. Guarded by this. */
    @SuppressWarnings("unchecked")
    private void grow() {
        int n = offsets.length;
        long[] o = new long[n * 2];
        long[] d = new long[n * 2];
        CompletableFuture<PutMessageStatus>[] f = new CompletableFuture[n * 2];
        for (int i = 0; i < size; i++) {
            int from = (head + i) & (n - 1);
            o[i] = offsets[from];
            d[i] = deadlines[from];
            f[i] = futures[from];
        }
        offsets = o;
        deadlines = d;
        futures = f;
        head = 0;
    }

    void acknowledge(long offset) {
        long upTo = acked.accumulateAndGet(offset, Math::max);
        // always under the monitor, even when nobody seems to wait: a put that read the old acked may be inserting
        CompletableFuture<PutMessageStatus>[] released;
        synchronized (this) {
            int mask = offsets.length - 1;
            int n = 0;
            while (n < size && offsets[(head + n) & mask] <= upTo) {
                n++;
            }
            released = takeHead(n);
        }
        complete(released, PutMessageStatus.PUT_OK);
    }

    /** Removes the first {@code n} waiters and returns their futures (null when none). Guarded by this. */
    @SuppressWarnings("unchecked")
    private CompletableFuture<PutMessageStatus>[] takeHead(int n) {
        if (n == 0) {
            return null;
        }
        CompletableFuture<PutMessageStatus>[] taken = new CompletableFuture[n];
        int mask = offsets.length - 1;
        for (int i = 0; i < n; i++) {
            int at = (head + i) & mask;
            taken[i] = futures[at];
            futures[at] = null;
        }
        head = (head + n) & mask;
        size = size - n;
        return taken;
    }

    /** Completes outside the monitor: the futures' completion chains run here and may take long. */
    private static void complete(CompletableFuture<PutMessageStatus>[] released, PutMessageStatus status) {
        if (released != null) {
            for (CompletableFuture<PutMessageStatus> f : released) {
                f.complete(status);
            }
        }
    }

    /**
     * Times out the oldest waiters. Deadlines grow with the offsets (a put waits right after its append), so only the
     * head is looked at and the watcher sleeps until its deadline: scanning every waiter every few milliseconds cost
     * 2-3 µs of CPU per put with 1 024 puts waiting. Where a put's thread was held up between its append and its
     * wait, a later put behind it times out as late as that delay, never earlier.
     */
    private void watch() {
        while (!stopped) {
            long left;
            CompletableFuture<PutMessageStatus>[] late = null;
            synchronized (this) {
                if (size == 0) {
                    left = -1;
                } else {
                    long now = System.nanoTime();
                    int mask = offsets.length - 1;
                    int n = 0;
                    while (n < size && deadlines[(head + n) & mask] - now <= 0) {
                        n++;
                    }
                    late = takeHead(n);
                    left = size == 0 ? -1 : Math.max(1, deadlines[head] - now);
                }
            }
            complete(late, PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
            if (left < 0) {
                watcherIdle = true;
                if (size == 0 && !stopped) {
                    LockSupport.park(this);
                }
                watcherIdle = false;
            } else {
                LockSupport.parkNanos(this, Math.min(left, MAX_WATCH_SLEEP_NANOS));
            }
        }
    }

    /** Stops the watcher and completes every waiting put {@code FLUSH_SLAVE_TIMEOUT}. */
    void shutdown() {
        CompletableFuture<PutMessageStatus>[] all;
        synchronized (this) {
            stopped = true;
            all = takeHead(size);
        }
        LockSupport.unpark(watcher);
        complete(all, PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
        try {
            watcher.join(5_000);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }
}
