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
 *   <li>The service owns its thread(s); they must be daemon-free of the put path (no put thread flushes).</li>
 * </ul>
 */
public interface FlushCommitLogService {

    void start();

    /** Asks for {@code nextOffset} to become durable. */
    CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForFlush);

    /** Hints that new data was appended. */
    void wakeup();

    void shutdown();

    /** The counters this service keeps. */
    FlushStatistics statistics();
}
