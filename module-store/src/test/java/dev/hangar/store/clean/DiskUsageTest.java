package dev.hangar.store.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.store.service.RunningFlags;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Disk use is counted as {@code df} counts it, whatever the file system reserves for root. */
class DiskUsageTest {
    private static final long GIB = 1L << 30;

    @TempDir
    Path dir;

    @Test
    void blocksReservedForRootCountNeitherAsUsedNorAsAvailable() {
        // statfs of the machine this was found on: 252 GiB, 223 GiB free, 72 GiB available -> df says 28 %
        DiskUsage usage = new DiskUsage(252 * GIB, 223 * GIB, 72 * GIB);
        assertEquals(29.0 / (29 + 72), usage.usedRatio(), 1e-9);
        assertEquals(101 * GIB, usage.capacityBytes());
    }

    @Test
    void withoutReservedBlocksTheRatioIsUsedOverTotal() {
        DiskUsage usage = new DiskUsage(100 * GIB, 40 * GIB);
        assertEquals(0.60, usage.usedRatio(), 1e-9);
        assertEquals(0.30, DiskUsage.ofRatio(0.30).usedRatio(), 1e-6);
    }

    @Test
    void aPartitionFullForEveryoneButRootIsFull() {
        assertEquals(1.0, new DiskUsage(100 * GIB, 5 * GIB, 0).usedRatio(), 1e-9);
    }

    @Test
    void anUnmeasurablePartitionIsUnknown() {
        assertEquals(-1, DiskUsage.UNKNOWN.usedRatio());
    }

    @Test
    void retentionDoesNotCleanForciblyAPartitionThatDfShowsHalfEmpty() {
        // 12 GiB used, 10 GiB available, 78 GiB reserved for root
        DiskUsage reservedHeavy = new DiskUsage(100 * GIB, 88 * GIB, 10 * GIB);
        DiskSpaceMonitor monitor = new DiskSpaceMonitor(dir, path -> reservedHeavy, new RunningFlags(),
                RetentionPolicy.from(StoreConfig.defaults()));
        DiskSpaceMonitor.DiskState state = monitor.check();
        assertEquals(12.0 / 22, reservedHeavy.usedRatio(), 1e-9);
        assertFalse(state.cleanImmediately(), "df shows 55 %, below diskSpaceCleanForciblyRatio 85 %");
        assertFalse(state.full());
        assertTrue(1.0 - (double) reservedHeavy.usableBytes() / reservedHeavy.totalBytes() > 0.85,
                "the old count (1 - usable / total = 90 %) would have deleted files at once");
    }
}
