package dev.hangar.flush;

import dev.hangar.spi.flush.Checkpoint;
import java.util.concurrent.atomic.AtomicInteger;

/** A checkpoint in memory; counts how often the physic timestamp was set. */
final class InMemoryCheckpoint implements Checkpoint {
    private volatile long physic;
    private volatile long logics;
    private volatile long index;
    final AtomicInteger physicUpdates = new AtomicInteger();

    @Override
    public long physicMsgTimestamp() {
        return physic;
    }

    @Override
    public void physicMsgTimestamp(long timestamp) {
        physic = timestamp;
        physicUpdates.incrementAndGet();
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
