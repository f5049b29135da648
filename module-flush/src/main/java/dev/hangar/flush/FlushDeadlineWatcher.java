package dev.hangar.flush;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes sync-flush waiters still waiting at their deadline with {@code FLUSH_DISK_TIMEOUT}. It runs on its own
 * thread so that a force that hangs (a dying disk) cannot hold puts past {@code syncFlushTimeout}.
 *
 * <p>Each sweep removes the overdue waiters of the {@link WaitingPuts} table (and any the flushed position covers,
 * {@code PUT_OK}), then sleeps until the earliest deadline left, at most {@link #MAX_TICK_MILLIS}. Cost per put:
 * nothing; it shares the table the flush thread releases from.
 *
 * <p>Thread-safety: {@link #start} and {@link #stop} once each, from the service's lifecycle thread.
 */
final class FlushDeadlineWatcher {
    static final String THREAD_NAME = "hangar-flush-deadline";
    static final long MAX_TICK_MILLIS = 50;

    private static final Logger LOG = LoggerFactory.getLogger(FlushDeadlineWatcher.class);

    private final WaitingPuts waiting;
    private final LongSupplier flushedWhere;
    private final WaitingPuts.Batch expired = new WaitingPuts.Batch();
    private final ServiceWorker worker = new ServiceWorker(THREAD_NAME, this::run);
    private final long timeoutMillis;

    FlushDeadlineWatcher(WaitingPuts waiting, LongSupplier flushedWhere, long timeoutMillis) {
        this.waiting = waiting;
        this.flushedWhere = flushedWhere;
        this.timeoutMillis = timeoutMillis;
    }

    void start() {
        worker.start();
    }

    void stop(long joinMillis) {
        worker.stop();
        worker.join(joinMillis);
    }

    private void run() {
        while (!worker.isStopping()) {
            long now = System.nanoTime();
            long earliest = waiting.sweep(flushedWhere.getAsLong(), now, false, expired);
            int removed = expired.size();
            int ok = expired.tell();
            if (removed > ok) {
                LOG.warn("{} sync flush request(s) not durable within syncFlushTimeout={} ms: FLUSH_DISK_TIMEOUT",
                        removed - ok, timeoutMillis);
            }
            long sleepMillis = MAX_TICK_MILLIS;
            if (earliest != Long.MAX_VALUE) {
                sleepMillis = Math.min(sleepMillis, Math.max(1, TimeUnit.NANOSECONDS.toMillis(earliest - now)));
            }
            worker.await(sleepMillis, false);
        }
    }
}
