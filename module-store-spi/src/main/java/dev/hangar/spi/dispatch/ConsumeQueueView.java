package dev.hangar.spi.dispatch;

import java.util.List;

/**
 * The read side of the ConsumeQueues, so the engine reads them without requiring the dispatch module.
 * Thread-safe; reads never see a half-written unit.
 */
public interface ConsumeQueueView {

    boolean exists(String topic, int queueId);

    /** Smallest queue offset still readable; 0 for an unknown queue. */
    long minOffset(String topic, int queueId);

    /** One past the last unit; 0 for an unknown queue. */
    long maxOffset(String topic, int queueId);

    /**
     * Up to {@code max} units from {@code offset}. An empty list when the offset is in a file that is gone
     * (the caller rolls to {@link #rollNextFile}).
     */
    List<CqUnit> read(String topic, int queueId, long offset, int max);

    /** The first queue offset of the next ConsumeQueue file after the one holding {@code offset}. */
    long rollNextFile(String topic, int queueId, long offset);

    /** The queue offset stored closest to {@code timestamp}; 0 when none. */
    long offsetByTime(String topic, int queueId, long timestamp);

    /** Visits every queue with its max offset (recovery rebuilds the next queue offsets from this). */
    void forEachQueue(QueueVisitor visitor);

    /** Callback of {@link #forEachQueue}. */
    @FunctionalInterface
    interface QueueVisitor {
        void visit(String topic, int queueId, long minOffset, long maxOffset);
    }
}
