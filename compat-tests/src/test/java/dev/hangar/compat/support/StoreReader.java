package dev.hangar.compat.support;

import java.util.List;

/**
 * The read API both engines offer, in the neutral shape of {@link StoredRecord}. Implementations wrap a
 * started store; thread-safety is that of the store.
 */
public interface StoreReader {

    /** "hangar" or "rocketmq", for messages. */
    String engine();

    long minOffset(String topic, int queueId);

    long maxOffset(String topic, int queueId);

    /** The message at a queue offset (getMessage, one message), or null when the read is not FOUND. */
    StoredRecord get(String topic, int queueId, long queueOffset);

    /** The ConsumeQueue unit at a queue offset, or null. */
    QueueUnit unit(String topic, int queueId, long queueOffset);

    /** getOffsetInQueueByTime: the queue offset of the message stored closest to {@code timestamp}. */
    long offsetByTime(String topic, int queueId, long timestamp);

    /** getMessageStoreTimeStamp: the store time of the message at a queue offset, or -1. */
    long storeTimeAt(String topic, int queueId, long queueOffset);

    StoredRecord lookByOffset(long commitLogOffset);

    StoredRecord lookByMsgId(String msgId);

    /** Messages of {@code topic} whose key or unique key is {@code key} (hash collisions removed), by offset. */
    List<StoredRecord> query(String topic, String key);

    long minPhyOffset();

    long maxPhyOffset();

    /** Bytes the dispatcher has not yet turned into queue units and index entries. */
    long dispatchBehindBytes();
}
