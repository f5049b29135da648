package dev.hangar.spi.store;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.StoredMessage;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The store an embedder uses. Built by the engine's assembler from configuration; {@link #start()} recovers
 * and starts the services, {@link #shutdown()} flushes everything and stops them.
 *
 * <p>Puts never throw for bad input: they answer with a status ({@link PutMessageStatus#MESSAGE_ILLEGAL},
 * {@link PutMessageStatus#PROPERTIES_SIZE_EXCEEDED}, ...) and write nothing. All methods are thread-safe.
 */
public interface MessageStore extends AutoCloseable {

    /** Recovers the directory and starts flush, dispatch and housekeeping. */
    void start();

    /** Flushes everything, stops the services, releases the directory lock. Idempotent. */
    void shutdown();

    @Override
    default void close() {
        shutdown();
    }

    /** Puts one message and waits for it to be as durable as the flush policy promises. */
    PutMessageResult putMessage(Message message);

    /** Puts one message; the future completes when it is as durable as the flush policy promises. */
    CompletableFuture<PutMessageResult> asyncPutMessage(Message message);

    /**
     * Puts a batch for one topic and queue: all in one commit-log file, consecutive queue offsets,
     * one msgId per message. The topic, queue and flush wait of the first message apply to all.
     */
    PutMessageResult putMessages(List<Message> batch);

    /** Asynchronous {@link #putMessages(List)}. */
    CompletableFuture<PutMessageResult> asyncPutMessages(List<Message> batch);

    /** Reads up to {@code maxMsgNums} messages of a queue from {@code offset}, filtered. */
    GetMessageResult getMessage(String group, String topic, int queueId, long offset, int maxMsgNums,
                                MessageFilter filter);

    long getMinOffsetInQueue(String topic, int queueId);

    /** One past the last message of the queue; 0 for an unknown queue. */
    long getMaxOffsetInQueue(String topic, int queueId);

    /** The queue offset of the message stored closest to {@code timestamp}; 0 if none. */
    long getOffsetInQueueByTime(String topic, int queueId, long timestamp);

    /** The store time of the message at a queue offset, or -1. */
    long getMessageStoreTimeStamp(String topic, int queueId, long queueOffset);

    /** Decodes the record at a commit-log offset, or null when there is none. */
    StoredMessage lookMessageByOffset(long commitLogOffset);

    /** Finds a message by its offset message id, or null. */
    StoredMessage lookMessageByMsgId(String msgId);

    /** Messages of {@code topic} whose key (or unique key) is {@code key}, stored within [begin, end]. */
    QueryMessageResult queryMessage(String topic, String key, int maxNum, long begin, long end);

    /** Bytes written to the commit log but not yet dispatched. */
    long dispatchBehindBytes();

    long getMinPhyOffset();

    long getMaxPhyOffset();

    /** Registers a listener told after each dispatched message (long polling). */
    void addMessageArrivingListener(MessageArrivingListener listener);

    /** Consumer groups and their committed offsets, written through the CommitLog; usable once started. */
    ConsumerOffsets consumerOffsets();
}
