package dev.hangar.store.plugin;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.DispatcherContext;

/** A broken third-party dispatcher for tests: every dispatch throws ("test-throwing"). */
public final class ThrowingDispatcherProvider implements CommitLogDispatcherProvider {
    @Override
    public String name() {
        return "test-throwing";
    }

    @Override
    public CommitLogDispatcher create(DispatcherContext context) {
        return new CommitLogDispatcher() {
            @Override
            public void dispatch(DispatchRequest request) {
                throw new IllegalStateException("this plugin is broken on purpose");
            }

            @Override
            public long durableOffset() {
                return Long.MAX_VALUE;
            }

            @Override
            public void truncate(long commitLogOffset) {
            }
        };
    }
}
