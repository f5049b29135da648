package dev.hangar.store.clean;

/**
 * Space of one file system partition, as measured at one moment. Immutable.
 *
 * <p>The used share is counted as {@code df} counts it: used blocks over used + available blocks. Blocks the file
 * system reserves (ext4 keeps 5 % for root by default, some machines far more) are neither: counting them as used
 * (1 - usable / total) made a partition that {@code df} shows 27 % full look 70 % full, so retention deleted
 * CommitLog files early; counting them as free (RocketMQ's (total - free) / total) hides a disk that is full for
 * every process but root.
 *
 * @param totalBytes  size of the partition; 0 when it could not be measured
 * @param freeBytes   unallocated bytes, the reserved blocks included
 * @param usableBytes bytes this process may still write (the reserved blocks excluded)
 */
public record DiskUsage(long totalBytes, long freeBytes, long usableBytes) {
    /** A measurement that failed. */
    public static final DiskUsage UNKNOWN = new DiskUsage(0, 0, 0);

    /** A partition without reserved blocks: every free byte is usable. */
    public DiskUsage(long totalBytes, long usableBytes) {
        this(totalBytes, usableBytes, usableBytes);
    }

    /** Used share of the partition in [0, 1] as {@code df} shows it, or -1 when unknown. */
    public double usedRatio() {
        if (totalBytes <= 0 || usableBytes < 0 || freeBytes < 0) {
            return -1;
        }
        long used = Math.max(0, totalBytes - Math.max(freeBytes, usableBytes));
        long capacity = used + usableBytes;
        return capacity == 0 ? 1.0 : Math.min(1.0, (double) used / capacity);
    }

    /** The bytes {@link #usedRatio} counts against: used + usable, the partition less its reserved blocks. */
    public long capacityBytes() {
        return Math.max(0, totalBytes - Math.max(freeBytes, usableBytes)) + usableBytes;
    }

    /** A partition of 1 GiB used to {@code ratio}: for tests that simulate a filling disk. */
    public static DiskUsage ofRatio(double ratio) {
        long total = 1L << 30;
        return new DiskUsage(total, Math.round(total * (1.0 - ratio)));
    }

    /** "87.5% of 2.0 MiB used, 256.0 KiB usable". */
    public String describe() {
        if (usedRatio() < 0) {
            return "unknown disk use";
        }
        return String.format(java.util.Locale.ROOT, "%.1f%% of %s used, %s usable", usedRatio() * 100,
                human(totalBytes), human(usableBytes));
    }

    private static String human(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(java.util.Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
