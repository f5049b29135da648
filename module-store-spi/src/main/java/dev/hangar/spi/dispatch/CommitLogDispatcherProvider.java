package dev.hangar.spi.dispatch;

import dev.hangar.spi.NamedProvider;

/** Provides a {@link CommitLogDispatcher}; selected by name in {@code dispatchers}. Built-ins: consume-queue, index. */
public interface CommitLogDispatcherProvider extends NamedProvider {

    CommitLogDispatcher create(DispatcherContext context);

    /**
     * Checks this dispatcher's files offline for {@code store-launcher verify}, read-only, reporting what it finds
     * to {@code verification} (an unreadable file is a finding, not an exception). Runs without {@link #create}:
     * no dispatcher is built and the store is not opened. The default checks nothing.
     */
    default void verify(DispatcherVerification verification) {
    }
}
