package dev.hangar.store.plugin;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.DispatcherContext;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** A slow third-party dispatcher for tests: half a millisecond per record ("test-slow"). */
public final class SlowDispatcherProvider implements CommitLogDispatcherProvider {
    @Override
    public String name() {
        return "test-slow";
    }

    @Override
    public CommitLogDispatcher create(DispatcherContext context) {
        return new CommitLogDispatcher() {
            @Override
            public void dispatch(DispatchRequest request) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500));
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
