package dev.hangar.spi.store;

import dev.hangar.spi.message.StoredMessage;
import java.util.List;

/**
 * The answer to a read by queue offset.
 *
 * @param status          FOUND or why not
 * @param nextBeginOffset the queue offset to read from next
 * @param minOffset       the queue's min offset at the time of the read
 * @param maxOffset       the queue's max offset (one past the last message)
 * @param messages        the messages found, in queue order
 */
public record GetMessageResult(GetMessageStatus status, long nextBeginOffset, long minOffset, long maxOffset,
                               List<StoredMessage> messages) {
}
