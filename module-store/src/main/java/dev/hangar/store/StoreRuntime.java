package dev.hangar.store;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.dispatch.DispatcherContext;
import dev.hangar.spi.dispatch.KeyIndexView;
import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.flush.FlushContext;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.ha.BrokerRole;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.QueueRole;
import dev.hangar.store.assembly.PluginFolderLoader;
import dev.hangar.store.assembly.StoreAssembly;
import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.commitlog.CommitLogFlushTarget;
import dev.hangar.store.commitlog.TopicQueueOffsets;
import dev.hangar.store.clean.CleanCommitLogService;
import dev.hangar.store.clean.CleanConsumeQueueService;
import dev.hangar.store.clean.DiskSpaceMonitor;
import dev.hangar.store.clean.DiskUsageProbe;
import dev.hangar.store.clean.RetentionPolicy;
import dev.hangar.store.clean.RetentionService;
import dev.hangar.store.dispatch.DispatcherChain;
import dev.hangar.store.offsets.ConsumerOffsetFile;
import dev.hangar.store.offsets.ConsumerOffsetSnapshots;
import dev.hangar.store.offsets.ConsumerOffsetTable;
import dev.hangar.store.put.DelayLevels;
import dev.hangar.store.read.MessageReader;
import dev.hangar.store.recovery.CommitLogRecovery;
import dev.hangar.store.recovery.RecoveryReport;
import dev.hangar.store.recovery.StoreNeedsRecoveryException;
import dev.hangar.store.reput.PluginDispatch;
import dev.hangar.store.reput.ReputMessageService;
import dev.hangar.store.service.AbortMarker;
import dev.hangar.store.service.FlushConsumeQueueService;
import dev.hangar.store.service.RunningFlags;
import dev.hangar.store.service.StoreCheckpoint;
import dev.hangar.store.service.StoreLockFile;
import dev.hangar.store.service.StoreStats;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An opened store directory: every running part, built in dependency order by {@link #open} and stopped in
 * reverse by {@link #close}. Opening takes the directory lock first (a second process fails before any file is
 * touched), recovers the CommitLog, truncates and re-dispatches what the dispatchers lack, rebuilds the queue
 * offsets, and only then creates the {@code abort} marker and starts the services.
 */
final class StoreRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoreRuntime.class);
    /** How long a clean shutdown lets third-party dispatchers catch up; they resume from their durable offset. */
    private static final long PLUGIN_CATCH_UP_MILLIS = 10_000;

    private final Path root;
    private final StoreConfig config;
    private final StoreLockFile lockFile;
    private final MappedStorage mappedStorage;
    private final MappedFileQueue commitLogQueue;
    private final CommitLog commitLog;
    private final StoreCheckpoint checkpoint;
    private final RunningFlags flags;
    private final DispatcherChain dispatchers;
    private final FlushCommitLogService flushService;
    private final FlushStatistics flushStatistics;
    private final ReputMessageService reput;
    private final PluginDispatch plugins;
    private final FlushConsumeQueueService flushConsumeQueue;
    private final MessageReader reader;
    private final RecoveryReport recoveryReport;
    private final RetentionService retention;
    private final boolean readOnly;
    private final ReplicationService replication;
    private final ConsumerOffsetSnapshots offsets;

    private StoreRuntime(Builder b) {
        this.root = b.root;
        this.config = b.config;
        this.lockFile = b.lockFile;
        this.mappedStorage = b.mappedStorage;
        this.commitLogQueue = b.commitLogQueue;
        this.commitLog = b.commitLog;
        this.checkpoint = b.checkpoint;
        this.flags = b.flags;
        this.dispatchers = b.dispatchers;
        this.flushService = b.flushService;
        this.flushStatistics = b.flushStatistics;
        this.reput = b.reput;
        this.plugins = b.plugins;
        this.flushConsumeQueue = b.flushConsumeQueue;
        this.reader = b.reader;
        this.recoveryReport = b.report;
        this.retention = b.retention;
        this.readOnly = b.readOnly;
        this.replication = b.replication;
        this.offsets = b.offsets;
    }

    /** Mutable parts while opening, so a failure half-way can close what was opened. */
    private static final class Builder {
        Path root;
        StoreConfig config;
        StoreLockFile lockFile;
        MappedStorage mappedStorage;
        MappedFileQueue commitLogQueue;
        CommitLog commitLog;
        StoreCheckpoint checkpoint;
        RunningFlags flags;
        DispatcherChain dispatchers;
        FlushCommitLogService flushService;
        CommitLogFlushTarget flushTarget;
        FlushStatistics flushStatistics;
        ReputMessageService reput;
        PluginDispatch plugins;
        FlushConsumeQueueService flushConsumeQueue;
        MessageReader reader;
        RecoveryReport report;
        RetentionService retention;
        boolean readOnly;
        ReplicationService replication;
        ConsumerOffsetSnapshots offsets;

        void closeQuietly() {
            try {
                if (replication != null) {
                    replication.shutdown();
                    commitLog.closeReplicaFile();
                }
                if (dispatchers != null) {
                    dispatchers.close();
                }
                if (commitLogQueue != null) {
                    commitLogQueue.shutdown(0);
                }
                if (mappedStorage != null) {
                    mappedStorage.shutdown();
                }
                if (checkpoint != null) {
                    checkpoint.close();
                }
            } catch (RuntimeException e) {
                LOG.warn("while closing a store that failed to open: {}", e.toString());
            } finally {
                if (lockFile != null) {
                    lockFile.close();
                }
            }
        }
    }

    /**
     * @param readOnly true to open without changing anything (see {@link DefaultMessageStore#startReadOnly()}):
     *                 a shared lock, no abort marker, recovery in memory only, nothing re-dispatched, no service
     *                 started; a store that needs recovery is refused with {@link StoreNeedsRecoveryException}
     */
    static StoreRuntime open(StoreConfig config, StoreAssembly assembly, RunningFlags flags, StoreStats stats,
                             DelayLevels delayLevels, InetSocketAddress storeHost, boolean readOnly) {
        Builder b = new Builder();
        b.config = config;
        b.flags = flags;
        b.readOnly = readOnly;
        b.root = Path.of(config.get(StoreConfigKeys.STORE_PATH_ROOT_DIR));
        b.lockFile = readOnly ? StoreLockFile.acquireShared(b.root) : StoreLockFile.acquire(b.root);
        try {
            return openLocked(b, assembly, stats, delayLevels, storeHost);
        } catch (RuntimeException e) {
            b.closeQuietly();
            throw e;
        }
    }

    private static StoreRuntime openLocked(Builder b, StoreAssembly assembly, StoreStats stats,
                                           DelayLevels delayLevels, InetSocketAddress storeHost) {
        long begin = System.currentTimeMillis();
        StoreConfig config = b.config;
        AbortMarker abort = new AbortMarker(b.root);
        boolean lastExitOk = !abort.present();
        if (!lastExitOk && b.readOnly) {
            throw new StoreNeedsRecoveryException("its last shutdown was not clean: " + abort.path()
                    + " exists");
        }
        if (!lastExitOk) {
            LOG.warn("the last shutdown of {} was not clean (abort file found): recovering from the checkpoint", b.root);
        }
        b.mappedStorage = assembly.mappedStorage().create(config);
        if (b.readOnly) {
            b.mappedStorage = new ReadOnlyMappedStorage(b.mappedStorage);
        } else {
            // starts the allocation service, which creates the next CommitLog file ahead
            b.mappedStorage.start();
        }
        b.commitLogQueue = b.mappedStorage.openQueue(b.root.resolve("commitlog"), config.commitLogFileSize(),
                QueueRole.COMMIT_LOG);
        if (!b.commitLogQueue.load(!lastExitOk)) {
            String problem = b.commitLogQueue.loadProblem();
            throw new IllegalStateException("cannot load the commit log in " + b.root.resolve("commitlog") + ": "
                    + (problem != null ? problem + " (mappedFileSizeCommitLog is " + config.commitLogFileSize() + ")"
                    : "a file has the wrong size (is mappedFileSizeCommitLog the one the store was written with?)"));
        }
        TopicQueueOffsets offsets = new TopicQueueOffsets();
        b.commitLog = new CommitLog(b.commitLogQueue, assembly.lock().create(config), offsets, storeHost,
                "concurrent".equals(config.get(StoreConfigKeys.APPEND_MODE)));
        b.checkpoint = new StoreCheckpoint(b.root.resolve("checkpoint"), b.readOnly);

        CommitLog commitLog = b.commitLog;
        DispatcherContext dctx = new DispatcherContext(b.root, config, b.mappedStorage, b.checkpoint,
                DispatchWiring.lookup(commitLog), lastExitOk, b.readOnly);
        b.dispatchers = DispatchWiring.dispatchers(assembly, dctx, b.flags);

        long minTs = config.get(StoreConfigKeys.MESSAGE_INDEX_ENABLE) && config.get(StoreConfigKeys.MESSAGE_INDEX_SAFE)
                ? b.checkpoint.minTimestampIndex() : b.checkpoint.minTimestamp();
        ConsumeQueueView cqView = b.dispatchers.view(ConsumeQueueView.class).orElse(null);
        RecoveryReport report = new CommitLogRecovery(b.commitLogQueue, config.get(StoreConfigKeys.CHECK_CRC_ON_RECOVER),
                cqView == null ? null : cqView::maxOffset, b.readOnly).recover(lastExitOk, minTs,
                b.dispatchers.minDurableOffset(), offsets);
        long end = report.endOffset();
        if (!b.readOnly) {
            b.dispatchers.truncate(end);
        }

        b.flushStatistics = new FlushStatistics();
        b.flushTarget = new CommitLogFlushTarget(b.commitLogQueue);
        b.flushService = assembly.flush().create(new FlushContext(b.flushTarget, config,
                b.checkpoint, b.flags, b.flushStatistics));
        boolean sync = config.isSyncFlush();
        MappedFileQueue q = b.commitLogQueue;
        // the CommitLog's readable end, not the last file's: with a write buffer they differ (CommitLog.getMaxOffset)
        LongSupplier writtenEnd = sync ? q::getFlushedWhere : commitLog::getMaxOffset;
        // a consensus provider's committed offset bounds dispatch too: what a later leader may cut is never read
        Builder built = b;
        b.replication = b.readOnly ? null : ReplicationWiring.create(assembly, b.config, b.mappedStorage, b.commitLog,
                b.flushService, b.flushTarget, () -> built.reput, () -> built.plugins, offsets, cqView,
                () -> built.retention, b.flags);
        ReplicationService consensus = b.replication;
        LongSupplier dispatchableEnd = consensus == null || assembly.replication() == null
                || !assembly.replication().electsWriter() ? writtenEnd
                : () -> Math.min(writtenEnd.getAsLong(), consensus.committedOffset());
        b.plugins = new PluginDispatch(b.dispatchers, commitLog, dispatchableEnd);
        b.offsets = new ConsumerOffsetSnapshots(new ConsumerOffsetTable(), new ConsumerOffsetFile(
                b.root.resolve("config").resolve("consumerOffset.json")),
                config.get(StoreConfigKeys.FLUSH_CONSUMER_OFFSET_INTERVAL));
        b.reput = DispatchWiring.reput(config, commitLog, b.dispatchers, dispatchableEnd, writtenEnd,
                q::getMaxWrotePosition, delayLevels, stats, b.plugins, b.offsets, b.flushTarget);
        long minPhy = Math.max(0, commitLog.getMinOffset());
        long from = Math.min(Math.min(b.dispatchers.minDurableOffset(), end), report.firstUndispatched());
        if (!lastExitOk) {
            from = Math.min(from, report.scanStartOffset());
        }
        if (b.readOnly) {
            // nothing is re-dispatched: what the ConsumeQueues lack stays unreadable until a writer opens the store
            from = Math.min(end, report.firstUndispatched());
        }
        b.reput.reputFromOffset(Math.max(from, minPhy));
        // before the dispatch below applies commit records again: they must land on the loaded table
        b.offsets.recover(commitLog, end, b.readOnly);
        long redispatchBegin = System.nanoTime();
        long redispatched = b.readOnly ? 0 : b.reput.catchUp();
        long redispatchNanos = System.nanoTime() - redispatchBegin;
        if (b.readOnly && b.reput.behindBytes() > 0) {
            LOG.warn("{} bytes of the commit log from offset {} are not dispatched: reads by queue or key miss them "
                    + "until a writing command (put, serve) opens the store", b.reput.behindBytes(), from);
        }
        if (cqView != null) {
            cqView.forEachQueue((topic, queueId, min, max) -> offsets.raise(topic, queueId, max));
        } else {
            LOG.warn("no dispatcher offers a ConsumeQueue view: queue offsets are rebuilt only from the scanned files");
        }
        KeyIndexView keyView = b.dispatchers.view(KeyIndexView.class).orElse(null);
        b.reader = new MessageReader(commitLog, cqView, keyView, config);
        b.report = report.withRedispatched(redispatched, redispatchNanos,
                System.currentTimeMillis() - begin);
        LOG.info("recovered {}: {} files scanned from offset {}, {} messages, log ends at {}, {} files dropped, "
                        + "{} messages re-dispatched in {} ms by {} thread(s), {} ms in all{}", b.root,
                report.filesScanned(), report.scanStartOffset(), report.messagesScanned(), end, report.filesDropped(),
                redispatched, redispatchNanos / 1_000_000, b.reput.threads(), b.report.millis(),
                report.truncatedAtReason() == null ? "" : " (" + report.truncatedAtReason() + ")");

        if (b.readOnly) {
            b.retention = newRetention(b);
            return new StoreRuntime(b);
        }
        startReplication(b, assembly);
        new AbortMarker(b.root).create();
        b.flushService.start();
        b.plugins.start(end, b.reput::prepare);
        b.reput.start();
        b.offsets.start(b.reput::offsetsAppliedThrough);
        b.flushConsumeQueue = new FlushConsumeQueueService(b.dispatchers, b.checkpoint,
                config.get(StoreConfigKeys.FLUSH_INTERVAL_CONSUME_QUEUE),
                config.get(StoreConfigKeys.FLUSH_CONSUME_QUEUE_LEAST_PAGES),
                config.get(StoreConfigKeys.FLUSH_CONSUME_QUEUE_THOROUGH_INTERVAL));
        b.flushConsumeQueue.start();
        b.retention = newRetention(b);
        b.retention.start();
        return new StoreRuntime(b);
    }

    /** Starts the replication service before any other service, so a busy port fails the open cleanly. */
    private static void startReplication(Builder b, StoreAssembly assembly) {
        if (b.replication == null) {
            return;
        }
        PluginFolderLoader.runWithContextLoaderOf(assembly.replication(), b.replication::start);
        if (assembly.role() != BrokerRole.SLAVE && b.mappedStorage.usesWriteBuffer()) {
            b.flushTarget.afterCommit(b.replication::readableEndMoved);
        }
    }

    /** Retention and the disk watch; the first disk check runs now, so a store opened on a full disk refuses puts. */
    private static RetentionService newRetention(Builder b) {
        RetentionPolicy policy = RetentionPolicy.from(b.config);
        Path watched = Files.isDirectory(b.commitLogQueue.directory()) ? b.commitLogQueue.directory() : b.root;
        DiskSpaceMonitor disk = new DiskSpaceMonitor(watched, DiskUsageProbe.fileSystem(), b.flags, policy);
        disk.check();
        CommitLog commitLog = b.commitLog;
        ReplicationService replication = b.replication;
        return new RetentionService(new CleanCommitLogService(b.commitLogQueue, disk, policy, Clock.systemDefaultZone(),
                () -> replication == null ? Long.MAX_VALUE : replication.retainFrom()),
                new CleanConsumeQueueService(commitLog::getMinOffset, b.dispatchers), disk, policy);
    }

    /** Stops every service, flushes everything, and removes the abort marker when the store is consistent. */
    @Override
    public void close() {
        if (readOnly) {
            closeReadOnly();
            return;
        }
        if (replication != null) {
            // first: a slave stops appending, a master completes its waiting puts before the log goes away
            replication.shutdown();
            commitLog.closeReplicaFile();
        }
        retention.shutdown();
        // flush first: under sync flush only flushed data may be dispatched, and puts that did not wait for
        // their flush (WAIT=false, delayed re-puts) would otherwise stay undispatched and keep the abort file
        flushService.shutdown();
        reput.shutdown(10_000);
        if (reput.behindBytes() > 0) {
            reput.catchUp();
        }
        plugins.shutdown(PLUGIN_CATCH_UP_MILLIS);
        offsets.close();
        flushConsumeQueue.shutdown();
        dispatchers.close();
        long behind = reput.behindBytes();
        boolean clean = flags.isWritable() && behind == 0;
        commitLogQueue.shutdown(config.get(StoreConfigKeys.DESTROY_MAPPED_FILE_INTERVAL_FORCIBLY));
        mappedStorage.shutdown();
        checkpoint.close();
        if (clean) {
            new AbortMarker(root).remove();
        } else {
            LOG.warn("shutting down with {} bytes not dispatched or the store not writable ({}): the abort file stays "
                    + "and the next start recovers as after a crash", behind, flags.reason());
        }
        lockFile.close();
        LOG.info("store {} shut down{}", root, clean ? " cleanly" : "");
    }

    /** Nothing was started and nothing is written: the mappings are released and the shared lock dropped. */
    private void closeReadOnly() {
        try {
            dispatchers.closeWithoutWriting();
            commitLogQueue.shutdown(0);
            mappedStorage.shutdown();
            checkpoint.close();
        } finally {
            if (lockFile != null) {
                lockFile.close();
            }
        }
        LOG.info("store {} closed (opened read-only)", root);
    }

    /** True when opened read-only: no service runs and puts are refused. */
    public boolean readOnly() {
        return readOnly;
    }

    public Path root() {
        return root;
    }

    public CommitLog commitLog() {
        return commitLog;
    }

    public StoreCheckpoint checkpoint() {
        return checkpoint;
    }

    public DispatcherChain dispatchers() {
        return dispatchers;
    }

    public FlushCommitLogService flushService() {
        return flushService;
    }

    public FlushStatistics flushStatistics() {
        return flushStatistics;
    }

    public ReputMessageService reput() {
        return reput;
    }

    /** The third-party dispatchers, each on its own thread. */
    public PluginDispatch plugins() {
        return plugins;
    }

    public MessageReader reader() {
        return reader;
    }

    public MappedStorage mappedStorage() {
        return mappedStorage;
    }

    public RecoveryReport recoveryReport() {
        return recoveryReport;
    }

    /** The replication service, or null when this store replicates nothing. */
    public ReplicationService replication() {
        return replication;
    }

    /** The consumer-offset table and its file. */
    public ConsumerOffsetSnapshots offsets() {
        return offsets;
    }

    /** Retention passes and the disk-space watch. */
    public RetentionService retention() {
        return retention;
    }
}
