package dev.hangar.spi.dispatch;

import dev.hangar.spi.NamedProvider;

/** Provides a {@link CommitLogDispatcher}; selected by name in {@code dispatchers}. Built-ins: consume-queue, index. */
public interface CommitLogDispatcherProvider extends NamedProvider {

    CommitLogDispatcher create(DispatcherContext context);
}
