package dev.hangar.spi.store;

import java.util.List;

/**
 * The answer to a put: a status, a reason for a failure, and, when something was appended, what was appended. The
 * appended figures are read flat ({@link #wroteOffset()}, {@link #msgId()}, ...), so the engine answers a put with
 * one object; {@link #appendResult()} builds an {@link AppendMessageResult} from them each time it is called.
 *
 * <p>A put that wrote nothing (a refusal) has {@code appendResult() == null}, zero offsets and counts, a null
 * {@code msgId()} and no {@code msgIds()}. A put that wrote but failed to become durable (e.g. FLUSH_DISK_TIMEOUT)
 * keeps its appended figures. The engine's results are read-only after they are handed out; the one an
 * {@code asyncPutMessage} returns may be the future itself, completed with itself: read it as a result only once
 * the future is done. The results built here ({@link #of}, {@link #refused}) are immutable and compare by status,
 * reason and append.
 */
public interface PutMessageResult {

    /** An immutable result; {@code appendResult} may be null (nothing was appended). */
    static PutMessageResult of(PutMessageStatus status, AppendMessageResult appendResult, String reason) {
        return new DetachedPutMessageResult(status, appendResult, reason);
    }

    /** An immutable result without a reason. */
    static PutMessageResult of(PutMessageStatus status, AppendMessageResult appendResult) {
        return of(status, appendResult, null);
    }

    /** An immutable result of a put that wrote nothing. */
    static PutMessageResult refused(PutMessageStatus status, String reason) {
        return of(status, null, reason);
    }

    /** The put's outcome. */
    PutMessageStatus status();

    /** A human-readable reason for a failure, or null. */
    String reason();

    /** What was appended, built on each call from this result's figures; null when nothing was written. */
    AppendMessageResult appendResult();

    /** Whether something was appended (also true for a put that was written but not made durable in time). */
    boolean appended();

    /** Commit-log offset of the first record written; 0 when nothing was. */
    long wroteOffset();

    /** Bytes written to the commit log; 0 when nothing was. */
    int wroteBytes();

    /** The store time stamped on the records; 0 when nothing was written. */
    long storeTimestamp();

    /** Queue offset of the first message; 0 when nothing was written. */
    long logicsOffset();

    /** Messages written (the batch size for a batch); 0 when nothing was. */
    int messageCount();

    /** The offset message ids, one per message written (computed when read); empty when nothing was written. */
    List<String> msgIds();

    /** The first (for a single put: the only) offset message id; null when nothing was written. */
    default String msgId() {
        List<String> ids = msgIds();
        return ids.isEmpty() ? null : ids.get(0);
    }

    default boolean isOk() {
        return status() == PutMessageStatus.PUT_OK;
    }
}
