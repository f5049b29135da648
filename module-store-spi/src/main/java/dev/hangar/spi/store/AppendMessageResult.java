package dev.hangar.spi.store;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * What one append wrote. Immutable. Its message ids are computed when asked ({@link #msgId()}, {@link #msgIds()})
 * from the commit-log offsets, unless it was built with a list of them: an append costs this one object.
 *
 * <p>Components (read with the accessors of the same name):
 * <ul>
 *   <li>{@code status}: PUT_OK, END_OF_FILE (a BLANK record of {@code wroteBytes} was written) or an error</li>
 *   <li>{@code wroteOffset}: commit-log offset of the first record written</li>
 *   <li>{@code wroteBytes}: bytes taken in the file (the blank's length for END_OF_FILE)</li>
 *   <li>{@code msgIds}: offset message ids, one per message (one for a single put)</li>
 *   <li>{@code storeTimestamp}: the store time stamped under the lock</li>
 *   <li>{@code logicsOffset}: queue offset of the first message</li>
 *   <li>{@code messageCount}: messages written (the batch size for a batch)</li>
 * </ul>
 * Equality compares every component, the ids as lists of Strings.
 */
public final class AppendMessageResult {
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
    public AppendMessageResult(AppendMessageStatus status, long wroteOffset, int wroteBytes, List<String> msgIds,
                               long storeTimestamp, long logicsOffset, int messageCount) {
        this(status, wroteOffset, wroteBytes, List.copyOf(msgIds), null, storeTimestamp, logicsOffset, messageCount);
    }

    private AppendMessageResult(AppendMessageStatus status, long wroteOffset, int wroteBytes, Object ids,
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

    /**
     * A PUT_OK result whose message ids {@code idSource} computes when asked.
     *
     * @param relativeStarts each record's start relative to {@code wroteOffset}, one per message (this result keeps
     *                       the array: the caller must not change it), or null for a single record
     */
    public static AppendMessageResult appended(long wroteOffset, int wroteBytes, MessageIdSource idSource,
                                               int[] relativeStarts, long storeTimestamp, long logicsOffset,
                                               int messageCount) {
        Objects.requireNonNull(idSource, "idSource");
        int ids = relativeStarts == null ? 1 : relativeStarts.length;
        if (ids != messageCount) {
            throw new IllegalArgumentException(ids + " record starts for " + messageCount + " messages");
        }
        return new AppendMessageResult(AppendMessageStatus.PUT_OK, wroteOffset, wroteBytes, idSource, relativeStarts,
                storeTimestamp, logicsOffset, messageCount);
    }

    public static AppendMessageResult of(AppendMessageStatus status) {
        return new AppendMessageResult(status, 0, 0, List.of(), 0, 0, 0);
    }

    public AppendMessageStatus status() {
        return status;
    }

    public long wroteOffset() {
        return wroteOffset;
    }

    public int wroteBytes() {
        return wroteBytes;
    }

    /** The offset message ids, one per message; computed on each call when this result holds a source. */
    @SuppressWarnings("unchecked")
    public List<String> msgIds() {
        if (ids instanceof MessageIdSource source) {
            return new ComputedIds(source, wroteOffset, relativeStarts);
        }
        return (List<String>) ids;
    }

    public long storeTimestamp() {
        return storeTimestamp;
    }

    public long logicsOffset() {
        return logicsOffset;
    }

    public int messageCount() {
        return messageCount;
    }

    public boolean isOk() {
        return status == AppendMessageStatus.PUT_OK;
    }

    /** The first (for a single put: the only) offset message id, or null. */
    public String msgId() {
        if (ids instanceof MessageIdSource source) {
            return source.idAt(wroteOffset);
        }
        List<String> list = msgIds();
        return list.isEmpty() ? null : list.get(0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AppendMessageResult r && status == r.status && wroteOffset == r.wroteOffset
                && wroteBytes == r.wroteBytes && storeTimestamp == r.storeTimestamp && logicsOffset == r.logicsOffset
                && messageCount == r.messageCount && msgIds().equals(r.msgIds());
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

    /** The ids of an append computed from its offsets when read. Immutable. */
    private static final class ComputedIds extends AbstractList<String> implements RandomAccess {
        private final MessageIdSource source;
        private final long firstOffset;
        private final int[] relativeStarts;

        ComputedIds(MessageIdSource source, long firstOffset, int[] relativeStarts) {
            this.source = source;
            this.firstOffset = firstOffset;
            this.relativeStarts = relativeStarts;
        }

        @Override
        public String get(int index) {
            Objects.checkIndex(index, size());
            return source.idAt(relativeStarts == null ? firstOffset : firstOffset + relativeStarts[index]);
        }

        @Override
        public int size() {
            return relativeStarts == null ? 1 : relativeStarts.length;
        }
    }
}
