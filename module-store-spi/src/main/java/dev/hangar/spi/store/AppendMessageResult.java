package dev.hangar.spi.store;

import java.util.List;

/**
 * What one append wrote.
 *
 * @param status          PUT_OK, END_OF_FILE (a BLANK record of {@code wroteBytes} was written) or an error
 * @param wroteOffset     commit-log offset of the first record written
 * @param wroteBytes      bytes taken in the file (the blank's length for END_OF_FILE)
 * @param msgIds          offset message ids, one per message (one for a single put)
 * @param storeTimestamp  the store time stamped under the lock
 * @param logicsOffset    queue offset of the first message
 * @param messageCount    messages written (the batch size for a batch)
 */
public record AppendMessageResult(
        AppendMessageStatus status,
        long wroteOffset,
        int wroteBytes,
        List<String> msgIds,
        long storeTimestamp,
        long logicsOffset,
        int messageCount) {

    public static AppendMessageResult of(AppendMessageStatus status) {
        return new AppendMessageResult(status, 0, 0, List.of(), 0, 0, 0);
    }

    public boolean isOk() {
        return status == AppendMessageStatus.PUT_OK;
    }

    /** The first (for a single put: the only) offset message id, or null. */
    public String msgId() {
        return msgIds.isEmpty() ? null : msgIds.get(0);
    }
}
