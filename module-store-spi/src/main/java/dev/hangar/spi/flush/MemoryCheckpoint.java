package dev.hangar.spi.flush;

/**
 * A {@link Checkpoint} held in memory: the three timestamps as volatile fields, {@link #flush()} does nothing. The
 * engine's file-backed checkpoint extends it; tests and embedders that keep no checkpoint use it as is.
 * Thread-safe.
 */
public class MemoryCheckpoint implements Checkpoint {
    private volatile long physic;
    private volatile long logics;
    private volatile long index;

    @Override
    public long physicMsgTimestamp() {
        return physic;
    }

    @Override
    public void physicMsgTimestamp(long timestamp) {
        physic = timestamp;
    }

    @Override
    public long logicsMsgTimestamp() {
        return logics;
    }

    @Override
    public void logicsMsgTimestamp(long timestamp) {
        logics = timestamp;
    }

    @Override
    public long indexMsgTimestamp() {
        return index;
    }

    @Override
    public void indexMsgTimestamp(long timestamp) {
        index = timestamp;
    }

    @Override
    public void flush() {
    }
}
