package dev.hangar.store.lock;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.lock.PutMessageLock;
import dev.hangar.spi.lock.PutMessageLockProvider;

/** {@code adaptive}: CAS with {@code Thread.onSpinWait()}, backing off to yield and park under contention. */
public final class AdaptivePutMessageLockProvider implements PutMessageLockProvider {
    @Override
    public String name() {
        return "adaptive";
    }

    @Override
    public String description() {
        return "CAS spin lock with onSpinWait, backing off to yield and park under contention";
    }

    @Override
    public PutMessageLock create(StoreConfig config) {
        return new AdaptivePutMessageLock();
    }
}
