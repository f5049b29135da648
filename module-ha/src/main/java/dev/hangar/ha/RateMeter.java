package dev.hangar.ha;

import java.util.concurrent.atomic.AtomicLong;

/** Bytes moved, and their rate over the time since the previous reading (at least one second apart). */
final class RateMeter {
    private final AtomicLong total = new AtomicLong();
    private long sampleNanos = System.nanoTime();
    private long sampleTotal;
    private long rate;

    void add(long bytes) {
        total.addAndGet(bytes);
    }

    long total() {
        return total.get();
    }

    synchronized long bytesPerSecond() {
        long now = System.nanoTime();
        long elapsed = now - sampleNanos;
        if (elapsed >= 1_000_000_000L) {
            long t = total.get();
            rate = (t - sampleTotal) * 1_000_000_000L / elapsed;
            sampleTotal = t;
            sampleNanos = now;
        }
        return rate;
    }
}
