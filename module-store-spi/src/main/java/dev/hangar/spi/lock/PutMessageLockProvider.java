package dev.hangar.spi.lock;

import dev.hangar.spi.NamedProvider;
import dev.hangar.spi.config.StoreConfig;

/** Provides a {@link PutMessageLock}; selected by {@code putMessageLock}. Built-ins: {@code spin}, {@code reentrant}. */
public interface PutMessageLockProvider extends NamedProvider {

    /** A new lock, one per CommitLog. */
    PutMessageLock create(StoreConfig config);
}
