package dev.hangar.spi.flush;

import dev.hangar.spi.store.PutMessageStatus;
import java.util.concurrent.CompletableFuture;

/**
 * Drives the CommitLog to disk.
 *
 * <p>Contract:
 * <ul>
 *   <li>The engine calls {@link #start()} once after recovery and {@link #shutdown()} once at the end;
 *       shutdown flushes (and commits) everything, retrying, completes every pending request, and returns.</li>
 *   <li>{@link #handle(long, boolean)} is called by put threads right after their append, outside the put lock.
 *       It must not block. The returned future completes {@code PUT_OK} once the flushed position is at or past
 *       {@code nextOffset} (sync flush and {@code waitForFlush}); {@code FLUSH_DISK_TIMEOUT} after the
 *       {@code syncFlushTimeout} deadline; an async service completes it at once after waking its thread.</li>
 *   <li>A failed force never advances the flushed position and never completes a request {@code PUT_OK}: the
 *       service reports it to {@link StoreHealth#markNotWritable} and completes waiting requests with
 *       {@code FLUSH_DISK_TIMEOUT}.</li>
 *   <li>{@link #awaitFlush(long, FlushWaiter)} is the allocation-free form of {@code handle(nextOffset, true)}
 *       that the engine uses; the default adapts {@link #handle}, so a third-party service need not implement
 *       it.</li>
 *   <li>The service owns its thread(s); they must be daemon-free of the put path (no put thread flushes).</li>
 * </ul>
 */
public interface FlushCommitLogService {

    void start();

    /** Asks for {@code nextOffset} to become durable. */
    CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForFlush);

    /**
     * Asks for {@code nextOffset} to become durable, as {@code handle(nextOffset, true)} does, without a future:
     * returns the status when it is known at once (an async service acknowledges at once; a service that is shut
     * down answers by what is flushed), and then never calls {@code waiter}; otherwise returns null and calls
     * {@link FlushWaiter#flushed} exactly once later (possibly on another thread before this call returns), with the
     * status the future would have completed with.
     * Called by put threads right after their append, outside the put lock; must not block.
     */
    default PutMessageStatus awaitFlush(long nextOffset, FlushWaiter waiter) {
        CompletableFuture<PutMessageStatus> future = handle(nextOffset, true);
        if (future.isDone()) {
            return future.isCompletedExceptionally() ? PutMessageStatus.UNKNOWN_ERROR : future.join();
        }
        future.whenComplete((status, failure) -> waiter.flushed(failure == null && status != null
                ? status : PutMessageStatus.UNKNOWN_ERROR));
        return null;
    }

    /**
     * True when this service acknowledges every put before any force (async flush): {@link #handle} then always
     * returns a completed {@code PUT_OK} future it need not allocate, and {@link #awaitFlush} returns {@code PUT_OK}
     * at once. The engine then builds no waiter for a put. Default false.
     */
    default boolean acknowledgesAtOnce() {
        return false;
    }

    /** Hints that new data was appended. */
    void wakeup();

    /**
     * Someone waits for the bytes before {@code nextOffset} to be committed (made readable) from the write buffer,
     * e.g. a SYNC_MASTER put for its slave: commit them at the next round even if they are fewer than
     * {@code commitCommitLogLeastPages}. Must not block. The default only wakes the service, which is all a service
     * without a write buffer (nothing to commit) needs.
     */
    default void commitThrough(long nextOffset) {
        wakeup();
    }

    void shutdown();

    /** The counters this service keeps. */
    FlushStatistics statistics();
}
