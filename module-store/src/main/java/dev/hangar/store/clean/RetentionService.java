package dev.hangar.store.clean;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs retention: the disk check every second on its own thread (so a long deletion never delays setting or
 * clearing DISK_FULL), and every {@code cleanResourceInterval} a pass of {@link CleanCommitLogService} followed by
 * {@link CleanConsumeQueueService}. The first pass comes after at most a minute (RocketMQ waits a minute), sooner
 * when the interval is shorter. {@link #executeDeleteFilesManually()} runs a pass at once on the caller's thread.
 *
 * <p>Thread-safety: thread-safe; passes are serialised. {@link #shutdown()} interrupts a pass in progress (the
 * file queue stops between two deletions) and waits for the threads.
 */
public final class RetentionService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RetentionService.class);
    static final long DISK_CHECK_INTERVAL_MILLIS = 1000;
    static final long MAX_FIRST_PASS_DELAY_MILLIS = 60_000;
    private static final long SHUTDOWN_WAIT_MILLIS = 10_000;

    private final CleanCommitLogService commitLog;
    private final CleanConsumeQueueService consumeQueues;
    private final DiskSpaceMonitor disk;
    private final RetentionPolicy policy;
    private final ScheduledExecutorService scheduler;
    private volatile long lastPassMillis;
    private final java.util.concurrent.atomic.AtomicLong passes = new java.util.concurrent.atomic.AtomicLong();

    public RetentionService(CleanCommitLogService commitLog, CleanConsumeQueueService consumeQueues,
                            DiskSpaceMonitor disk, RetentionPolicy policy) {
        this.commitLog = commitLog;
        this.consumeQueues = consumeQueues;
        this.disk = disk;
        this.policy = policy;
        AtomicInteger n = new AtomicInteger();
        this.scheduler = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "hangar-retention-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    public DiskSpaceMonitor diskMonitor() {
        return disk;
    }

    public CleanCommitLogService commitLogCleaner() {
        return commitLog;
    }

    public void start() {
        scheduler.scheduleWithFixedDelay(this::checkDisk, DISK_CHECK_INTERVAL_MILLIS, DISK_CHECK_INTERVAL_MILLIS,
                TimeUnit.MILLISECONDS);
        long first = Math.min(MAX_FIRST_PASS_DELAY_MILLIS, policy.cleanIntervalMillis());
        scheduler.scheduleWithFixedDelay(this::scheduledPass, first, policy.cleanIntervalMillis(), TimeUnit.MILLISECONDS);
        LOG.info("retention: files kept {} h, deleted at hours {}, disk limits {}% (clean) / {}% (forcibly) / {}% "
                        + "(refuse puts), a pass every {} ms", policy.fileReservedMillis() / 3_600_000L,
                policy.deleteHours(), policy.diskMaxUsedPercent(), policy.cleanForciblyPercent(),
                policy.warningPercent(), policy.cleanIntervalMillis());
    }

    private void checkDisk() {
        try {
            disk.check();
        } catch (RuntimeException e) {
            LOG.error("disk check failed", e);
        }
    }

    private void scheduledPass() {
        try {
            runPass();
        } catch (RuntimeException e) {
            LOG.error("retention pass failed; the next one is in {} ms", policy.cleanIntervalMillis(), e);
        }
    }

    /** One pass now: CommitLog files, a hanged file, then ConsumeQueue and index data. Returns CommitLog files deleted. */
    public synchronized int runPass() {
        int deleted = commitLog.run().deleted();
        consumeQueues.run();
        lastPassMillis = System.currentTimeMillis();
        passes.incrementAndGet();
        return deleted;
    }

    /** Completed passes (scheduled or not), so a test can wait for "a pass ran and deleted nothing more". */
    public long passes() {
        return passes.get();
    }

    /**
     * RocketMQ's manual clean: the next {@value RetentionPolicy#MANUAL_PASSES} passes (each deleting at most
     * {@value RetentionPolicy#MAX_FILES_PER_PASS} files) delete expired files whatever the hour. The first runs now,
     * on the caller's thread; the rest follow on the schedule.
     *
     * @return CommitLog files deleted by the first pass
     */
    public int executeDeleteFilesManually() {
        commitLog.requestManualPasses(RetentionPolicy.MANUAL_PASSES);
        return runPass();
    }

    public RetentionPolicy policy() {
        return policy;
    }

    /** When the last pass ended (epoch millis), 0 before the first. */
    public long lastPassMillis() {
        return lastPassMillis;
    }

    public void shutdown() {
        scheduler.shutdownNow();
        try {
            if (!scheduler.awaitTermination(SHUTDOWN_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                LOG.warn("retention threads did not stop within {} ms", SHUTDOWN_WAIT_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        shutdown();
    }
}
