package dev.hangar.store;

import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.ha.ReplicationStatus;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.store.clean.CleanCommitLogService;
import dev.hangar.store.clean.DiskSpaceMonitor;
import dev.hangar.store.clean.DiskUsage;
import dev.hangar.store.clean.DiskUsageProbe;
import dev.hangar.store.clean.RetentionPolicy;
import dev.hangar.store.clean.RetentionService;
import dev.hangar.store.recovery.RecoveryReport;
import dev.hangar.store.service.RunningFlags;
import dev.hangar.store.service.StoreStats;
import java.io.File;
import java.util.ArrayList;
import java.util.List;

/** Reads the running parts of a store into a {@link StatsSnapshot}; the only place that knows where each figure lives. */
final class StatsCollector {
    private StatsCollector() {
    }

    static StatsSnapshot of(DefaultMessageStore store) {
        RunningFlags flags = store.runningFlags();
        StoreStats stats = store.stats();
        StatsSnapshot.Puts puts = new StatsSnapshot.Puts(stats.putMessages(), stats.putBytes(), stats.putFailures(),
                StatsSnapshot.Latency.of(stats.putLatency()), stats.getFound(), stats.getMiss(), stats.dispatched());
        String path = store.config().get(StoreConfigKeys.STORE_PATH_ROOT_DIR);
        StoreRuntime rt = store.runtime();
        if (rt == null) {
            return new StatsSnapshot(path, store.chosenProviders(), flags.names(), flags.isWritable(), flags.reason(),
                    puts, false, null, null, null, null, null, null, null, null);
        }
        MappedFileQueue q = rt.commitLog().queue();
        StatsSnapshot.CommitLog commitLog = new StatsSnapshot.CommitLog(rt.commitLog().getMinOffset(),
                rt.commitLog().getMaxOffset(), q.getMaxWrotePosition(), q.getFlushedWhere(), q.getCommittedWhere(),
                q.mappedFiles().size(), q.mappedFileSize(), q.getMappedMemorySize());
        StatsSnapshot.Dispatch dispatch = new StatsSnapshot.Dispatch(rt.reput().reputFromOffset(),
                rt.reput().behindBytes(), stats.dispatched(), stats.dispatchWaits(), stats.dispatchWaitsOutlasted(),
                rt.dispatchers().names(), rt.reput().threads(), rt.dispatchers().failures(), rt.plugins().snapshot());
        return new StatsSnapshot(path, store.chosenProviders(), flags.names(), flags.isWritable(), flags.reason(),
                puts, true, commitLog, dispatch, flush(rt.flushStatistics()),
                queues(rt.dispatchers().view(ConsumeQueueView.class).orElse(null)), disk(rt.root().toFile(),
                rt.retention()), retention(rt.retention()), replication(store),
                store.consensus().map(g -> StatsSnapshot.Raft.of(g.status())).orElse(null),
                recovery(rt.recoveryReport()));
    }

    /** Role, peers, acknowledged offset, lag in bytes and time, throughput; just the role when not replicating. */
    static StatsSnapshot.Replication replication(DefaultMessageStore store) {
        ReplicationStatus s = store.replicationStatus();
        if (s == null) {
            return new StatsSnapshot.Replication(store.role().name(), false, null, null, 0, 0, 0, 0, 0, 0, null);
        }
        return new StatsSnapshot.Replication(store.role().name(), true, s.listenAddress(), s.masterAddress(),
                s.connectedSlaves(), s.ackedOffset(), s.lagBytes(), s.lagMillis(), s.bytesPerSecond(),
                s.rejectedConnections(), s.problem());
    }

    private static StatsSnapshot.Flush flush(FlushStatistics f) {
        return new StatsSnapshot.Flush(f.flushes(), f.flushedBytes(), Math.round(f.bytesPerFlush()), f.flushFailures(),
                f.commits(), f.groupCommits(), Math.round(f.requestsPerGroupCommit() * 100) / 100.0,
                f.groupCommitRequests(), f.requestsThatWaitedMoreThanOneForce(), f.gathers(), f.gathersBoundRanOut(),
                StatsSnapshot.Latency.of(f.fsyncLatency()));
    }

    private static List<StatsSnapshot.QueueRange> queues(ConsumeQueueView view) {
        List<StatsSnapshot.QueueRange> out = new ArrayList<>();
        if (view != null) {
            view.forEachQueue((topic, queueId, min, max) -> out.add(new StatsSnapshot.QueueRange(topic, queueId, min, max)));
        }
        return out;
    }

    private static StatsSnapshot.Disk disk(File root, RetentionService retention) {
        DiskUsage usage = DiskUsageProbe.fileSystem().measure(root.toPath());
        RetentionPolicy policy = retention.policy();
        DiskSpaceMonitor.DiskState s = retention.diskMonitor().lastState();
        return new StatsSnapshot.Disk(usage.totalBytes(), usage.freeBytes(), usage.usableBytes(),
                Math.max(0, usage.usedRatio()), policy.diskMaxUsedPercent(), policy.cleanForciblyPercent(),
                policy.warningPercent(), s == null ? null : s.full(), s == null ? null : s.cleanImmediately(),
                s == null ? null : s.spaceToDelete());
    }

    private static StatsSnapshot.Retention retention(RetentionService retention) {
        RetentionPolicy policy = retention.policy();
        CleanCommitLogService cleaner = retention.commitLogCleaner();
        return new StatsSnapshot.Retention(policy.fileReservedMillis() / 3_600_000L,
                policy.deleteHours().stream().sorted().toList(), policy.cleanIntervalMillis(),
                policy.cleanFileForciblyEnable(), cleaner.totalDeleted(), retention.lastPassMillis(),
                cleaner.lastPass().deleted(), cleaner.manualPassesLeft());
    }

    static StatsSnapshot.Recovery recovery(RecoveryReport r) {
        return r == null ? null : new StatsSnapshot.Recovery(r.abnormal(), r.scanStartOffset(), r.filesScanned(), r.messagesScanned(),
                r.endOffset(), r.filesDropped(), r.redispatched(), r.millis(), r.truncatedAtReason());
    }
}
