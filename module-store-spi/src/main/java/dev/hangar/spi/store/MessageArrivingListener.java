package dev.hangar.spi.store;

/**
 * Told after dispatch that a queue grew, for long polling. Called on the dispatch thread: must not block.
 */
@FunctionalInterface
public interface MessageArrivingListener {

    /**
     * @param topic     the topic the message was dispatched to
     * @param queueId   its queue
     * @param maxOffset the queue's new max offset (one past the new message)
     */
    void arriving(String topic, int queueId, long maxOffset);
}
