package dev.hangar.bench;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.lock.PutMessageLock;
import dev.hangar.spi.lock.PutMessageLockProvider;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@code timed-reentrant}, for diagnosis only: the default reentrant put lock, counting how long each put waited to
 * get it and how long it was held, in decades (&lt; 10 µs, &lt; 100 µs, &lt; 1 ms, &lt; 10 ms, more). Printed to
 * stderr when the JVM exits, all stores of the run together. It answers whether a put's millisecond tail is the
 * holder being slow (a hold that long: descheduled or faulting with the lock) or the waiters' way back to a CPU (a
 * wait that long behind short holds). Select it with {@code -Dbench.hangar.set=putMessageLock=timed-reentrant}.
 */
public final class TimedReentrantLockProvider implements PutMessageLockProvider {
    private static final String[] DECADES = {"<10us", "<100us", "<1ms", "<10ms", ">=10ms"};
    private static final AtomicLongArray WAITS = new AtomicLongArray(DECADES.length);
    private static final AtomicLongArray HOLDS = new AtomicLongArray(DECADES.length);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (HOLDS.get(0) + HOLDS.get(1) + HOLDS.get(2) + HOLDS.get(3) + HOLDS.get(4) > 0) {
                System.err.println("timed-reentrant put lock: waits " + render(WAITS) + "; holds " + render(HOLDS));
            }
        }, "timed-lock-report"));
    }

    @Override
    public String name() {
        return "timed-reentrant";
    }

    @Override
    public String description() {
        return "bench diagnosis: the reentrant lock, with wait and hold times counted per decade";
    }

    @Override
    public PutMessageLock create(StoreConfig config) {
        ReentrantLock lock = new ReentrantLock();
        return new PutMessageLock() {
            private long acquiredNanos;

            @Override
            public void lock() {
                long t0 = System.nanoTime();
                lock.lock();
                long t1 = System.nanoTime();
                acquiredNanos = t1;
                WAITS.incrementAndGet(decade(t1 - t0));
            }

            @Override
            public void unlock() {
                long held = System.nanoTime() - acquiredNanos;
                lock.unlock();
                HOLDS.incrementAndGet(decade(held));
            }
        };
    }

    private static int decade(long nanos) {
        return nanos < 10_000 ? 0 : nanos < 100_000 ? 1 : nanos < 1_000_000 ? 2 : nanos < 10_000_000 ? 3 : 4;
    }

    private static String render(AtomicLongArray counts) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < DECADES.length; i++) {
            b.append(i == 0 ? "" : ", ").append(DECADES[i]).append(' ').append(counts.get(i));
        }
        return b.toString();
    }
}
