package dev.hangar.store.put;

import dev.hangar.spi.flush.FlushWaiter;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.concurrent.locks.LockSupport;

/**
 * How a blocking put waits for its flush without an object per put: each put thread has one slot, which it passes
 * to the flush service and parks on until the service tells it. A slot given up (timeout, interrupt) is dropped, so
 * a late answer for an abandoned put can never be taken for the next put's.
 *
 * <p>Thread-safety: {@link #forCurrentThread}, {@link #await} only by the owning thread; {@link #flushed} by the
 * flush service's thread, once per registration.
 */
public final class BlockingFlushWait implements FlushWaiter {
    private static final ThreadLocal<BlockingFlushWait> CURRENT = ThreadLocal.withInitial(BlockingFlushWait::new);

    private final Thread owner = Thread.currentThread();
    private volatile PutMessageStatus status;

    private BlockingFlushWait() {
    }

    /** The calling thread's slot, cleared for a new put. */
    public static BlockingFlushWait forCurrentThread() {
        BlockingFlushWait slot = CURRENT.get();
        slot.status = null;
        return slot;
    }

    @Override
    public void flushed(PutMessageStatus s) {
        status = s;
        LockSupport.unpark(owner);
    }

    /**
     * Parks until told, at most {@code timeoutNanos}. Returns the status, or null when the time ran out or the thread
     * was interrupted (its interrupt flag stays set); the slot is then abandoned.
     */
    public PutMessageStatus await(long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        PutMessageStatus s;
        while ((s = status) == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                CURRENT.remove();
                return null;
            }
            LockSupport.parkNanos(this, left);
        }
        return s;
    }
}
