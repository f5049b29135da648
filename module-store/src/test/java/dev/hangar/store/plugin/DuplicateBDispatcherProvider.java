package dev.hangar.store.plugin;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatcherContext;

/** One of two test providers sharing the name "test-duplicate": selecting it must fail, naming both. */
public final class DuplicateBDispatcherProvider implements CommitLogDispatcherProvider {
    @Override
    public String name() {
        return "test-duplicate";
    }

    @Override
    public CommitLogDispatcher create(DispatcherContext context) {
        throw new AssertionError("a duplicate provider must never be created");
    }
}
