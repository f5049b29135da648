package dev.hangar.spi.store;

import java.util.List;
import java.util.Objects;

/**
 * The immutable {@link AppendMessageResult} of the static factories: built when a result must outlive the append
 * (a caller's copy, a failure, a test), never on the hot put path.
 */
final class DetachedAppendMessageResult implements AppendMessageResult {
    private final AppendMessageStatus status;
    private final long wroteOffset;
    private final int wroteBytes;
    /** A {@code List<String>} of the ids, or the {@link MessageIdSource} that computes them. */
    private final Object ids;
    /** With a source: each record's start relative to {@code wroteOffset}; null for a single record. */
    private final int[] relativeStarts;
    private final long storeTimestamp;
    private final long logicsOffset;
    private final int messageCount;

    /** A result whose message ids are given. */
    DetachedAppendMessageResult(AppendMessageStatus status, long wroteOffset, int wroteBytes, List<String> msgIds,
                               long storeTimestamp, long logicsOffset, int messageCount) {
        this(status, wroteOffset, wroteBytes, List.copyOf(msgIds), null, storeTimestamp, logicsOffset, messageCount);
    }

    private DetachedAppendMessageResult(AppendMessageStatus status, long wroteOffset, int wroteBytes, Object ids,
                                int[] relativeStarts, long storeTimestamp, long logicsOffset, int messageCount) {
        this.status = status;
        this.wroteOffset = wroteOffset;
        this.wroteBytes = wroteBytes;
        this.ids = ids;
        this.relativeStarts = relativeStarts;
        this.storeTimestamp = storeTimestamp;
        this.logicsOffset = logicsOffset;
        this.messageCount = messageCount;
    }

    static AppendMessageResult appended(long wroteOffset, int wroteBytes, MessageIdSource idSource,
                                        int[] relativeStarts, long storeTimestamp, long logicsOffset,
                                        int messageCount) {
        Objects.requireNonNull(idSource, "idSource");
        int ids = relativeStarts == null ? 1 : relativeStarts.length;
        if (ids != messageCount) {
            throw new IllegalArgumentException(ids + " record starts for " + messageCount + " messages");
        }
        return new DetachedAppendMessageResult(AppendMessageStatus.PUT_OK, wroteOffset, wroteBytes, idSource,
                relativeStarts, storeTimestamp, logicsOffset, messageCount);
    }

    @Override
    public AppendMessageStatus status() {
        return status;
    }

    @Override
    public long wroteOffset() {
        return wroteOffset;
    }

    @Override
    public int wroteBytes() {
        return wroteBytes;
    }

    /** The offset message ids, one per message; computed on each call when this result holds a source. */
    @SuppressWarnings("unchecked")
    @Override
    public List<String> msgIds() {
        if (ids instanceof MessageIdSource source) {
            return source.idsAt(wroteOffset, relativeStarts);
        }
        return (List<String>) ids;
    }

    @Override
    public long storeTimestamp() {
        return storeTimestamp;
    }

    @Override
    public long logicsOffset() {
        return logicsOffset;
    }

    @Override
    public int messageCount() {
        return messageCount;
    }

    /** The first (for a single put: the only) offset message id, or null. */
    @Override
    public String msgId() {
        if (ids instanceof MessageIdSource source) {
            return source.idAt(wroteOffset);
        }
        List<String> list = msgIds();
        return list.isEmpty() ? null : list.get(0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AppendMessageResult r && status == r.status() && wroteOffset == r.wroteOffset()
                && wroteBytes == r.wroteBytes() && storeTimestamp == r.storeTimestamp()
                && logicsOffset == r.logicsOffset() && messageCount == r.messageCount() && msgIds().equals(r.msgIds());
    }

    @Override
    public int hashCode() {
        return Objects.hash(status, wroteOffset, wroteBytes, msgIds(), storeTimestamp, logicsOffset, messageCount);
    }

    @Override
    public String toString() {
        return "AppendMessageResult[status=" + status + ", wroteOffset=" + wroteOffset + ", wroteBytes=" + wroteBytes
                + ", msgIds=" + msgIds() + ", storeTimestamp=" + storeTimestamp + ", logicsOffset=" + logicsOffset
                + ", messageCount=" + messageCount + "]";
    }
}
