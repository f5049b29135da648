package dev.hangar.spi.dispatch;

/**
 * One ConsumeQueue unit: where a message of a queue lives in the CommitLog.
 *
 * @param queueOffset     the message's offset in its queue
 * @param commitLogOffset its record's physical offset
 * @param size            its record's size
 * @param tagsCode        tag hash (or deliver time on the schedule topic)
 */
public record CqUnit(long queueOffset, long commitLogOffset, int size, long tagsCode) {
}
