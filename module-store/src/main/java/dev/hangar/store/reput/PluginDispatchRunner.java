package dev.hangar.store.reput;

import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.dispatch.DispatcherChain;
import dev.hangar.store.format.DispatchRecordView;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One third-party dispatcher on a thread and CommitLog cursor of its own, starting at the plugin's durable offset.
 * It follows the same visible end as the built-in dispatch (the flushed end under sync flush), never holds anyone
 * up, and catches up at its own pace. Stops for good once the plugin is disabled.
 *
 * <p>Thread-safety: {@link #start}, {@link #stop} from the store's lifecycle thread; the rest from any thread.
 */
final class PluginDispatchRunner implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(PluginDispatchRunner.class);
    /** Idle wait when caught up; new data wakes the thread sooner (see {@link #wakeup()}). */
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** After an unexpected failure of the loop itself, before trying again. */
    private static final long RETRY_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final DispatcherChain chain;
    private final DispatcherChain.Entry entry;
    private final CommitLogCursor cursor;
    private final LongSupplier visibleEnd;
    private final Consumer<DispatchRecordView> prepare;
    /** Records handed to the plugin since its last batch end (this runner's thread only). */
    private int recordsInBatch;
    private volatile boolean stopped;
    private volatile boolean sleeping;
    private volatile Thread thread;

    PluginDispatchRunner(DispatcherChain chain, DispatcherChain.Entry entry, CommitLog commitLog, long from,
                         LongSupplier visibleEnd, Consumer<DispatchRecordView> prepare) {
        this.chain = chain;
        this.entry = entry;
        this.cursor = new CommitLogCursor(commitLog, "plugin dispatcher " + entry.name(), from);
        this.visibleEnd = visibleEnd;
        this.prepare = prepare;
    }

    String name() {
        return entry.name();
    }

    void start() {
        Thread t = new Thread(this, "hangar-plugin-" + entry.name());
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** Commit-log offset of the next record this plugin gets. */
    long offset() {
        return cursor.offset();
    }

    /** Bytes visible to readers that this plugin has not been handed yet. */
    long lagBytes() {
        return Math.max(0, visibleEnd.getAsLong() - cursor.offset());
    }

    long skippedBytes() {
        return cursor.skippedBytes();
    }

    boolean isDisabled() {
        return chain.isDisabled(entry);
    }

    void wakeup() {
        if (sleeping) {
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** Lets the plugin catch up for at most {@code waitMillis}, then stops its thread. */
    void stop(long waitMillis) {
        long deadline = System.currentTimeMillis() + waitMillis;
        Thread t = thread;
        while (lagBytes() > 0 && !isDisabled() && t != null && t.isAlive() && System.currentTimeMillis() < deadline) {
            wakeup();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        if (lagBytes() > 0 && !isDisabled()) {
            LOG.warn("plugin dispatcher {} stops {} bytes behind; it resumes from its durable offset at the next start",
                    entry.name(), lagBytes());
        }
        stopped = true;
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(Math.max(1, deadline - System.currentTimeMillis()) + 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void run() {
        while (!stopped && !isDisabled()) {
            try {
                long progress;
                try {
                    progress = cursor.advance(visibleEnd, this::deliver, () -> stopped || isDisabled());
                } finally {
                    recordsInBatch = 0;
                    chain.endBatchOfPlugin(entry);
                }
                if (progress == 0) {
                    sleeping = true;
                    if (lagBytes() == 0 && !stopped) {
                        LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                    }
                    sleeping = false;
                }
            } catch (RuntimeException e) {
                LOG.error("plugin dispatcher {}: reading the commit log failed at {}; retrying", entry.name(),
                        cursor.offset(), e);
                LockSupport.parkNanos(RETRY_PARK_NANOS);
            }
        }
    }

    /** The view is this runner's own (its cursor's): never the reput thread's. */
    private void deliver(DispatchRecordView request) {
        prepare.accept(request);
        chain.dispatchToPlugin(entry, request);
        if (++recordsInBatch >= DispatcherChain.MAX_BATCH_RECORDS) {
            recordsInBatch = 0;
            chain.endBatchOfPlugin(entry);
        }
    }
}
