package dev.hangar.store.clean;

import dev.hangar.store.service.RunningFlags;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the partition holding the store and keeps {@link RunningFlags#DISK_FULL} in step with it: set past
 * {@code diskSpaceWarningLevelRatio} (puts are then refused with SERVICE_NOT_AVAILABLE and the reason), cleared
 * below it, so the store takes writes again by itself once space is freed. It also tells the retention pass how
 * urgent deleting is ({@link DiskState}).
 *
 * <p>Checked every second by the retention service and, near the limit, from the put path: CommitLog files are
 * sparse, so the space they take grows with every append and a burst could otherwise fill the disk between two
 * periodic checks (a write into a mapped page the file system cannot back is a SIGBUS, not an IOException).
 * After each check the monitor keeps a byte budget, the distance to the warning level; appends spend it (with an
 * allowance for the pages the dispatchers touch) and the append that exhausts it runs the next check at once.
 *
 * <p>Thread-safety: thread-safe; {@link #check()} is serialised, {@link #onAppended} is lock-free until the
 * budget runs out.
 */
public final class DiskSpaceMonitor {
    private static final Logger LOG = LoggerFactory.getLogger(DiskSpaceMonitor.class);
    /** Pages an append may make the dispatchers touch besides its own bytes (ConsumeQueue unit, index slot and entry). */
    static final long APPEND_ALLOWANCE_BYTES = 2 * 4096;

    /**
     * The outcome of one check.
     *
     * @param usage            what was measured
     * @param full             past the warning level: puts are refused
     * @param cleanImmediately past the clean-forcibly level (or full): delete even unexpired files if allowed
     * @param spaceToDelete    past diskMaxUsedSpaceRatio, or unmeasurable: delete expired files at any hour
     */
    public record DiskState(DiskUsage usage, boolean full, boolean cleanImmediately, boolean spaceToDelete) {
    }

    private final Path path;
    private final RunningFlags flags;
    private final RetentionPolicy policy;
    private final AtomicLong appendBudget = new AtomicLong();
    private final AtomicBoolean checkingFromPut = new AtomicBoolean();
    private volatile DiskUsageProbe probe;
    private volatile DiskState last;
    private volatile boolean warnedUnknown;

    /**
     * @param path   a directory on the partition to watch (the CommitLog directory)
     * @param probe  how to measure it ({@link DiskUsageProbe#fileSystem()} outside tests)
     * @param flags  the store's flags, whose DISK_FULL bit this monitor owns
     * @param policy the thresholds
     */
    public DiskSpaceMonitor(Path path, DiskUsageProbe probe, RunningFlags flags, RetentionPolicy policy) {
        this.path = path;
        this.probe = probe;
        this.flags = flags;
        this.policy = policy;
    }

    public Path path() {
        return path;
    }

    /** Replaces the probe (tests simulating a filling disk; tools); the next check uses it. */
    public void useProbe(DiskUsageProbe replacement) {
        this.probe = java.util.Objects.requireNonNull(replacement, "probe");
    }

    /** The last check's outcome, or null before the first. */
    public DiskState lastState() {
        return last;
    }

    /** Measures now, sets or clears DISK_FULL, and returns how urgent cleaning is. */
    public synchronized DiskState check() {
        DiskUsage usage;
        try {
            usage = probe.measure(path);
        } catch (RuntimeException e) {
            LOG.warn("cannot measure the disk space of {}: {}", path, e.toString());
            usage = DiskUsage.UNKNOWN;
        }
        double ratio = usage.usedRatio();
        boolean full = ratio > policy.warningPercent() / 100.0;
        boolean cleanImmediately = full || ratio > policy.cleanForciblyPercent() / 100.0;
        boolean spaceToDelete = ratio < 0 || ratio > policy.diskMaxUsedPercent() / 100.0;
        if (ratio < 0) {
            if (!warnedUnknown) {
                warnedUnknown = true;
                LOG.warn("the disk use of {} cannot be measured: expired files are deleted at any hour, DISK_FULL is "
                        + "left as it is", path);
            }
        } else if (full) {
            flags.set(RunningFlags.DISK_FULL, String.format(Locale.ROOT, "disk full: %s of the partition holding %s "
                            + "is past diskSpaceWarningLevelRatio %d%%; puts are refused until space is freed",
                    usage.describe(), path, policy.warningPercent()));
        } else {
            if ((flags.bits() & RunningFlags.DISK_FULL) != 0) {
                LOG.info("disk use of {} is back below {}% ({}): taking writes again", path, policy.warningPercent(),
                        usage.describe());
            }
            flags.clear(RunningFlags.DISK_FULL);
        }
        DiskState previous = last;
        if (cleanImmediately && !full && (previous == null || !previous.cleanImmediately())) {
            LOG.warn("disk use of {} is past diskSpaceCleanForciblyRatio {}% ({}): {}", path,
                    policy.cleanForciblyPercent(), usage.describe(), policy.cleanFileForciblyEnable()
                            ? "the next retention pass deletes files even before they expire"
                            : "but cleanFileForciblyEnable is false, so only expired files are deleted");
        }
        appendBudget.set(bytesBeforeWarningLevel(usage));
        DiskState state = new DiskState(usage, full, cleanImmediately, spaceToDelete);
        last = state;
        return state;
    }

    private long bytesBeforeWarningLevel(DiskUsage usage) {
        if (usage.usedRatio() < 0) {
            return Long.MAX_VALUE / 2;
        }
        long reserve = (long) (usage.capacityBytes() * (1.0 - policy.warningPercent() / 100.0));
        return Math.max(0, usage.usableBytes() - reserve);
    }

    /** Spends the budget for {@code bytes} appended; the append that exhausts it checks the disk at once. */
    public void onAppended(long bytes) {
        if (appendBudget.addAndGet(-(bytes + APPEND_ALLOWANCE_BYTES)) < 0 && checkingFromPut.compareAndSet(false, true)) {
            try {
                check();
            } finally {
                checkingFromPut.set(false);
            }
        }
    }

    /**
     * An append could not get a new CommitLog file of {@code fileSize} bytes. When the partition is full or cannot
     * hold such a file, sets DISK_FULL with that reason and returns true; otherwise the failure has another cause
     * and the flags are left alone.
     */
    public boolean onFileCreationFailed(long fileSize) {
        DiskState state = check();
        if (state.full()) {
            return true;
        }
        long usable = state.usage().usableBytes();
        if (state.usage().usedRatio() >= 0 && usable < fileSize) {
            flags.set(RunningFlags.DISK_FULL, "disk full: a new commit-log file of " + fileSize + " bytes could not be "
                    + "created and only " + usable + " bytes are usable on the partition holding " + path);
            return true;
        }
        return false;
    }

    /**
     * A write into a mapped file faulted: the file system could not back the page (a SIGBUS, surfaced by the JVM as
     * an {@link InternalError} "unsafe memory access"), which on a sparse file means the partition is full. The one
     * place that recognises it, for the put path and the replicated appends alike.
     */
    public static boolean isMappedWriteFault(Throwable fault) {
        return fault instanceof InternalError && fault.getMessage() != null
                && fault.getMessage().contains("unsafe memory access");
    }

    /** A fault {@link #isMappedWriteFault} recognised: sets DISK_FULL with the reason. */
    public void onWriteFault(Throwable fault) {
        DiskUsage usage;
        try {
            usage = probe.measure(path);
        } catch (RuntimeException e) {
            usage = DiskUsage.UNKNOWN;
        }
        flags.set(RunningFlags.DISK_FULL, "disk full: a write into a mapped file under " + path + " failed ("
                + fault.getMessage() + "); the file system could not back the page (" + usage.describe() + ")");
    }
}
