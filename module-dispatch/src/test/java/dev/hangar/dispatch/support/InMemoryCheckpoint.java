package dev.hangar.dispatch.support;

import dev.hangar.spi.flush.Checkpoint;
import java.util.concurrent.atomic.AtomicInteger;

/** A checkpoint kept in memory that counts its flushes. Thread-safe. */
public final class InMemoryCheckpoint implements Checkpoint {
    private volatile long physic;
    private volatile long logics;
    private volatile long index;
    private final AtomicInteger flushes = new AtomicInteger();

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
        flushes.incrementAndGet();
    }

    public int flushes() {
        return flushes.get();
    }
}
