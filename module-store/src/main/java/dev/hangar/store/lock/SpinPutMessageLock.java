package dev.hangar.store.lock;

import dev.hangar.spi.lock.PutMessageLock;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@code spin} lock: a pure test-and-test-and-set spin lock with {@link Thread#onSpinWait()}, as RocketMQ's
 * {@code PutMessageSpinLock}. Fastest with no more writers than cores; with more, waiters burn the time slice
 * the holder needs, which is what {@link AdaptivePutMessageLock} avoids.
 */
final class SpinPutMessageLock implements PutMessageLock {
    private final AtomicBoolean held = new AtomicBoolean();

    @Override
    public void lock() {
        while (held.get() || !held.compareAndSet(false, true)) {
            Thread.onSpinWait();
        }
    }

    @Override
    public void unlock() {
        held.set(false);
    }
}
