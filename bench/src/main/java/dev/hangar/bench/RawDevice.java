package dev.hangar.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * What the device under the store directory does without any store: (1) a loop of 4 KiB writes at increasing
 * offsets, each followed by {@code fdatasync} (the floor of a sync-flushed put), (2) the same with writes of
 * {@link #GROUP_BYTES}, the bodies alone of one group commit of 16 closed-loop 1 KiB puts (the least such a group
 * must make durable, so 16 over its latency bounds that workload from above), and (3) 1 MiB sequential writes,
 * each followed by {@code fdatasync} (the ceiling of flushed bytes per second). Measured in the same run as the
 * engines so they can be printed as a fraction of it.
 *
 * @param fsyncsPerSecond  4 KiB write + fdatasync pairs per second
 * @param fsyncMedianNanos median latency of one such pair
 * @param sequentialMbPerSecond 1 MiB write + fdatasync, in 10^6 bytes per second
 * @param groupFsyncMedianNanos median latency of a {@link #GROUP_BYTES} write + fdatasync
 */
public record RawDevice(double fsyncsPerSecond, long fsyncMedianNanos, double sequentialMbPerSecond,
                        long groupFsyncMedianNanos) {
    /** 16 bodies of 1 KiB: what one group commit of the 16-thread closed loop writes, headers not counted. */
    public static final int GROUP_BYTES = 16 * 1024;
    private static final int SMALL = 4096;
    private static final int SMALL_COUNT = 500;
    private static final int GROUP_COUNT = 200;
    private static final int LARGE = 1 << 20;
    private static final int LARGE_COUNT = 128;

    /** Measures in a temporary file under {@code dir}, deleted afterwards. */
    public static RawDevice measure(Path dir) throws IOException {
        Path file = Files.createTempFile(dir, "hangar-bench-raw-", ".dat");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer small = ByteBuffer.allocateDirect(SMALL);
            long[] latencies = new long[SMALL_COUNT];
            long begin = System.nanoTime();
            for (int i = 0; i < SMALL_COUNT; i++) {
                long t0 = System.nanoTime();
                small.clear();
                while (small.hasRemaining()) {
                    ch.write(small, (long) i * SMALL + small.position());
                }
                ch.force(false);
                latencies[i] = System.nanoTime() - t0;
            }
            double fsyncs = SMALL_COUNT * 1e9 / (System.nanoTime() - begin);
            Arrays.sort(latencies);
            ByteBuffer large = ByteBuffer.allocateDirect(LARGE);
            long base = (long) SMALL_COUNT * SMALL;
            begin = System.nanoTime();
            for (int i = 0; i < LARGE_COUNT; i++) {
                large.clear();
                while (large.hasRemaining()) {
                    ch.write(large, base + (long) i * LARGE + large.position());
                }
                ch.force(false);
            }
            double mbs = (double) LARGE_COUNT * LARGE * 1e3 / (System.nanoTime() - begin);
            ByteBuffer group = ByteBuffer.allocateDirect(GROUP_BYTES);
            long[] groupLatencies = new long[GROUP_COUNT];
            base += (long) LARGE_COUNT * LARGE;
            for (int i = 0; i < GROUP_COUNT; i++) {
                long t0 = System.nanoTime();
                group.clear();
                while (group.hasRemaining()) {
                    ch.write(group, base + (long) i * GROUP_BYTES + group.position());
                }
                ch.force(false);
                groupLatencies[i] = System.nanoTime() - t0;
            }
            Arrays.sort(groupLatencies);
            return new RawDevice(fsyncs, latencies[SMALL_COUNT / 2], mbs, groupLatencies[GROUP_COUNT / 2]);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
