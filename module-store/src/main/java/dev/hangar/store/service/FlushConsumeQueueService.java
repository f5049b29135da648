package dev.hangar.store.service;

import dev.hangar.store.dispatch.DispatcherChain;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flushes what the dispatchers built (ConsumeQueues, index) every {@code flushIntervalConsumeQueue} ms, and on a
 * thorough round (every {@code flushConsumeQueueThoroughInterval} ms, and at shutdown) writes the checkpoint with
 * the logics timestamp captured before the flush - so the checkpoint never claims more than is on disk.
 */
public final class FlushConsumeQueueService implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(FlushConsumeQueueService.class);

    private final DispatcherChain dispatchers;
    private final StoreCheckpoint checkpoint;
    private final int intervalMillis;
    private final int leastPages;
    private final int thoroughIntervalMillis;
    private volatile boolean stopped;
    private Thread thread;
    private long lastThorough = System.currentTimeMillis();

    public FlushConsumeQueueService(DispatcherChain dispatchers, StoreCheckpoint checkpoint, int intervalMillis,
                                    int leastPages, int thoroughIntervalMillis) {
        this.dispatchers = dispatchers;
        this.checkpoint = checkpoint;
        this.intervalMillis = intervalMillis;
        this.leastPages = leastPages;
        this.thoroughIntervalMillis = thoroughIntervalMillis;
    }

    public void start() {
        thread = new Thread(this, "hangar-flush-consumequeue");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        while (!stopped) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(intervalMillis));
            if (stopped) {
                break;
            }
            try {
                long now = System.currentTimeMillis();
                boolean thorough = now - lastThorough >= thoroughIntervalMillis;
                if (thorough) {
                    lastThorough = now;
                }
                flushOnce(thorough ? 0 : leastPages, thorough);
            } catch (RuntimeException e) {
                LOG.error("flushing the consume queues failed", e);
            }
        }
    }

    /** Flushes the dispatchers; when {@code withCheckpoint}, then the checkpoint. */
    public void flushOnce(int pages, boolean withCheckpoint) {
        long logics = checkpoint.logicsMsgTimestamp();
        dispatchers.flush(pages);
        if (withCheckpoint) {
            checkpoint.flushWith(logics);
        }
    }

    /**
     * Stops the thread and flushes everything, checkpoint included. A failing flush writes no checkpoint and is
     * logged, not thrown: the dispatchers raised their write-error flag, so the store closes on and keeps its
     * abort file (the next start recovers from the last checkpoint).
     */
    public void shutdown() {
        stopped = true;
        if (thread != null) {
            LockSupport.unpark(thread);
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            flushOnce(0, true);
        } catch (RuntimeException e) {
            LOG.error("the last flush of the consume queues failed; no checkpoint written", e);
        }
    }
}
