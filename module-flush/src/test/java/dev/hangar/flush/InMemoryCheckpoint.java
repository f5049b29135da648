package dev.hangar.flush;

import dev.hangar.spi.flush.MemoryCheckpoint;
import java.util.concurrent.atomic.AtomicInteger;

/** A checkpoint in memory; counts how often the physic timestamp was set. */
final class InMemoryCheckpoint extends MemoryCheckpoint {
    final AtomicInteger physicUpdates = new AtomicInteger();

    @Override
    public void physicMsgTimestamp(long timestamp) {
        super.physicMsgTimestamp(timestamp);
        physicUpdates.incrementAndGet();
    }
}
