package dev.hangar.launcher.command;

/**
 * Latencies in microseconds in log-linear buckets (the HdrHistogram layout): values below 64 are kept exactly;
 * above, every power of two is split in 64 sub-buckets, so a percentile is off by less than 1/64 (1.6 %) of its
 * value, whatever the run length, in a fixed 30 KiB. {@link #max()} and {@link #mean()} are exact.
 *
 * <p>Not thread-safe: each putting thread records into its own recorder, and they are {@link #add merged} after the
 * threads are joined.
 */
final class LatencyRecorder {
    private static final int SUB_BUCKET_BITS = 6;
    private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    /** Exact values 0..63, then 64 sub-buckets for each exponent 6..62. */
    private static final int BUCKETS = SUB_BUCKETS + (63 - SUB_BUCKET_BITS) * SUB_BUCKETS;

    private final long[] counts = new long[BUCKETS];
    private long count;
    private long sum;
    private long max;

    void record(long micros) {
        long v = Math.max(0, micros);
        counts[index(v)]++;
        count++;
        sum += v;
        max = Math.max(max, v);
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

    /** Adds every value of {@code other}. */
    void add(LatencyRecorder other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        count += other.count;
        sum += other.sum;
        max = Math.max(max, other.max);
    }

    long count() {
        return count;
    }

    long max() {
        return max;
    }

    double mean() {
        return count == 0 ? 0 : (double) sum / count;
    }

    /** The value at quantile {@code q} in [0, 1] (the top of its bucket, never above the max); 0 when empty. */
    long percentile(double q) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * count));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(max, highestIn(i));
            }
        }
        return max;
    }
}
