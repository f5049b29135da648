package dev.hangar.store.put;

import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.store.MessageIdSource;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.service.RunningFlags;
import dev.hangar.store.service.StoreStats;
import java.util.concurrent.CompletableFuture;

/**
 * The last step of every put: names the outcome of an append from what the flush service and replication said, and
 * counts it. Shared by the blocking put ({@link StoredPut}) and the asynchronous one ({@link PendingPut}), whose
 * results keep this store-wide object as their id source, so a plain put's result needs no object besides itself.
 * Thread-safe; allocates only for a failure (its reason) or a batch.
 */
public final class PutCompletion implements MessageIdSource {
    private final StoreStats stats;
    private final RunningFlags flags;
    private final MessageIdSource ids;

    /** @param ids computes the offset message ids of this store's records */
    public PutCompletion(StoreStats stats, RunningFlags flags, MessageIdSource ids) {
        this.stats = stats;
        this.flags = flags;
        this.ids = ids;
    }

    @Override
    public String idAt(long commitLogOffset) {
        return ids.idAt(commitLogOffset);
    }

    /** Counts a put that ended before or at its append (a refusal, or a failed append) and returns it. */
    public PutMessageResult record(PutMessageResult result, long beginNanos) {
        count(result.status(), result.messageCount(), result.wroteBytes(), (System.nanoTime() - beginNanos) / 1000);
        return result;
    }

    private void count(PutMessageStatus status, int messages, long bytes, long micros) {
        stats.recordPut(status, messages, bytes, micros);
    }

    /** What a replication future says: its status, {@code UNKNOWN_ERROR} when it failed; only when done. */
    public static PutMessageStatus statusOf(CompletableFuture<PutMessageStatus> done) {
        if (done.isCompletedExceptionally()) {
            return PutMessageStatus.UNKNOWN_ERROR;
        }
        PutMessageStatus status = done.join();
        return status == null ? PutMessageStatus.UNKNOWN_ERROR : status;
    }

    /**
     * The last step of an appended put ({@link StoredPut#settle}, {@link PendingPut#flushed}): the slot that names
     * its outcome, the put counted with it.
     *
     * @param micros the put's latency
     */
    Object finish(Object slot, PutMessageStatus flushed, PutMessageStatus replicated, ReplicationService replication,
                  int wroteBytes, long micros) {
        Object settled = settle(slot, flushed, replicated, replication);
        count(PutDetail.status(settled), PutDetail.messageCount(settled), wroteBytes, micros);
        return settled;
    }

    /** The {@link PutDetail} slot that names the outcome of the put whose slot is {@code slot}. */
    private Object settle(Object slot, PutMessageStatus flushed, PutMessageStatus replicated, ReplicationService replication) {
        // flush and replication run side by side; the flush's failure names the outcome first
        if (flushed != PutMessageStatus.PUT_OK) {
            return PutDetail.settled(slot, flushed, "stored, but not flushed within syncFlushTimeout: "
                    + flags.reason());
        }
        if (replicated != PutMessageStatus.PUT_OK) {
            String why = replication == null ? "" : replication.status().problem();
            return PutDetail.settled(slot, replicated, replicated == PutMessageStatus.FLUSH_SLAVE_TIMEOUT
                    ? "stored on the master, but no slave acknowledged it within syncFlushTimeout"
                    + (why.isEmpty() ? "" : " (" + why + ")")
                    : "stored on the master, but no slave can take it: " + why);
        }
        return PutDetail.settled(slot, PutMessageStatus.PUT_OK, null);
    }
}
