package dev.hangar.store.clean;

import dev.hangar.spi.mapped.MappedFileQueue;
import java.time.Clock;
import java.time.ZonedDateTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention of the CommitLog, RocketMQ's rules: a pass deletes files when the hour is one of {@code deleteWhen},
 * when the disk is past {@code diskMaxUsedSpaceRatio}, or while a manual clean has passes left. It deletes files
 * older than {@code fileReservedTime} (or, past {@code diskSpaceCleanForciblyRatio} with
 * {@code cleanFileForciblyEnable}, any file), oldest first, never the newest file (the one being written), stopping
 * at the first file that must stay and after {@value RetentionPolicy#MAX_FILES_PER_PASS} files.
 *
 * <p>The clock gives the hour of day (its zone) and the pace of retrying a file a reader still held
 * ({@code redeleteHangedFileInterval}); tests pass a fixed clock. A file's age is judged by the file queue against
 * the file's modification time.
 *
 * <p>Thread-safety: passes are serialised; {@link #requestManualPasses} from any thread.
 */
public final class CleanCommitLogService {
    private static final Logger LOG = LoggerFactory.getLogger(CleanCommitLogService.class);

    /**
     * What one pass did.
     *
     * @param deleted          files deleted
     * @param timeUp           the hour was in deleteWhen
     * @param spaceToDelete    the disk was past diskMaxUsedSpaceRatio
     * @param cleanImmediately unexpired files could go (disk past the clean-forcibly level and allowed)
     * @param manual           the pass was one of a manual clean's
     */
    public record PassResult(int deleted, boolean timeUp, boolean spaceToDelete, boolean cleanImmediately,
                             boolean manual) {
        static final PassResult IDLE = new PassResult(0, false, false, false, false);

        /** True when the pass looked for files to delete. */
        public boolean ran() {
            return timeUp || spaceToDelete || manual;
        }
    }

    private final MappedFileQueue commitLogQueue;
    private final DiskSpaceMonitor disk;
    private final RetentionPolicy policy;
    private final Clock clock;
    private volatile int manualPassesLeft;
    private volatile long lastRedeleteMillis;
    private volatile long totalDeleted;
    private volatile PassResult lastPass = PassResult.IDLE;
    /** The lowest offset a replication peer still needs ({@code ReplicationService.retainFrom}). */
    private final java.util.function.LongSupplier retainFrom;
    private long reportedHeldAt = -1;

    public CleanCommitLogService(MappedFileQueue commitLogQueue, DiskSpaceMonitor disk, RetentionPolicy policy,
                                 Clock clock) {
        this(commitLogQueue, disk, policy, clock, () -> Long.MAX_VALUE);
    }

    /** @param retainFrom the lowest offset a replication peer still needs: files holding it or later are kept */
    public CleanCommitLogService(MappedFileQueue commitLogQueue, DiskSpaceMonitor disk, RetentionPolicy policy,
                                 Clock clock, java.util.function.LongSupplier retainFrom) {
        this.retainFrom = retainFrom;
        this.commitLogQueue = commitLogQueue;
        this.disk = disk;
        this.policy = policy;
        this.clock = clock;
        this.lastRedeleteMillis = clock.millis();
    }

    /** The next {@code passes} passes delete expired files whatever the hour (RocketMQ's executeDeleteFilesManually). */
    public void requestManualPasses(int passes) {
        manualPassesLeft = passes;
        LOG.info("manual clean requested: the next {} retention passes delete expired commit-log files", passes);
    }

    public int manualPassesLeft() {
        return manualPassesLeft;
    }

    public long totalDeleted() {
        return totalDeleted;
    }

    public PassResult lastPass() {
        return lastPass;
    }

    /** One scheduled pass: delete what the rules allow, then retry a file an earlier pass could not delete. */
    public synchronized PassResult run() {
        PassResult result = deleteExpiredFiles();
        redeleteHangedFile();
        return result;
    }

    /** Deletes expired (or, when the disk is nearly full, any) files as the rules say; at most one batch. */
    public synchronized PassResult deleteExpiredFiles() {
        DiskSpaceMonitor.DiskState state = disk.check();
        boolean timeUp = policy.deleteHours().contains(ZonedDateTime.now(clock).getHour());
        boolean manual = manualPassesLeft > 0;
        if (!timeUp && !state.spaceToDelete() && !manual) {
            lastPass = PassResult.IDLE;
            return lastPass;
        }
        if (manual) {
            manualPassesLeft--;
        }
        boolean atOnce = policy.cleanFileForciblyEnable() && state.cleanImmediately();
        int batch = RetentionPolicy.MAX_FILES_PER_PASS;
        long needed = retainFrom.getAsLong();
        if (needed != Long.MAX_VALUE) {
            int free = filesWhollyBelow(needed);
            if (atOnce && free < batch) {
                LOG.error("the disk is nearly full ({}): deleting commit-log files a replication peer still needs "
                        + "(it has the log only up to {}); that peer must be rebuilt from a copy of this store",
                        state.usage().describe(), needed);
            } else if (free < batch) {
                if (free == 0 && reportedHeldAt != needed) {
                    reportedHeldAt = needed;
                    LOG.warn("retention keeps the commit-log files from offset {}: a replication peer still needs them",
                            needed);
                }
                batch = free;
            }
        }
        int deleted = batch == 0 ? 0 : commitLogQueue.deleteExpiredFileByTime(policy.fileReservedMillis(),
                policy.deleteFilesIntervalMillis(), policy.destroyIntervalForciblyMillis(), atOnce, batch);
        PassResult result = new PassResult(deleted, timeUp, state.spaceToDelete(), atOnce, manual);
        if (deleted > 0) {
            totalDeleted += deleted;
            LOG.info("deleted {} commit-log files (time up: {}, disk: {}, forcibly: {}, manual: {}); the log now "
                    + "starts at {}", deleted, timeUp, state.usage().describe(), atOnce, manual,
                    commitLogQueue.getMinOffset());
            disk.check(); // space was freed: let writes resume now rather than at the next periodic check
        } else if (state.spaceToDelete()) {
            LOG.warn("the disk is filling ({}) but no commit-log file could be deleted: none has expired (fileReservedTime "
                    + "{} h){}", state.usage().describe(), policy.fileReservedMillis() / 3_600_000L,
                    policy.cleanFileForciblyEnable() ? "" : " and cleanFileForciblyEnable is false");
        }
        lastPass = result;
        return result;
    }

    /** How many of the oldest files end at or before {@code offset} (deleting them loses no byte a peer needs). */
    private int filesWhollyBelow(long offset) {
        int n = 0;
        for (var file : commitLogQueue.mappedFiles()) {
            if (file.fileFromOffset() + file.fileSize() > offset) {
                break;
            }
            n++;
        }
        return n;
    }

    /** Every redeleteHangedFileInterval: retry deleting a first file that a reader kept alive. */
    public synchronized boolean redeleteHangedFile() {
        long now = clock.millis();
        if (now - lastRedeleteMillis < policy.redeleteHangedFileIntervalMillis()) {
            return false;
        }
        lastRedeleteMillis = now;
        return commitLogQueue.retryDeleteFirstFile(policy.destroyIntervalForciblyMillis());
    }
}
