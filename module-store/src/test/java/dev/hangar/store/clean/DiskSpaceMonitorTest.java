package dev.hangar.store.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.store.service.RunningFlags;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskSpaceMonitorTest {
    private static final RetentionPolicy DEFAULTS = RetentionPolicy.from(StoreConfig.defaults());

    @TempDir
    Path dir;

    private final RunningFlags flags = new RunningFlags();

    private DiskSpaceMonitor monitor(DiskUsageProbe probe) {
        return new DiskSpaceMonitor(dir, probe, flags, DEFAULTS);
    }

    @Test
    void theThresholdsAreRocketMqs() {
        DiskSpaceMonitor m = monitor(DiskUsageProbe.fixedRatio(0.70));
        DiskSpaceMonitor.DiskState ok = m.check();
        assertFalse(ok.spaceToDelete() || ok.cleanImmediately() || ok.full());

        m.useProbe(DiskUsageProbe.fixedRatio(0.80));
        DiskSpaceMonitor.DiskState filling = m.check();
        assertTrue(filling.spaceToDelete(), "past diskMaxUsedSpaceRatio 75%");
        assertFalse(filling.cleanImmediately());

        m.useProbe(DiskUsageProbe.fixedRatio(0.87));
        DiskSpaceMonitor.DiskState urgent = m.check();
        assertTrue(urgent.cleanImmediately(), "past diskSpaceCleanForciblyRatio 85%");
        assertFalse(urgent.full());
        assertTrue(flags.isWritable());

        m.useProbe(DiskUsageProbe.fixedRatio(0.93));
        assertTrue(m.check().full(), "past diskSpaceWarningLevelRatio 90%");
        assertFalse(flags.isWritable());
    }

    @Test
    void emptyToFullSetsDiskFullWithTheRatioAndPathAndFullToEmptyClearsIt() {
        DiskSpaceMonitor m = monitor(DiskUsageProbe.fixedRatio(0.10));
        m.check();
        assertEquals(0, flags.bits());
        m.useProbe(DiskUsageProbe.fixedRatio(0.95));
        m.check();
        assertEquals(RunningFlags.DISK_FULL, flags.bits() & RunningFlags.DISK_FULL, "DISK_FULL is bit 1<<4");
        assertTrue(flags.reason().contains("95.0%"), flags.reason());
        assertTrue(flags.reason().contains(dir.toString()), flags.reason());
        m.useProbe(DiskUsageProbe.fixedRatio(0.10));
        m.check();
        assertEquals(0, flags.bits());
        assertNull(flags.reason());
    }

    @Test
    void anUnmeasurableDiskCountsAsFillingButNeverBlocksWrites() {
        DiskSpaceMonitor m = monitor(path -> {
            throw new IllegalStateException("statfs failed");
        });
        DiskSpaceMonitor.DiskState s = m.check();
        assertTrue(s.spaceToDelete(), "as RocketMQ: a negative ratio means delete expired files");
        assertFalse(s.full());
        assertTrue(flags.isWritable());
    }

    @Test
    void appendsThatSpendTheBudgetCheckTheDiskWithoutWaitingForTheTimer() {
        long total = 10_000_000;
        AtomicLong usable = new AtomicLong(2_000_000);
        DiskSpaceMonitor m = monitor(path -> new DiskUsage(total, usable.get()));
        m.check();
        assertTrue(flags.isWritable());
        // 1 MB to the 90% line: appends of 100 KB spend it in about nine appends
        for (int i = 0; i < 8; i++) {
            usable.addAndGet(-100_000);
            m.onAppended(100_000);
        }
        assertTrue(flags.isWritable(), "80% + 8 x 1% used: still below 90%");
        for (int i = 0; i < 3; i++) {
            usable.addAndGet(-100_000);
            m.onAppended(100_000);
        }
        assertFalse(flags.isWritable(), "the append crossing 90% found out at once: " + flags.reason());
    }

    @Test
    void aFileThatCannotBeCreatedForLackOfSpaceSetsDiskFull() {
        DiskSpaceMonitor m = monitor(path -> new DiskUsage(10_000, 2_000));
        assertTrue(m.onFileCreationFailed(4096));
        assertTrue(flags.reason().contains("could not be created"), flags.reason());

        RunningFlags other = new RunningFlags();
        DiskSpaceMonitor roomy = new DiskSpaceMonitor(dir, DiskUsageProbe.fixedRatio(0.10), other, DEFAULTS);
        assertFalse(roomy.onFileCreationFailed(4096), "with room on disk the failure has another cause");
        assertTrue(other.isWritable());
    }

    @Test
    void aFaultingMappedWriteSetsDiskFullWithTheReason() {
        monitor(DiskUsageProbe.fixedRatio(0.99)).onWriteFault(
                new InternalError("a fault occurred in an unsafe memory access operation"));
        assertFalse(flags.isWritable());
        assertTrue(flags.reason().contains("unsafe memory access"), flags.reason());
    }
}
