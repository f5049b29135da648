package dev.hangar.spi.flush;

import dev.hangar.spi.store.PutMessageStatus;

/**
 * A put waiting for its bytes to be durable, as {@link FlushCommitLogService#awaitFlush} takes it: the service keeps
 * the waiter with its end offset and tells it once, when a force covers that offset or its deadline passed. The
 * engine passes an object it needs anyway (the future an async put returns, a blocked thread's reusable slot), so a
 * sync put costs the flush service no object of its own.
 */
@FunctionalInterface
public interface FlushWaiter {

    /**
     * Called exactly once per {@link FlushCommitLogService#awaitFlush} that returned null: {@code PUT_OK} once the
     * flushed position covers the put, else {@code FLUSH_DISK_TIMEOUT}. It runs on a flush-service thread (the flush
     * thread, the deadline watcher, or the thread shutting the service down) and the next force waits for it: it
     * must be quick and must not block.
     */
    void flushed(PutMessageStatus status);
}
