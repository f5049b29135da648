package dev.hangar.store.put;

import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.MessageIdSource;
import dev.hangar.spi.store.PutMessageStatus;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The one slot of an appended put's result ({@link StoredPut}, {@link PendingPut}) that holds everything but the
 * appended figures. For the common put (one record, PUT_OK, no replication) the slot holds the store's
 * {@link PutCompletion} itself, so the result is one object; a batch, a failure or an outstanding replication
 * acknowledgement puts one of these immutable details there instead. The static helpers read either form.
 */
final class PutDetail {
    private final PutCompletion completion;
    /** The outcome; null while it is PUT_OK or not known yet. */
    private final PutMessageStatus status;
    private final String reason;
    private final int[] relativeStarts;
    private final ReplicationService replication;
    private final CompletableFuture<PutMessageStatus> replicated;

    private PutDetail(PutCompletion completion, PutMessageStatus status, String reason, int[] relativeStarts,
                      ReplicationService replication, CompletableFuture<PutMessageStatus> replicated) {
        this.completion = completion;
        this.status = status;
        this.reason = reason;
        this.relativeStarts = relativeStarts;
        this.replication = replication;
        this.replicated = replicated;
    }

    /** The slot of a freshly appended put: {@code completion} itself unless it is a batch. */
    static Object appended(PutCompletion completion, int[] relativeStarts) {
        return relativeStarts == null ? completion : new PutDetail(completion, null, null, relativeStarts, null, null);
    }

    /** {@code slot} waiting for {@code replicated} as well. */
    static Object awaitingReplication(Object slot, ReplicationService replication,
                                      CompletableFuture<PutMessageStatus> replicated) {
        return new PutDetail(completion(slot), null, null, relativeStarts(slot), replication, replicated);
    }

    /** {@code slot} with its outcome named: the plain slot again when it is PUT_OK. */
    static Object settled(Object slot, PutMessageStatus status, String reason) {
        if (status == PutMessageStatus.PUT_OK && (slot instanceof PutCompletion
                || ((PutDetail) slot).replicated == null)) {
            return slot;
        }
        return status == PutMessageStatus.PUT_OK ? appended(completion(slot), relativeStarts(slot))
                : new PutDetail(completion(slot), status, reason, relativeStarts(slot), null, null);
    }

    static PutCompletion completion(Object slot) {
        return slot instanceof PutDetail d ? d.completion : (PutCompletion) slot;
    }

    static PutMessageStatus status(Object slot) {
        return slot instanceof PutDetail d && d.status != null ? d.status : PutMessageStatus.PUT_OK;
    }

    static String reason(Object slot) {
        return slot instanceof PutDetail d ? d.reason : null;
    }

    static int[] relativeStarts(Object slot) {
        return slot instanceof PutDetail d ? d.relativeStarts : null;
    }

    static ReplicationService replication(Object slot) {
        return slot instanceof PutDetail d ? d.replication : null;
    }

    /** The replication acknowledgement still awaited, or null. */
    static CompletableFuture<PutMessageStatus> replicated(Object slot) {
        return slot instanceof PutDetail d ? d.replicated : null;
    }

    static int messageCount(Object slot) {
        int[] starts = relativeStarts(slot);
        return starts == null ? 1 : starts.length;
    }

    static List<String> msgIds(Object slot, long wroteOffset) {
        MessageIdSource ids = completion(slot);
        return ids.idsAt(wroteOffset, relativeStarts(slot));
    }

    static AppendMessageResult appendResult(Object slot, long wroteOffset, int wroteBytes, long storeTimestamp,
                                            long logicsOffset) {
        return AppendMessageResult.appended(wroteOffset, wroteBytes, completion(slot), relativeStarts(slot),
                storeTimestamp, logicsOffset, messageCount(slot));
    }

    static String describe(PutMessageStatus status, Object slot, long wroteOffset, int wroteBytes,
                           long storeTimestamp, long logicsOffset) {
        return "PutMessageResult[status=" + status + ", wroteOffset=" + wroteOffset + ", wroteBytes=" + wroteBytes
                + ", storeTimestamp=" + storeTimestamp + ", logicsOffset=" + logicsOffset + ", messageCount="
                + messageCount(slot) + ", reason=" + reason(slot) + "]";
    }
}
