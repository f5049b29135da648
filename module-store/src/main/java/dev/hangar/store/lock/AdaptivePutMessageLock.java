package dev.hangar.store.lock;

import dev.hangar.spi.lock.PutMessageLock;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@code adaptive} lock: a test-and-test-and-set spin lock with {@link Thread#onSpinWait()}; after a bounded
 * number of spins a waiter yields, then parks for a microsecond: with more threads than cores a pure spin lock
 * ({@link SpinPutMessageLock}) lets waiters burn the time slice the holder needs (RocketMQ's spin lock collapses to
 * a fifth of its reentrant lock there).
 */
final class AdaptivePutMessageLock implements PutMessageLock {
    private static final int SPINS_BEFORE_YIELD = 128;
    private static final int YIELDS_BEFORE_PARK = 16;
    private final AtomicBoolean held = new AtomicBoolean();

    @Override
    public void lock() {
        int spins = 0;
        while (true) {
            if (!held.get() && held.compareAndSet(false, true)) {
                return;
            }
            spins++;
            if (spins < SPINS_BEFORE_YIELD) {
                Thread.onSpinWait();
            } else if (spins < SPINS_BEFORE_YIELD + YIELDS_BEFORE_PARK) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(1_000);
            }
        }
    }

    @Override
    public void unlock() {
        held.set(false);
    }
}
