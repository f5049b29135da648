package dev.hangar.store.clean;

/**
 * Space of one file system partition, as measured at one moment. Immutable.
 *
 * @param totalBytes  size of the partition; 0 when it could not be measured
 * @param usableBytes bytes this process may still write
 */
public record DiskUsage(long totalBytes, long usableBytes) {
    /** A measurement that failed. */
    public static final DiskUsage UNKNOWN = new DiskUsage(0, 0);

    /** Used share of the partition in [0, 1], or -1 when unknown (as RocketMQ's getDiskPartitionSpaceUsedPercent). */
    public double usedRatio() {
        if (totalBytes <= 0 || usableBytes < 0) {
            return -1;
        }
        return Math.min(1.0, Math.max(0.0, 1.0 - (double) usableBytes / totalBytes));
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
