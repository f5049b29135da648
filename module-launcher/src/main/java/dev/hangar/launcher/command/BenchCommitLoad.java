package dev.hangar.launcher.command;

import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.OffsetCommitResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code bench --commit-groups N}: consumer groups committing while the puts run, as consumers of a busy store do.
 * Group {@code g} commits, every {@code intervalMillis} (0: back to back), the current end of queue {@code g % queues}
 * of the first bench topic; up to 16 threads share the groups. Commits before the queue exists (the first puts are not
 * dispatched yet) are not counted. Started before the puts, stopped after them.
 *
 * <p>Thread-safe: {@link #stop()} from the bench thread.
 */
final class BenchCommitLoad {
    private static final int MAX_THREADS = 16;

    private final MessageStore store;
    private final String topic;
    private final int queues;
    private final int groups;
    private final long intervalNanos;
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopped;
    private long startNanos;
    private long endNanos;
    private volatile String firstFailure;

    BenchCommitLoad(MessageStore store, String topic, int queues, int groups, long intervalMillis) {
        this.store = store;
        this.topic = topic;
        this.queues = queues;
        this.groups = groups;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
    }

    void start() {
        startNanos = System.nanoTime();
        int n = Math.min(MAX_THREADS, groups);
        for (int t = 0; t < n; t++) {
            int first = t;
            Thread th = new Thread(() -> run(first, n), "bench-commits-" + t);
            th.setDaemon(true);
            threads.add(th);
            th.start();
        }
    }

    /** Commits for groups first, first + step, ...: each on its own schedule. */
    private void run(int first, int step) {
        List<Integer> mine = new ArrayList<>();
        for (int g = first; g < groups; g += step) {
            mine.add(g);
        }
        long next = System.nanoTime();
        while (!stopped) {
            for (int g : mine) {
                int queue = g % queues;
                long end = store.getMaxOffsetInQueue(topic, queue);
                if (end == 0) {
                    continue;
                }
                OffsetCommitResult r = store.consumerOffsets().commit("bench-group-" + g, topic, queue, end);
                if (r.isCommitted()) {
                    committed.incrementAndGet();
                } else {
                    failed.incrementAndGet();
                    if (firstFailure == null) {
                        firstFailure = r.outcome() + ": " + r.reason();
                    }
                }
            }
            if (intervalNanos > 0) {
                next += intervalNanos;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
        }
    }

    void stop() throws InterruptedException {
        stopped = true;
        for (Thread t : threads) {
            t.join(30_000);
        }
        endNanos = System.nanoTime();
    }

    /** One line: groups, interval, commits done, commits per second, failures. */
    String summary() {
        double seconds = Math.max(1e-9, (endNanos - startNanos) / 1e9);
        return String.format("commit load: %d groups every %d ms, %d commits (%.0f commits/s), %d failed%s", groups,
                TimeUnit.NANOSECONDS.toMillis(intervalNanos), committed.get(), committed.get() / seconds, failed.get(),
                firstFailure == null ? "" : " (first: " + firstFailure + ")");
    }
}
