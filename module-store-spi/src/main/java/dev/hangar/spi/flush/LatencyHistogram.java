package dev.hangar.spi.flush;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The one latency histogram of the project: durations in any unit (the caller names it: the store's and the flush
 * service's histograms hold microseconds, the benchmarks' may hold nanoseconds) in log-linear buckets.
 *
 * <pre>
 *   values 0..63          one bucket each (exact)
 *   [2^e, 2^(e+1)), e>=6  64 equal sub-buckets of width 2^(e-6)
 * </pre>
 *
 * A percentile is the top of its bucket, so it is at most 1/64 (1.6 %) above the true value and never below it,
 * whatever the run length, in a fixed 29 KiB. {@link #max()}, {@link #sum()} and {@link #count()} are exact. No
 * bucket straddles a power of two, so {@link #cumulativeBelowPowerOfTwo} (Prometheus' {@code le} buckets) is exact.
 *
 * <p>Thread-safe and allocation-free when recording: the store's histograms are shared by every putting thread.
 * Benchmarks give each thread its own and {@link #add merge} them after joining, which avoids contention.
 */
public final class LatencyHistogram {
    private static final int SUB_BUCKET_BITS = 6;
    private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    /** Exact values 0..63, then 64 sub-buckets for each exponent 6..62. */
    private static final int BUCKETS = SUB_BUCKETS + (63 - SUB_BUCKET_BITS) * SUB_BUCKETS;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final LongAdder count = new LongAdder();
    private final LongAdder sum = new LongAdder();
    private final LongAccumulator max = new LongAccumulator(Math::max, 0);

    /** Records one value; a negative value (a clock step) counts as 0. */
    public void record(long value) {
        long v = Math.max(0, value);
        counts.incrementAndGet(index(v));
        count.increment();
        sum.add(v);
        max.accumulate(v);
    }

    /** Adds every value of {@code other} (per-thread histograms merged after the threads are joined). */
    public void add(LatencyHistogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            long c = other.counts.get(i);
            if (c != 0) {
                counts.addAndGet(i, c);
            }
        }
        count.add(other.count.sum());
        sum.add(other.sum.sum());
        max.accumulate(other.max.get());
    }

    static int index(long v) {
        if (v < SUB_BUCKETS) {
            return (int) v;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(v);
        int shift = exponent - SUB_BUCKET_BITS;
        int sub = (int) (v >>> shift) - SUB_BUCKETS;
        return SUB_BUCKETS + shift * SUB_BUCKETS + sub;
    }

    /** The largest value that falls in bucket {@code index}. */
    static long highestIn(int index) {
        if (index < SUB_BUCKETS) {
            return index;
        }
        int shift = (index - SUB_BUCKETS) / SUB_BUCKETS;
        long sub = (index - SUB_BUCKETS) % SUB_BUCKETS + SUB_BUCKETS;
        return ((sub + 1) << shift) - 1;
    }

    public long count() {
        return count.sum();
    }

    public long max() {
        return max.get();
    }

    public long sum() {
        return sum.sum();
    }

    public double mean() {
        long n = count.sum();
        return n == 0 ? 0 : (double) sum.sum() / n;
    }

    /** The value at quantile {@code q} in [0, 1] (the top of its bucket, never above the max); 0 when empty. */
    public long percentile(double q) {
        long n = count.sum();
        if (n == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * n));
        long seen = 0;
        long top = max.get();
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts.get(i);
            if (seen >= rank) {
                return Math.min(top, highestIn(i));
            }
        }
        return top;
    }

    /** Count of values below 2^i (so at most 2^i - 1), for Prometheus {@code le} buckets; every value when i >= 63. */
    public long cumulativeBelowPowerOfTwo(int i) {
        if (i < 0) {
            throw new IllegalArgumentException("power of two must be 0..63, was " + i);
        }
        int last = i >= 63 ? BUCKETS - 1 : index((1L << i) - 1);
        long c = 0;
        for (int b = 0; b <= last; b++) {
            c += counts.get(b);
        }
        return c;
    }
}
