package dev.hangar.store.plugin;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.DispatcherContext;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A built-in dispatcher for tests ("test-gated-built-in": the store's reads depend on it, so it is fed by the reput
 * loop, not a plugin thread) whose {@code dispatch} waits while {@link #close()} holds it shut: it makes one dispatch
 * thread fall behind the others on purpose.
 */
public final class GatedBuiltInDispatcherProvider implements CommitLogDispatcherProvider {
    public static final String NAME = "test-gated-built-in";
    private static volatile boolean shut;
    private static volatile long dispatched;

    /** From now on every dispatch waits until {@link #open()}. */
    public static void close() {
        shut = true;
    }

    public static void open() {
        shut = false;
    }

    /** Records this dispatcher has taken since the JVM started. */
    public static long dispatched() {
        return dispatched;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean storeReadsDependOnIt() {
        return true;
    }

    @Override
    public CommitLogDispatcher create(DispatcherContext context) {
        return new CommitLogDispatcher() {
            @Override
            public void dispatch(DispatchRequest request) {
                while (shut) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
                dispatched++;
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
