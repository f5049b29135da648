package dev.hangar.flush;

import dev.hangar.spi.flush.StoreHealth;
import java.util.concurrent.atomic.AtomicInteger;

/** Remembers every markNotWritable call. */
final class RecordingStoreHealth implements StoreHealth {
    final AtomicInteger marks = new AtomicInteger();
    volatile String reason;
    volatile Throwable cause;

    @Override
    public void markNotWritable(String reason, Throwable cause) {
        this.reason = reason;
        this.cause = cause;
        marks.incrementAndGet();
    }

    @Override
    public boolean isWritable() {
        return marks.get() == 0;
    }
}
