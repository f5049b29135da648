package dev.hangar.mmap.file;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A resource that is cleaned up (unmapped) only once nobody uses it: it starts with one reference, its own;
 * readers {@link #hold()} and {@link #release()}; {@link #shutdown(long)} drops the own reference, and when the
 * count reaches zero {@link #cleanup(long)} runs. A reader that never releases is overruled once
 * {@code intervalForcibly} has passed since the first shutdown.
 *
 * <p>Thread-safe: every method may be called from any thread; {@link #cleanup(long)} runs under this object's
 * monitor and may run more than once (late releases after a forced cleanup), so it must be idempotent.
 */
public abstract class ReferenceCounted {
    /**
     * A forced cleanup moves the count this far below zero, so releases by readers that still held the resource
     * keep it negative instead of making it look held again.
     */
    private static final long FORCED_RELEASE_BIAS = -1000;

    private final AtomicLong refCount = new AtomicLong(1);
    private volatile boolean available = true;
    private volatile boolean cleanupOver;
    private volatile long firstShutdownTimestamp;

    /** Takes a reference; false once shut down or cleaned up. */
    public boolean hold() {
        while (true) {
            if (!available) {
                return false;
            }
            long current = refCount.get();
            if (current <= 0) {
                return false;
            }
            if (refCount.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /** Gives a reference back; the last one triggers the cleanup. */
    public void release() {
        long value = refCount.decrementAndGet();
        if (value > 0) {
            return;
        }
        synchronized (this) {
            cleanupOver = cleanup(value);
        }
    }

    /**
     * The first call makes the resource unavailable and drops its own reference; later calls force the cleanup
     * once {@code intervalForcibly} ms have passed since the first while readers still hold it.
     */
    public synchronized void shutdown(long intervalForcibly) {
        if (available) {
            available = false;
            firstShutdownTimestamp = System.currentTimeMillis();
            release();
        } else if (refCount.get() > 0
                && System.currentTimeMillis() - firstShutdownTimestamp >= intervalForcibly) {
            refCount.set(FORCED_RELEASE_BIAS - refCount.get());
            release();
        }
    }

    public boolean isAvailable() {
        return available;
    }

    /** True once the count reached zero and the cleanup succeeded. */
    public boolean isCleanupOver() {
        return refCount.get() <= 0 && cleanupOver;
    }

    /** The current reference count (for diagnostics and tests). */
    public long refCount() {
        return refCount.get();
    }

    /**
     * Frees the resource. Called under this object's monitor whenever the count drops to zero or below.
     *
     * @return true when the resource is (now or already) freed
     */
    protected abstract boolean cleanup(long currentRef);
}
