package dev.hangar.spi.flush;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * A lock-free histogram of durations in microseconds with power-of-two buckets (bucket i holds values below
 * 2^i µs). Percentiles are the upper bound of the bucket they fall in: exact enough for operations, no
 * allocation when recording.
 */
public final class LatencyHistogram {
    private static final int BUCKETS = 40;
    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final LongAdder total = new LongAdder();
    private final LongAdder sum = new LongAdder();
    private volatile long max;

    public void recordMicros(long micros) {
        long v = Math.max(0, micros);
        int bucket = Math.min(BUCKETS - 1, 64 - Long.numberOfLeadingZeros(v));
        counts.incrementAndGet(bucket);
        total.increment();
        sum.add(v);
        if (v > max) {
            synchronized (this) {
                if (v > max) {
                    max = v;
                }
            }
        }
    }

    public long count() {
        return total.sum();
    }

    public long maxMicros() {
        return max;
    }

    public double meanMicros() {
        long n = total.sum();
        return n == 0 ? 0 : (double) sum.sum() / n;
    }

    /** Upper bound (µs) of the bucket holding quantile {@code q} in [0,1]; 0 when empty. */
    public long percentileMicros(double q) {
        long n = total.sum();
        if (n == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * n);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts.get(i);
            if (seen >= rank) {
                return Math.min(max, i == 0 ? 0 : (1L << i) - 1);
            }
        }
        return max;
    }

    /** Cumulative count of values below 2^i µs, for Prometheus {@code le} buckets. */
    public long cumulativeBelowPowerOfTwo(int i) {
        long c = 0;
        for (int b = 0; b <= Math.min(i, BUCKETS - 1); b++) {
            c += counts.get(b);
        }
        return c;
    }

    public long sumMicros() {
        return sum.sum();
    }
}
