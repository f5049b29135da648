package dev.hangar.store.lock;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.lock.PutMessageLock;
import dev.hangar.spi.lock.PutMessageLockProvider;
import java.util.concurrent.locks.ReentrantLock;

/** {@code reentrant}: a non-fair {@link ReentrantLock}; waiters park. The default. */
public final class ReentrantPutMessageLockProvider implements PutMessageLockProvider {
    @Override
    public String name() {
        return "reentrant";
    }

    @Override
    public String description() {
        return "ReentrantLock: waiting threads park (default)";
    }

    @Override
    public PutMessageLock create(StoreConfig config) {
        ReentrantLock lock = new ReentrantLock();
        return new PutMessageLock() {
            @Override
            public void lock() {
                lock.lock();
            }

            @Override
            public void unlock() {
                lock.unlock();
            }
        };
    }
}
