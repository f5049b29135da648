package dev.hangar.flush;

import dev.hangar.spi.store.PutMessageStatus;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes sync-flush requests still waiting at their deadline with {@code FLUSH_DISK_TIMEOUT}. It runs on
 * its own thread so that a force that hangs (a dying disk) cannot hold puts past {@code syncFlushTimeout}.
 *
 * <p>Requests are watched in arrival order, which is deadline order (one timeout for all, give or take the
 * scheduling of the put threads), so a sweep only looks at the head: it drops requests already done and
 * expires overdue ones, then sleeps until the head's deadline, at most {@link #MAX_TICK_MILLIS} so that done
 * requests do not pile up. Cost per put: one queue insert.
 *
 * <p>Thread-safety: {@link #watch} from any thread; the queue is polled only by the watcher thread.
 */
final class FlushDeadlineWatcher {
    static final String THREAD_NAME = "hangar-flush-deadline";
    static final long MAX_TICK_MILLIS = 50;

    private static final Logger LOG = LoggerFactory.getLogger(FlushDeadlineWatcher.class);

    private final ConcurrentLinkedQueue<FlushRequest> watched = new ConcurrentLinkedQueue<>();
    private final ServiceWorker worker = new ServiceWorker(THREAD_NAME, this::run);
    private final long timeoutMillis;

    FlushDeadlineWatcher(long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    void watch(FlushRequest request) {
        watched.add(request);
    }

    void start() {
        worker.start();
    }

    void stop(long joinMillis) {
        worker.stop();
        worker.join(joinMillis);
    }

    /** At shutdown: completes every request still waiting, PUT_OK if covered by {@code flushedWhere}, else timeout. */
    int completeRemaining(LongSupplier flushedWhere) {
        int completed = 0;
        long flushed = flushedWhere.getAsLong();
        // Iterate, not poll: a watcher thread that failed to stop may still be polling.
        for (FlushRequest request : watched) {
            if (request.complete(request.isCoveredBy(flushed)
                    ? PutMessageStatus.PUT_OK : PutMessageStatus.FLUSH_DISK_TIMEOUT)) {
                completed++;
            }
        }
        watched.clear();
        return completed;
    }

    private void run() {
        while (!worker.isStopping()) {
            long sleepNanos = sweep(System.nanoTime());
            worker.await(Math.max(1, TimeUnit.NANOSECONDS.toMillis(sleepNanos)), false);
        }
    }

    /** Returns how long to sleep before the next sweep. */
    private long sweep(long now) {
        int expired = 0;
        long sleepNanos = TimeUnit.MILLISECONDS.toNanos(MAX_TICK_MILLIS);
        for (FlushRequest head = watched.peek(); head != null; head = watched.peek()) {
            if (!head.isDone()) {
                long remaining = head.deadlineNanos() - now;
                if (remaining > 0) {
                    sleepNanos = Math.min(sleepNanos, remaining);
                    break;
                }
                if (head.complete(PutMessageStatus.FLUSH_DISK_TIMEOUT)) {
                    expired++;
                }
            }
            watched.poll();
        }
        if (expired > 0) {
            LOG.warn("{} sync flush request(s) not durable within syncFlushTimeout={} ms: FLUSH_DISK_TIMEOUT",
                    expired, timeoutMillis);
        }
        return sleepNanos;
    }
}
