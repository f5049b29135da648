package dev.hangar.store.plugin;

import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.DispatcherContext;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/** Third-party dispatchers that misbehave on purpose, for {@link PluginIsolationTest}. */
public final class IsolationTestPlugins {
    private IsolationTestPlugins() {
    }

    /** Counts records and remembers the next offset; the base of the plugins below. */
    abstract static class Counting implements CommitLogDispatcher {
        final AtomicLong received;
        final AtomicLong next;

        Counting(AtomicLong received, AtomicLong next) {
            this.received = received;
            this.next = next;
        }

        @Override
        public void dispatch(DispatchRequest request) {
            received.incrementAndGet();
            next.set(request.nextOffset());
        }

        @Override
        public long durableOffset() {
            return next.get();
        }

        @Override
        public void truncate(long commitLogOffset) {
        }
    }

    /** "test-slow-200us": spends at least 200 µs on every record (waiting, as on I/O, so it needs no CPU). */
    public static final class Slow implements CommitLogDispatcherProvider {
        public static final AtomicLong RECEIVED = new AtomicLong();
        public static final AtomicLong NEXT = new AtomicLong();

        @Override
        public String name() {
            return "test-slow-200us";
        }

        @Override
        public CommitLogDispatcher create(DispatcherContext context) {
            return new Counting(RECEIVED, NEXT) {
                @Override
                public void dispatch(DispatchRequest request) {
                    long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(200);
                    for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
                        LockSupport.parkNanos(left);
                    }
                    super.dispatch(request);
                }
            };
        }
    }

    /** "test-error": throws an Error on its third record. */
    public static final class ThrowsError implements CommitLogDispatcherProvider {
        public static final AtomicLong RECEIVED = new AtomicLong();

        @Override
        public String name() {
            return "test-error";
        }

        @Override
        public CommitLogDispatcher create(DispatcherContext context) {
            return new Counting(RECEIVED, new AtomicLong()) {
                @Override
                public void dispatch(DispatchRequest request) {
                    if (received.get() == 2) {
                        throw new LinkageError("plugin class missing on purpose");
                    }
                    super.dispatch(request);
                }
            };
        }
    }

    /** "test-failing-load": load() throws. */
    public static final class FailingLoad implements CommitLogDispatcherProvider {
        public static final AtomicLong RECEIVED = new AtomicLong();

        @Override
        public String name() {
            return "test-failing-load";
        }

        @Override
        public CommitLogDispatcher create(DispatcherContext context) {
            return new Counting(RECEIVED, new AtomicLong()) {
                @Override
                public void load() {
                    throw new IllegalStateException("cannot open my files on purpose");
                }
            };
        }
    }

    /** "test-throwing-offset": durableOffset() throws. */
    public static final class ThrowingOffset implements CommitLogDispatcherProvider {
        public static final AtomicLong RECEIVED = new AtomicLong();

        @Override
        public String name() {
            return "test-throwing-offset";
        }

        @Override
        public CommitLogDispatcher create(DispatcherContext context) {
            return new Counting(RECEIVED, new AtomicLong()) {
                @Override
                public long durableOffset() {
                    throw new IllegalStateException("my offset file is unreadable on purpose");
                }
            };
        }
    }

    /** "test-resuming": reports DURABLE as its durable offset, so a restart shows where its cursor starts. */
    public static final class Resuming implements CommitLogDispatcherProvider {
        public static final AtomicLong RECEIVED = new AtomicLong();
        public static final AtomicLong FIRST_OFFSET = new AtomicLong(-1);
        public static final AtomicLong DURABLE = new AtomicLong();

        @Override
        public String name() {
            return "test-resuming";
        }

        @Override
        public CommitLogDispatcher create(DispatcherContext context) {
            return new Counting(RECEIVED, new AtomicLong()) {
                @Override
                public void dispatch(DispatchRequest request) {
                    FIRST_OFFSET.compareAndSet(-1, request.commitLogOffset());
                    super.dispatch(request);
                }

                @Override
                public long durableOffset() {
                    return DURABLE.get();
                }
            };
        }
    }

    /** "test-stalled": blocks in dispatch until RELEASE opens. */
    public static final class Stalled implements CommitLogDispatcherProvider {
        public static final AtomicLong RECEIVED = new AtomicLong();
        public static volatile CountDownLatch release = new CountDownLatch(1);

        @Override
        public String name() {
            return "test-stalled";
        }

        @Override
        public CommitLogDispatcher create(DispatcherContext context) {
            return new Counting(RECEIVED, new AtomicLong()) {
                @Override
                public void dispatch(DispatchRequest request) {
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    super.dispatch(request);
                }
            };
        }
    }
}
