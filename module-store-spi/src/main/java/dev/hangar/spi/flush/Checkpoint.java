package dev.hangar.spi.flush;

/**
 * The store's checkpoint: the store time of the newest record known to be durable in the CommitLog
 * (physic), in the ConsumeQueues (logics) and in the index. Recovery after a crash starts from the oldest.
 * Setters are cheap and thread-safe; {@link #flush()} makes them durable.
 */
public interface Checkpoint {

    long physicMsgTimestamp();

    void physicMsgTimestamp(long timestamp);

    long logicsMsgTimestamp();

    void logicsMsgTimestamp(long timestamp);

    long indexMsgTimestamp();

    void indexMsgTimestamp(long timestamp);

    void flush();
}
