package dev.hangar.spi.dispatch;

import dev.hangar.spi.NamedProvider;

/** Provides a {@link CommitLogDispatcher}; selected by name in {@code dispatchers}. Built-ins: consume-queue, index. */
public interface CommitLogDispatcherProvider extends NamedProvider {

    CommitLogDispatcher create(DispatcherContext context);

    /**
     * True when the store's own reads depend on this dispatcher (as they do on the ConsumeQueue and the key index):
     * it is then called on the reput thread, in order, before a record counts as dispatched; the reput loop resumes
     * from its {@code durableOffset()}; the writers' back-pressure waits for it; and its failure marks the store not
     * writable, as RocketMQ does. False (the default, right for every plugin): it runs on a thread and cursor of its
     * own, never slows the writes, and a failure is counted and disables only this dispatcher.
     */
    default boolean storeReadsDependOnIt() {
        return false;
    }

    /**
     * Checks this dispatcher's files offline for {@code store-launcher verify}, read-only, reporting what it finds
     * to {@code verification} (an unreadable file is a finding, not an exception). Runs without {@link #create}:
     * no dispatcher is built and the store is not opened. The default checks nothing.
     */
    default void verify(DispatcherVerification verification) {
    }
}
