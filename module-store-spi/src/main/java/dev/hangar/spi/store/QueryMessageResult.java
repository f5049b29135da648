package dev.hangar.spi.store;

import dev.hangar.spi.message.StoredMessage;
import java.util.List;

/**
 * The answer to a query by key: only messages whose topic and key really match (hash collisions re-checked).
 *
 * @param messages             the matching messages, oldest first
 * @param indexLastUpdateTimestamp end timestamp of the newest index file consulted
 * @param indexLastUpdatePhyoffset end commit-log offset of the newest index file consulted
 */
public record QueryMessageResult(List<StoredMessage> messages, long indexLastUpdateTimestamp,
                                 long indexLastUpdatePhyoffset) {
}
