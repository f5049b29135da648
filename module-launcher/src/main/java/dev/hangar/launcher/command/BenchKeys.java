package dev.hangar.launcher.command;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The unique keys of a {@code bench} run, {@code <prefix><n>} for message {@code n}, built off the put threads so
 * that the put loop measures the store's put and not the bench's string building (a third of the put thread's
 * profile when each put built its own key).
 *
 * <p>The keys live in a ring of {@link #BLOCK}-key blocks. {@link #prefill()} builds as many as the ring holds
 * before the clock starts: a run of up to {@link #capacity()} messages (2 Mi keys, ~130 MB, with a heap of 4 GiB or
 * more) builds none while it is timed. A longer or unbounded run gets a producer thread, {@code bench-keys}, that
 * refills a block once every put thread has moved past it; its CPU time is reported ({@link #producerCpuNanos()}).
 * A put thread that finds its key not yet built waits for it, and that wait counts as the bench's own time.
 *
 * <p>Each put thread says which message it is on with {@link #taking}; chunks are claimed in increasing order, so
 * the smallest of those values bounds every key still to be read. The key strings are built without their hash
 * computed: hashing a key is the store's work, as it is for a key that arrives from the network.
 *
 * <p>Thread-safe for one producer (this class) and the put threads registered at construction.
 */
final class BenchKeys implements AutoCloseable {
    /** Keys per block: the unit the producer refills. */
    static final int BLOCK = 1 << 14;
    /** The most keys the ring holds: 2 Mi (128 blocks), the 2 000 000-message run whole. */
    static final int MAX_CAPACITY = 1 << 21;
    /** Spacing of the put threads' positions in {@link #taking}, in longs: one 128-byte line each. */
    private static final int STRIDE = 16;

    private final String prefix;
    private final long total;
    private final String[][] ring;
    private final AtomicLongArray taking;
    private final int threads;
    /** Keys {@code [0, produced)} are built; a block is published whole. */
    private volatile long produced;
    private volatile boolean closed;
    private volatile long producerCpuNanos;
    private Thread producer;

    /**
     * @param total    keys the run needs, or {@link Long#MAX_VALUE} for a run bounded by time
     * @param capacity the most keys to hold at once; rounded to whole blocks, at least two
     * @param threads  put threads that read keys (each with its index in {@link #taking})
     */
    BenchKeys(String prefix, long total, int capacity, int threads) {
        this.prefix = prefix;
        this.total = total;
        long needed = Math.min(total, Math.max(capacity, 2L * BLOCK));
        int blocks = (int) Math.max(total > needed ? 2 : 1, (needed + BLOCK - 1) / BLOCK);
        this.ring = new String[blocks][];
        this.threads = threads;
        this.taking = new AtomicLongArray(threads * STRIDE);
    }

    /** The ring size for a run on a heap of {@code maxHeapBytes}: 1/32 of the heap at ~64 B per key, at most 2 Mi. */
    static int capacityFor(long maxHeapBytes) {
        long keys = maxHeapBytes / 32 / 64;
        return (int) Math.max(2L * BLOCK, Math.min(MAX_CAPACITY, keys));
    }

    /** How many keys the ring holds. */
    long capacity() {
        return (long) ring.length * BLOCK;
    }

    /**
     * Builds as many keys as the ring holds (all of them for a run that fits) on the calling thread, then starts
     * the producer thread when the run needs more. Call once, before the put threads start.
     */
    void prefill() {
        while (produced < total && produced < capacity()) {
            fillNextBlock();
        }
        if (produced < total) {
            producer = new Thread(this::produce, "bench-keys");
            producer.setDaemon(true);
            producer.start();
        }
    }

    /** Keys built before the clock started by {@link #prefill()} and since by the producer. */
    long built() {
        return produced;
    }

    /** Put thread {@code thread} now reads keys from message {@code message} on. */
    void taking(int thread, long message) {
        taking.setRelease(thread * STRIDE, message);
    }

    /** Put thread {@code thread} reads no more keys. */
    void done(int thread) {
        taking.setRelease(thread * STRIDE, Long.MAX_VALUE);
    }

    /** The key of message {@code n}; waits (the bench's own time) when the producer has not built it yet. */
    String key(long n) {
        if (n >= produced) {
            awaitBuilt(n);
        }
        return ring[(int) ((n / BLOCK) % ring.length)][(int) (n % BLOCK)];
    }

    private void awaitBuilt(long n) {
        for (int spins = 0; n >= produced; spins++) {
            if (closed) {
                throw new IllegalStateException("bench keys closed");
            }
            if (spins < 1_000) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(10_000);
            }
        }
    }

    /** CPU time of the producer thread (0 when the ring held the whole run). */
    long producerCpuNanos() {
        return producerCpuNanos;
    }

    private void produce() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long cpu0 = mx.isCurrentThreadCpuTimeSupported() ? mx.getCurrentThreadCpuTime() : 0;
        while (!closed && produced < total) {
            long block = produced / BLOCK;
            // the slot still holds block - ring.length: free once every put thread is past its last key
            long freeFrom = (block - ring.length + 1) * BLOCK;
            if (block >= ring.length && lowestTaken() < freeFrom) {
                LockSupport.parkNanos(100_000);
                continue;
            }
            fillNextBlock();
            if (mx.isCurrentThreadCpuTimeSupported()) {
                producerCpuNanos = mx.getCurrentThreadCpuTime() - cpu0;
            }
        }
    }

    private long lowestTaken() {
        long min = Long.MAX_VALUE;
        for (int t = 0; t < threads; t++) {
            min = Math.min(min, taking.getAcquire(t * STRIDE));
        }
        return min;
    }

    private void fillNextBlock() {
        long first = produced;
        int slot = (int) ((first / BLOCK) % ring.length);
        String[] keys = ring[slot];
        if (keys == null) {
            keys = new String[BLOCK];
            ring[slot] = keys;
        }
        int count = (int) Math.min(BLOCK, total - first);
        for (int i = 0; i < count; i++) {
            keys[i] = prefix + (first + i);
        }
        produced = first + count; // publishes the block to the put threads
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        if (producer != null) {
            producer.join();
        }
    }
}
