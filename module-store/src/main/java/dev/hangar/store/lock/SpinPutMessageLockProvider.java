package dev.hangar.store.lock;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.lock.PutMessageLock;
import dev.hangar.spi.lock.PutMessageLockProvider;

/** {@code spin}: a pure CAS spin lock with {@code Thread.onSpinWait()}, as RocketMQ's spin lock. */
public final class SpinPutMessageLockProvider implements PutMessageLockProvider {
    @Override
    public String name() {
        return "spin";
    }

    @Override
    public String description() {
        return "pure CAS spin lock with onSpinWait (as RocketMQ's); best with no more writers than cores";
    }

    @Override
    public PutMessageLock create(StoreConfig config) {
        return new SpinPutMessageLock();
    }
}
