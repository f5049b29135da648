package dev.hangar.store.put;

import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.service.RunningFlags;
import dev.hangar.store.service.StoreStats;
import java.util.concurrent.CompletableFuture;

/**
 * The last step of every put: names the outcome of an append from what the flush service and replication said, and
 * counts it. Shared by the blocking put ({@link BlockingFlushWait}) and the asynchronous one ({@link PendingPut}).
 * Thread-safe; allocates only the result (and a reason String when a put fails).
 */
public final class PutCompletion {
    private final StoreStats stats;
    private final RunningFlags flags;

    public PutCompletion(StoreStats stats, RunningFlags flags) {
        this.stats = stats;
        this.flags = flags;
    }

    /** The result of an appended put, counted with its latency from {@code beginNanos}. */
    public PutMessageResult finish(PutMessageStatus flushed, PutMessageStatus replicated, AppendMessageResult appended,
                                   ReplicationService replication, long beginNanos) {
        PutMessageResult result = outcome(flushed, replicated, appended, replication);
        record(result, beginNanos, appended);
        return result;
    }

    /** Counts a put that ended before or at its append (a refusal, or a failed append). */
    public PutMessageResult record(PutMessageResult result, long beginNanos, AppendMessageResult appended) {
        int count = appended == null ? 0 : appended.messageCount();
        long bytes = appended == null ? 0 : appended.wroteBytes();
        stats.recordPut(result.status(), count, bytes, (System.nanoTime() - beginNanos) / 1000);
        return result;
    }

    /** What a replication future says: its status, {@code UNKNOWN_ERROR} when it failed; only when done. */
    public static PutMessageStatus statusOf(CompletableFuture<PutMessageStatus> done) {
        if (done.isCompletedExceptionally()) {
            return PutMessageStatus.UNKNOWN_ERROR;
        }
        PutMessageStatus status = done.join();
        return status == null ? PutMessageStatus.UNKNOWN_ERROR : status;
    }

    private PutMessageResult outcome(PutMessageStatus flushed, PutMessageStatus replicated,
                                     AppendMessageResult appended, ReplicationService replication) {
        // flush and replication run side by side; the flush's failure names the outcome first
        if (flushed != PutMessageStatus.PUT_OK) {
            return new PutMessageResult(flushed, appended, "stored, but not flushed within syncFlushTimeout: "
                    + flags.reason());
        }
        if (replicated != PutMessageStatus.PUT_OK) {
            String why = replication == null ? "" : replication.status().problem();
            return new PutMessageResult(replicated, appended, replicated == PutMessageStatus.FLUSH_SLAVE_TIMEOUT
                    ? "stored on the master, but no slave acknowledged it within syncFlushTimeout"
                    + (why.isEmpty() ? "" : " (" + why + ")")
                    : "stored on the master, but no slave can take it: " + why);
        }
        return new PutMessageResult(PutMessageStatus.PUT_OK, appended);
    }
}
