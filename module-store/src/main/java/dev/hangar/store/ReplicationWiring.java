package dev.hangar.store;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.ha.BrokerRole;
import dev.hangar.spi.ha.ReplicationContext;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.store.assembly.PluginFolderLoader;
import dev.hangar.store.assembly.StoreAssembly;
import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.commitlog.CommitLogFlushTarget;
import dev.hangar.store.commitlog.CommitLogReplicaPort;
import dev.hangar.store.commitlog.TopicQueueOffsets;
import dev.hangar.store.reput.PluginDispatch;
import dev.hangar.store.clean.DiskSpaceMonitor;
import dev.hangar.store.clean.RetentionService;
import dev.hangar.store.reput.ReputMessageService;
import dev.hangar.store.service.RunningFlags;
import java.util.function.Supplier;

/**
 * Builds the replication service over the CommitLog ({@link CommitLogReplicaPort}) while a store opens: before
 * recovery's re-dispatch, because a consensus provider's committed offset bounds it; the dispatcher is made after
 * this, so the port reaches it through suppliers when called.
 */
final class ReplicationWiring {
    private ReplicationWiring() {
    }

    /** The service, not started; null when this store replicates nothing. */
    static ReplicationService create(StoreAssembly assembly, StoreConfig config, MappedStorage mappedStorage,
                                     CommitLog commitLog, FlushCommitLogService flush,
                                     CommitLogFlushTarget flushTarget, Supplier<ReputMessageService> reput,
                                     Supplier<PluginDispatch> plugins, TopicQueueOffsets offsets,
                                     ConsumeQueueView cqView, Supplier<RetentionService> retention,
                                     RunningFlags flags) {
        if (assembly.replication() == null) {
            return null;
        }
        if (assembly.role() == BrokerRole.SLAVE && !mappedStorage.usesWriteBuffer()) {
            // the file is the mapping: replicated bytes go in with pwrite, without first-touch faults
            commitLog.writeReplicasThroughFile();
        }
        // a master's appends in a write buffer become shippable only once committed: a put waiting for its slave
        // asks the committer not to wait for commitCommitLogLeastPages, and each commit wakes the shipping (a put's
        // own wake-up comes before that commit)
        boolean bufferedMaster = assembly.role() != BrokerRole.SLAVE && mappedStorage.usesWriteBuffer();
        CommitLogReplicaPort.Dispatch dispatch = new CommitLogReplicaPort.Dispatch(
                () -> reput.get().publishedOffset(),
                () -> {
                    reput.get().wakeup();
                    plugins.get().wakeup();
                },
                () -> {
                    offsets.resetAll();
                    if (cqView != null) {
                        cqView.forEachQueue((topic, queueId, min, max) -> offsets.raise(topic, queueId, max));
                    }
                });
        CommitLogReplicaPort port = new CommitLogReplicaPort(commitLog, () -> {
            reput.get().wakeup();
            flush.wakeup();
        }, bufferedMaster ? flush::commitThrough : offset -> { }, dispatch, flushTarget, diskWatch(retention, flags));
        // a provider from a plugin folder (Ratis) is created and started with its folder's loader as the thread context
        // class loader; the threads it starts keep it
        return PluginFolderLoader.withContextLoaderOf(assembly.replication(),
                () -> assembly.replication().create(new ReplicationContext(assembly.role(), config, port)));
    }

    /** The store's disk monitor for a replica's appends; made after the port, so reached when called. */
    private static CommitLogReplicaPort.DiskWatch diskWatch(Supplier<RetentionService> retention, RunningFlags flags) {
        return new CommitLogReplicaPort.DiskWatch() {
            @Override
            public String fullReason() {
                return (flags.bits() & RunningFlags.DISK_FULL) == 0 ? null : flags.reason();
            }

            @Override
            public void appended(long bytes) {
                DiskSpaceMonitor m = monitor();
                if (m != null) {
                    m.onAppended(bytes);
                }
            }

            @Override
            public void appendFailed(Throwable fault, long fileSize) {
                DiskSpaceMonitor m = monitor();
                if (m == null) {
                    return;
                }
                // as on the put path (PutPipeline): of the InternalErrors only a SIGBUS on a mapped page says so
                if (DiskSpaceMonitor.isMappedWriteFault(fault)) {
                    m.onWriteFault(fault);
                } else if (!(fault instanceof InternalError)) {
                    m.onFileCreationFailed(fileSize);
                }
            }

            private DiskSpaceMonitor monitor() {
                RetentionService r = retention.get();
                return r == null ? null : r.diskMonitor();
            }
        };
    }
}
