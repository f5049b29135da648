package dev.hangar.dispatch.support;

import dev.hangar.spi.flush.MemoryCheckpoint;
import java.util.concurrent.atomic.AtomicInteger;

/** A checkpoint kept in memory that counts its flushes. Thread-safe. */
public final class InMemoryCheckpoint extends MemoryCheckpoint {
    private final AtomicInteger flushes = new AtomicInteger();

    @Override
    public void flush() {
        flushes.incrementAndGet();
    }

    public int flushes() {
        return flushes.get();
    }
}
