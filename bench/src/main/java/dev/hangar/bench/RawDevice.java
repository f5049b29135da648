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
 * offsets, each followed by {@code fdatasync} (the floor of a sync-flushed put), and (2) 1 MiB sequential writes,
 * each followed by {@code fdatasync} (the ceiling of flushed bytes per second). Measured in the same run as the
 * engines so they can be printed as a fraction of it.
 *
 * @param fsyncsPerSecond  4 KiB write + fdatasync pairs per second
 * @param fsyncMedianNanos median latency of one such pair
 * @param sequentialMbPerSecond 1 MiB write + fdatasync, in 10^6 bytes per second
 */
public record RawDevice(double fsyncsPerSecond, long fsyncMedianNanos, double sequentialMbPerSecond) {
    private static final int SMALL = 4096;
    private static final int SMALL_COUNT = 500;
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
            return new RawDevice(fsyncs, latencies[SMALL_COUNT / 2], mbs);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
