package dev.hangar.store.put;

import dev.hangar.spi.flush.FlushWaiter;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.commitlog.LiveAppend;
import java.util.concurrent.CompletableFuture;

/**
 * An appended asynchronous put: at once the future {@code asyncPutMessage} returns, what the flush service tells
 * when the put is durable, and the result the future completes with (itself). 56 bytes, the only object such a put
 * allocates unless a replication acknowledgement is still outstanding when the flush answers (SYNC_MASTER).
 *
 * <p>Read it as a {@link PutMessageResult} only once the future is done ({@link #status()} is null before).
 * Completed on the thread that tells it (the flush thread, or the put thread when the flush service answers at
 * once): callers should attach slow work with the {@code *Async} stages.
 */
public final class PendingPut extends CompletableFuture<PutMessageResult> implements AppendedPut, FlushWaiter {
    private Object slot;
    private final int wroteBytes;
    /** {@code System.nanoTime() / 1000} at the put's start, truncated: the latency is the wrapping difference. */
    private int beginMicros;
    private final long wroteOffset;
    private final long storeTimestamp;
    private final long logicsOffset;

    /** Copies {@code append}'s figures; call under the put lock. */
    public PendingPut(PutCompletion completion, LiveAppend append) {
        this.slot = PutDetail.appended(completion, append.relativeStarts());
        this.wroteBytes = append.wroteBytes();
        this.wroteOffset = append.wroteOffset();
        this.storeTimestamp = append.storeTimestamp();
        this.logicsOffset = append.logicsOffset();
    }

    /**
     * Before it is handed to anyone: when the put began, and the replication acknowledgement it also waits for.
     *
     * @param replicated what {@code replication.handle} returned, or null when there is no replication
     */
    public PendingPut awaiting(long beginNanos, ReplicationService replication,
                               CompletableFuture<PutMessageStatus> replicated) {
        this.beginMicros = (int) (beginNanos / 1000);
        if (replicated != null) {
            slot = PutDetail.awaitingReplication(slot, replication, replicated);
        }
        return this;
    }

    @Override
    public void flushed(PutMessageStatus status) {
        CompletableFuture<PutMessageStatus> replicated = PutDetail.replicated(slot);
        if (replicated == null) {
            finish(status, PutMessageStatus.PUT_OK);
        } else if (replicated.isDone()) {
            finish(status, PutCompletion.statusOf(replicated));
        } else {
            replicated.whenComplete((r, e) -> finish(status, PutCompletion.statusOf(replicated)));
        }
    }

    private void finish(PutMessageStatus flushed, PutMessageStatus replicated) {
        int micros = (int) (System.nanoTime() / 1000) - beginMicros;
        slot = PutDetail.completion(slot).finish(slot, flushed, replicated, PutDetail.replication(slot), wroteBytes,
                micros);
        complete(this);
    }

    @Override
    public PutMessageStatus status() {
        return isDone() ? PutDetail.status(slot) : null;
    }

    @Override
    public Object slot() {
        return slot;
    }

    @Override
    public long wroteOffset() {
        return wroteOffset;
    }

    @Override
    public int wroteBytes() {
        return wroteBytes;
    }

    @Override
    public long storeTimestamp() {
        return storeTimestamp;
    }

    @Override
    public long logicsOffset() {
        return logicsOffset;
    }

    /** The result's description once done; the future's before. */
    @Override
    public String toString() {
        return isDone() ? describe() : super.toString();
    }
}
