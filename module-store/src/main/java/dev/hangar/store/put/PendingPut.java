package dev.hangar.store.put;

import dev.hangar.spi.flush.FlushWaiter;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.concurrent.CompletableFuture;

/**
 * An appended asynchronous put: the future {@code asyncPutMessage} returns, which is also what the flush service
 * tells when the put is durable. One object per put carries the whole wait; nothing is chained per put unless a
 * replication acknowledgement is still outstanding when the flush answers (SYNC_MASTER).
 *
 * <p>Completed on the thread that tells it (the flush thread, or the put thread when the flush service answers at
 * once): callers should attach slow work with the {@code *Async} stages.
 */
public final class PendingPut extends CompletableFuture<PutMessageResult> implements FlushWaiter {
    private final PutCompletion completion;
    private final AppendMessageResult appended;
    private final long beginNanos;
    private final ReplicationService replication;
    private final CompletableFuture<PutMessageStatus> replicated;

    /**
     * @param replication the store's replication service, or null
     * @param replicated  what {@code replication.handle} returned, or null when there is no replication
     */
    public PendingPut(PutCompletion completion, AppendMessageResult appended, long beginNanos,
                      ReplicationService replication, CompletableFuture<PutMessageStatus> replicated) {
        this.completion = completion;
        this.appended = appended;
        this.beginNanos = beginNanos;
        this.replication = replication;
        this.replicated = replicated;
    }

    @Override
    public void flushed(PutMessageStatus status) {
        if (replicated == null) {
            complete(completion.finish(status, PutMessageStatus.PUT_OK, appended, null, beginNanos));
        } else if (replicated.isDone()) {
            complete(completion.finish(status, PutCompletion.statusOf(replicated), appended, replication, beginNanos));
        } else {
            replicated.whenComplete((r, e) -> complete(completion.finish(status, PutCompletion.statusOf(replicated),
                    appended, replication, beginNanos)));
        }
    }
}
