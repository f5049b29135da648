package dev.hangar.flush;

import dev.hangar.spi.store.PutMessageStatus;
import java.util.concurrent.CompletableFuture;

/**
 * One put waiting for its bytes to be durable: done {@code PUT_OK} once the flushed position reaches
 * {@link #nextOffset()}, or {@code FLUSH_DISK_TIMEOUT} at its deadline or when the force fails.
 *
 * <p>Thread-safe: whichever of the flush thread, the deadline watcher or shutdown completes it first wins;
 * later completions are no-ops.
 */
final class FlushRequest {
    private final long nextOffset;
    private final long deadlineNanos;
    private final CompletableFuture<PutMessageStatus> future = new CompletableFuture<>();

    FlushRequest(long nextOffset, long deadlineNanos) {
        this.nextOffset = nextOffset;
        this.deadlineNanos = deadlineNanos;
    }

    long nextOffset() {
        return nextOffset;
    }

    /** In {@link System#nanoTime()} terms. */
    long deadlineNanos() {
        return deadlineNanos;
    }

    boolean isCoveredBy(long flushedWhere) {
        return nextOffset <= flushedWhere;
    }

    boolean isDone() {
        return future.isDone();
    }

    /** True when this call completed it. */
    boolean complete(PutMessageStatus status) {
        return future.complete(status);
    }

    CompletableFuture<PutMessageStatus> future() {
        return future;
    }
}
