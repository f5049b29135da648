package dev.hangar.store.clean;

import java.nio.file.Path;

/**
 * Measures the partition holding a path. The default asks the file system ({@link java.io.File#getTotalSpace()},
 * {@link java.io.File#getFreeSpace()}, {@link java.io.File#getUsableSpace()}); tests inject a fixed ratio to simulate a filling disk.
 * Implementations must be thread-safe and cheap (called every second and, near the limit, from puts).
 */
@FunctionalInterface
public interface DiskUsageProbe {

    /** The partition's space now; {@link DiskUsage#UNKNOWN} when it cannot be measured. */
    DiskUsage measure(Path path);

    /** The real file system. */
    static DiskUsageProbe fileSystem() {
        return path -> {
            java.io.File f = path.toFile();
            long total = f.getTotalSpace();
            return total <= 0 ? DiskUsage.UNKNOWN : new DiskUsage(total, f.getFreeSpace(), f.getUsableSpace());
        };
    }

    /** Always the same ratio, for tests. */
    static DiskUsageProbe fixedRatio(double ratio) {
        DiskUsage usage = DiskUsage.ofRatio(ratio);
        return path -> usage;
    }
}
