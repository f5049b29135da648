package dev.hangar.spi.store;

import java.util.List;

/**
 * What one append wrote. The results the static factories build are immutable and compare by their components.
 * The engine may hand an {@link dev.hangar.spi.mapped.AppendCallback}'s caller a reused view of the append in
 * progress instead (valid only under the put lock): an append on the put path allocates no result of its own; the
 * figures end up in the put's {@link PutMessageResult}, whose {@link PutMessageResult#appendResult()} builds a
 * detached one only when asked.
 *
 * <p>Components:
 * <ul>
 *   <li>{@code status}: PUT_OK, END_OF_FILE (a BLANK record of {@code wroteBytes} was written) or an error</li>
 *   <li>{@code wroteOffset}: commit-log offset of the first record written</li>
 *   <li>{@code wroteBytes}: bytes taken in the file (the blank's length for END_OF_FILE)</li>
 *   <li>{@code msgIds}: offset message ids, one per message (one for a single put)</li>
 *   <li>{@code storeTimestamp}: the store time stamped under the lock</li>
 *   <li>{@code logicsOffset}: queue offset of the first message</li>
 *   <li>{@code messageCount}: messages written (the batch size for a batch)</li>
 * </ul>
 */
public interface AppendMessageResult {

    /** An immutable result whose message ids are given (copied). */
    static AppendMessageResult of(AppendMessageStatus status, long wroteOffset, int wroteBytes, List<String> msgIds,
                                  long storeTimestamp, long logicsOffset, int messageCount) {
        return new DetachedAppendMessageResult(status, wroteOffset, wroteBytes, msgIds, storeTimestamp, logicsOffset,
                messageCount);
    }

    /**
     * An immutable PUT_OK result whose message ids {@code idSource} computes when asked.
     *
     * @param relativeStarts each record's start relative to {@code wroteOffset}, one per message (this result keeps
     *                       the array: the caller must not change it), or null for a single record
     */
    static AppendMessageResult appended(long wroteOffset, int wroteBytes, MessageIdSource idSource,
                                        int[] relativeStarts, long storeTimestamp, long logicsOffset,
                                        int messageCount) {
        return DetachedAppendMessageResult.appended(wroteOffset, wroteBytes, idSource, relativeStarts, storeTimestamp,
                logicsOffset, messageCount);
    }

    /** An immutable result of {@code status} that wrote nothing. */
    static AppendMessageResult of(AppendMessageStatus status) {
        return of(status, 0, 0, List.of(), 0, 0, 0);
    }

    AppendMessageStatus status();

    long wroteOffset();

    int wroteBytes();

    /** The offset message ids, one per message. */
    List<String> msgIds();

    long storeTimestamp();

    long logicsOffset();

    int messageCount();

    default boolean isOk() {
        return status() == AppendMessageStatus.PUT_OK;
    }

    /** The first (for a single put: the only) offset message id, or null. */
    default String msgId() {
        List<String> ids = msgIds();
        return ids.isEmpty() ? null : ids.get(0);
    }
}
