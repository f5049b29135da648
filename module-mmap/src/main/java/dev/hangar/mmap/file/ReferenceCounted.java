package dev.hangar.mmap.file;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A resource that is cleaned up (unmapped) only once nobody uses it: it starts with one reference, its own;
 * readers {@link #hold()} and {@link #release()}; {@link #shutdown(long)} drops the own reference, and when the
 * count reaches zero {@link #cleanup(long)} runs. Cleanup never runs while a reader holds the resource: unmapping
 * under a reader would crash the JVM on its next access. A reader that holds on for more than
 * {@code intervalForcibly} after the first shutdown makes the resource {@link #isOverdue() overdue} instead, which
 * lets the owner delete the file from the disk while the mapping stays until the last reader lets go.
 *
 * <p>Thread-safe: every method may be called from any thread; {@link #cleanup(long)} runs under this object's
 * monitor and may run more than once, so it must be idempotent.
 */
public abstract class ReferenceCounted {
    private final AtomicLong refCount = new AtomicLong(1);
    private volatile boolean available = true;
    private volatile boolean cleanupOver;
    private volatile long firstShutdownTimestamp;
    private volatile boolean overdue;

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
     * The first call makes the resource unavailable and drops its own reference; a later call made once
     * {@code intervalForcibly} ms have passed since the first, while readers still hold it, marks it overdue.
     */
    public synchronized void shutdown(long intervalForcibly) {
        if (available) {
            available = false;
            firstShutdownTimestamp = System.currentTimeMillis();
            release();
        } else if (refCount.get() > 0
                && System.currentTimeMillis() - firstShutdownTimestamp >= intervalForcibly) {
            overdue = true;
        }
    }

    /** Shut down, still held by a reader, and for longer than the interval given to {@link #shutdown(long)}. */
    public boolean isOverdue() {
        return overdue && refCount.get() > 0;
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
