package dev.hangar.store;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.CommitLogLookup;
import dev.hangar.spi.dispatch.DispatcherContext;
import dev.hangar.store.assembly.PluginFolderLoader;
import dev.hangar.store.assembly.StoreAssembly;
import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.commitlog.CommitLogFlushTarget;
import dev.hangar.store.dispatch.DispatcherChain;
import dev.hangar.store.offsets.ConsumerOffsetSnapshots;
import dev.hangar.store.offsets.OffsetRecordFormat;
import dev.hangar.store.put.DelayLevels;
import dev.hangar.store.reput.PluginDispatch;
import dev.hangar.store.reput.ReputMessageService;
import dev.hangar.store.service.RunningFlags;
import dev.hangar.store.service.StoreStats;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How {@link StoreRuntime} builds the store's dispatch: the dispatcher chain from the assembly's providers (each
 * created with its plugin's class loader), and the reput service that feeds it, with the thread count
 * {@code dispatchThreads} asks for and the wake-ups that fit the flush and replication in use. Kept apart from
 * StoreRuntime as {@link ReplicationWiring} is, so the opening order stays readable there.
 */
final class DispatchWiring {
    private static final Logger LOG = LoggerFactory.getLogger(DispatchWiring.class);

    private DispatchWiring() {
    }

    /** Creates every dispatcher the assembly names, in its order, and loads their files. */
    static DispatcherChain dispatchers(StoreAssembly assembly, DispatcherContext context,
                                       RunningFlags flags) {
        List<DispatcherChain.Entry> entries = new ArrayList<>();
        assembly.dispatchers().forEach((name, p) -> entries.add(DispatcherChain.entry(name, p,
                PluginFolderLoader.withContextLoaderOf(p, () -> p.create(context)))));
        DispatcherChain chain = new DispatcherChain(entries, flags);
        chain.load();
        return chain;
    }

    /** What a dispatcher may ask of the CommitLog: a record's store time and the log's bounds. */
    static CommitLogLookup lookup(CommitLog commitLog) {
        return new CommitLogLookup() {
            @Override
            public long storeTimestampAt(long commitLogOffset, int size) {
                return commitLog.storeTimestampAt(commitLogOffset, size);
            }

            @Override
            public long minOffset() {
                return commitLog.getMinOffset();
            }

            @Override
            public long maxOffset() {
                return commitLog.getMaxOffset();
            }
        };
    }

    /**
     * The reput service over {@code dispatchers}, reading the CommitLog up to {@code dispatchableEnd}.
     *
     * @param writtenEnd      the end that flush alone makes readable; when {@code dispatchableEnd} is another
     *                        supplier, a consensus group's commit bounds dispatch and wakes it
     * @param flushTarget     with sync flush, records become dispatchable when forced: the force wakes the dispatch
     *                        thread, not every put
     */
    static ReputMessageService reput(StoreConfig config, CommitLog commitLog, DispatcherChain dispatchers,
                                     LongSupplier dispatchableEnd, LongSupplier writtenEnd, LongSupplier wroteEnd,
                                     DelayLevels delayLevels, StoreStats stats, PluginDispatch plugins,
                                     ConsumerOffsetSnapshots consumerOffsets, CommitLogFlushTarget flushTarget) {
        // a topic deletion's record: the dispatchers forget the topic right there, between its records before and after
        ReputMessageService reput = new ReputMessageService(commitLog, dispatchers, threadPerDispatcher(config),
                dispatchableEnd, wroteEnd, delayLevels, stats, plugins, consumerOffsets::apply,
                OffsetRecordFormat::deletedTopic);
        LOG.info("dispatch: {} thread(s) for the built-in dispatchers (dispatchThreads={}, {} CPUs)",
                reput.threads(), config.get(StoreConfigKeys.DISPATCH_THREADS),
                Runtime.getRuntime().availableProcessors());
        if (config.isSyncFlush()) {
            flushTarget.afterFlush(reput::wakeup);
            reput.wokenByVisibleEnd();
        }
        if (dispatchableEnd != writtenEnd) {
            // records become dispatchable when the group commits them, and the provider says so (committedMoved)
            reput.wokenByCommit();
        }
        return reput;
    }

    /**
     * {@code dispatchThreads}: a thread per built-in dispatcher pays off where they get cores of their own; on one or
     * two CPUs the second thread only competes with the writers and the flush (docs/PERFORMANCE.md 56).
     */
    static boolean threadPerDispatcher(StoreConfig config) {
        return switch (config.get(StoreConfigKeys.DISPATCH_THREADS)) {
            case "per-dispatcher" -> true;
            case "one" -> false;
            default -> Runtime.getRuntime().availableProcessors() >= 4;
        };
    }
}
