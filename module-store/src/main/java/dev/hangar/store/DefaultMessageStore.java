package dev.hangar.store;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.ha.BrokerRole;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.ha.ReplicationStatus;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageSysFlag;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.MessageArrivingListener;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.spi.store.QueryMessageResult;
import dev.hangar.store.assembly.ProviderRegistry;
import dev.hangar.store.assembly.StoreAssembly;
import dev.hangar.store.format.MessageEncoder;
import dev.hangar.store.format.MessageIdCodec;
import dev.hangar.store.put.DelayLevels;
import dev.hangar.store.put.MessageValidator;
import dev.hangar.store.schedule.DelayOffsetFile;
import dev.hangar.store.schedule.ScheduleMessageService;
import dev.hangar.store.service.LauncherAccess;
import dev.hangar.store.service.RunningFlags;
import dev.hangar.store.service.StoreStats;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Hangar's {@link MessageStore}: checks and encodes puts, appends them to the CommitLog, hands them to the flush
 * service, and reads through the dispatchers' views. Assembled from configuration: every pluggable part is a
 * provider selected by name in the constructor (which touches no file); {@link #start()} opens the directory
 * ({@link StoreRuntime}), recovers and starts the services.
 */
public final class DefaultMessageStore implements MessageStore {
    private static final long JOIN_GRACE_MILLIS = 30_000;
    private static final long DISPATCH_WAIT_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long DISPATCH_WAIT_STEP_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private final StoreConfig config;
    private final StoreAssembly assembly;
    private final InetSocketAddress storeHost;
    private final DelayLevels delayLevels;
    private final int maxMessageSize;
    private final long pageCacheBusyMillis;
    private final long maxDispatchBehind;
    private final StoreStats stats = new StoreStats();
    private final RunningFlags flags = new RunningFlags();
    private volatile StoreRuntime runtime;
    private volatile boolean shutdown;
    private volatile ScheduleMessageService schedule;
    private final BrokerRole role;
    /** Puts a slave refused; the warning is logged once per {@link #SLAVE_REFUSAL_LOG_EVERY}. */
    private final java.util.concurrent.atomic.AtomicLong slaveRefusals = new java.util.concurrent.atomic.AtomicLong();
    private static final long SLAVE_REFUSAL_LOG_EVERY = 50_000;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DefaultMessageStore.class);

    /**
     * @param config the configuration; file sizes left at their defaults take the sizes of the store's existing
     *               files ({@link StoreGeometry}), and explicit sizes that contradict them fail here
     */
    public DefaultMessageStore(StoreConfig config, ProviderRegistry registry) {
        config = StoreGeometry.resolve(config);
        this.config = config;
        this.assembly = StoreAssembly.select(config, registry);
        this.storeHost = parseHost(config.get(StoreConfigKeys.STORE_HOST));
        this.delayLevels = new DelayLevels(config.get(StoreConfigKeys.MESSAGE_DELAY_LEVEL));
        this.maxMessageSize = config.get(StoreConfigKeys.MAX_MESSAGE_SIZE);
        this.pageCacheBusyMillis = config.get(StoreConfigKeys.OS_PAGE_CACHE_BUSY_TIMEOUT_MILLS);
        this.maxDispatchBehind = config.get(StoreConfigKeys.MAX_DISPATCH_BEHIND_BYTES);
        this.role = assembly.role();
        LauncherAccess.register(this, flags, stats);
    }

    /** A store with the built-in providers found on the class or module path and no plugins folder. */
    public DefaultMessageStore(StoreConfig config) {
        this(config, ProviderRegistry.discover(null));
    }

    private static InetSocketAddress parseHost(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
        int port = Integer.parseInt(hostPort.substring(colon + 1));
        return new InetSocketAddress(host, port);
    }

    @Override
    public synchronized void start() {
        open(false);
    }

    /**
     * Opens the store for reading only, changing nothing in the directory: a shared lock (refused while a writer
     * has the store open, and a writer is refused meanwhile), no {@code abort} marker, the log end found in memory
     * without zeroing or truncating, nothing re-dispatched, no file pre-allocated and no service started. Puts are
     * refused. A store whose last shutdown was not clean is refused with
     * {@link dev.hangar.store.recovery.StoreNeedsRecoveryException}: recovering it is a writer's job.
     */
    public synchronized void startReadOnly() {
        open(true);
    }

    private void open(boolean readOnly) {
        if (runtime != null) {
            return;
        }
        if (shutdown) {
            throw new IllegalStateException("a shut-down store cannot be started again; create a new one");
        }
        runtime = StoreRuntime.open(config, assembly, flags, stats, delayLevels, storeHost, readOnly);
        // a slave copies its master's re-puts of delayed messages; it never re-puts them itself
        if (!readOnly && role.isMaster()
                && runtime.dispatchers().view(dev.hangar.spi.dispatch.ConsumeQueueView.class).isPresent()) {
            schedule = new ScheduleMessageService(this, delayLevels,
                    new DelayOffsetFile(runtime.root().resolve("config").resolve("delayOffset.json")),
                    config.get(StoreConfigKeys.FLUSH_DELAY_OFFSET_INTERVAL));
            schedule.start();
        }
    }

    /** The delayed-message delivery service, or null (not started, or no ConsumeQueue). */
    ScheduleMessageService scheduleService() {
        return schedule;
    }

    @Override
    public synchronized void shutdown() {
        if (shutdown) {
            return;
        }
        ScheduleMessageService s = schedule;
        if (s != null) {
            s.shutdown();
        }
        shutdown = true;
        StoreRuntime rt = runtime;
        if (rt != null) {
            rt.close();
        }
    }

    public StoreConfig config() {
        return config;
    }

    /** Package-private: the launcher reads it through {@link LauncherAccess}, embedders through {@link #statsSnapshot()}. */
    RunningFlags runningFlags() {
        return flags;
    }

    public BrokerRole role() {
        return role;
    }

    /** Replication as operators see it, or null when this store replicates nothing (or is not started). */
    public ReplicationStatus replicationStatus() {
        StoreRuntime rt = runtime;
        return rt == null || rt.replication() == null ? null : rt.replication().status();
    }

    /** Package-private: the launcher reads it through {@link LauncherAccess}, embedders through {@link #statsSnapshot()}. */
    StoreStats stats() {
        return stats;
    }

    /** Provider names in use: putMessageLock, mappedFile, flushService, dispatchers. */
    public Map<String, String> chosenProviders() {
        return assembly.chosen();
    }

    /** What the last recovery did, or null before start. */
    public StatsSnapshot.Recovery recoveryReport() {
        StoreRuntime rt = runtime;
        return rt == null ? null : StatsCollector.recovery(rt.recoveryReport());
    }

    /** True between {@link #start()} (or {@link #startReadOnly()}) and {@link #shutdown()}. */
    public boolean isStarted() {
        return runtime != null && !shutdown;
    }

    /** True when opened with {@link #startReadOnly()}: puts are refused and nothing is dispatched. */
    public boolean isReadOnly() {
        StoreRuntime rt = runtime;
        return rt != null && rt.readOnly();
    }

    /**
     * What a dispatcher offers to readers, such as {@link dev.hangar.spi.dispatch.ConsumeQueueView} or
     * {@link dev.hangar.spi.dispatch.KeyIndexView}; empty before start or when no configured dispatcher offers it.
     */
    public <V> Optional<V> dispatcherView(Class<V> type) {
        StoreRuntime rt = runtime;
        return rt == null ? Optional.empty() : rt.dispatchers().view(type);
    }

    /** Names of the dispatchers in use, built-in first; empty before start. */
    public List<String> dispatcherNames() {
        StoreRuntime rt = runtime;
        return rt == null ? List.of() : rt.dispatchers().names();
    }

    /** The CommitLog flush counters, live; null before start. */
    public FlushStatistics flushStatistics() {
        StoreRuntime rt = runtime;
        return rt == null ? null : rt.flushStatistics();
    }

    /**
     * The running parts, for this package and, through {@code TestInternals}, this module's tests; null before
     * start. Not API: the engine's API is what {@code module-info.java} exports.
     */
    StoreRuntime runtime() {
        return runtime;
    }

    /**
     * RocketMQ's manual clean: the next 20 retention passes delete expired CommitLog files whatever the hour; the
     * first runs now, on this thread. Returns the CommitLog files that first pass deleted.
     */
    public int executeDeleteFilesManually() {
        if (readable().readOnly()) {
            throw new IllegalStateException("the store is open read-only: files cannot be deleted");
        }
        return readable().retention().executeDeleteFilesManually();
    }

    /** The store's figures, typed, for {@code stat}, {@code /v1/stats} and {@code /metrics}; see {@link StatsSnapshot#toMap()}. */
    public StatsSnapshot statsSnapshot() {
        return StatsCollector.of(this);
    }

    // ------------------------------------------------------------------ puts

    @Override
    public PutMessageResult putMessage(Message message) {
        return join(asyncPutMessage(message));
    }

    @Override
    public PutMessageResult putMessages(List<Message> batch) {
        return join(asyncPutMessages(batch));
    }

    /** Waits for a put, bounded: the flush service's own deadline is syncFlushTimeout, this is the backstop. */
    private PutMessageResult join(CompletableFuture<PutMessageResult> f) {
        try {
            return f.get(config.get(StoreConfigKeys.SYNC_FLUSH_TIMEOUT) + JOIN_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR,
                    "the flush service did not answer within syncFlushTimeout + " + JOIN_GRACE_MILLIS + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR, "interrupted while waiting for the flush");
        } catch (ExecutionException e) {
            return PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR, String.valueOf(e.getCause()));
        }
    }

    @Override
    public CompletableFuture<PutMessageResult> asyncPutMessage(Message message) {
        long begin = System.nanoTime();
        StoreRuntime rt = runtime;
        PutMessageResult refused = checkStore(rt);
        if (refused == null) {
            String problem = MessageValidator.check(message);
            if (problem != null) {
                refused = PutMessageResult.refused(PutMessageStatus.MESSAGE_ILLEGAL, problem);
            }
        }
        if (refused != null) {
            return done(refused, begin, 0);
        }
        Message m = delayLevels.divert(message);
        MessageEncoder encoder = MessageEncoder.forCurrentThread(maxMessageSize);
        PutMessageStatus encoded = encoder.encode(m, storeHost);
        if (encoded != PutMessageStatus.PUT_OK) {
            return done(PutMessageResult.refused(encoded, encoder.failureReason()), begin, 0);
        }
        return append(rt, encoder, m.topic(), m.queueId(), m.sysFlag(), message.waitStoreMsgOk(), begin);
    }

    @Override
    public CompletableFuture<PutMessageResult> asyncPutMessages(List<Message> batch) {
        long begin = System.nanoTime();
        StoreRuntime rt = runtime;
        PutMessageResult refused = checkStore(rt);
        if (refused == null) {
            String problem = MessageValidator.checkBatch(batch);
            if (problem != null) {
                refused = PutMessageResult.refused(PutMessageStatus.MESSAGE_ILLEGAL, problem);
            }
        }
        if (refused != null) {
            return done(refused, begin, 0);
        }
        Message first = batch.get(0);
        MessageEncoder encoder = MessageEncoder.forCurrentThread(maxMessageSize);
        PutMessageStatus encoded = encoder.encodeBatch(batch, storeHost);
        if (encoded != PutMessageStatus.PUT_OK) {
            return done(PutMessageResult.refused(encoded, encoder.failureReason()), begin, 0);
        }
        return append(rt, encoder, first.topic(), first.queueId(), first.sysFlag(), first.waitStoreMsgOk(), begin);
    }

    private CompletableFuture<PutMessageResult> append(StoreRuntime rt, MessageEncoder encoder, String topic,
                                                       int queueId, int sysFlag, boolean waitForFlush, long begin) {
        if (encoder.encodedLength() > rt.commitLog().maxAppendLength()) {
            return done(PutMessageResult.refused(PutMessageStatus.MESSAGE_ILLEGAL, "a record of "
                    + encoder.encodedLength() + " bytes does not fit in a commit-log file of "
                    + rt.commitLog().queue().mappedFileSize() + " bytes"), begin, 0);
        }
        if (maxDispatchBehind > 0 && rt.reput().behindBytes() > maxDispatchBehind) {
            waitForDispatch(rt);
        }
        AppendMessageResult r;
        try {
            r = rt.commitLog().append(encoder, topic, queueId, MessageSysFlag.takesQueueOffset(sysFlag));
        } catch (InternalError e) {
            if (e.getMessage() == null || !e.getMessage().contains("unsafe memory access")) {
                throw e;
            }
            // a SIGBUS on a mapped page: the file system could not back it, the disk is full
            rt.retention().diskMonitor().onWriteFault(e);
            return done(PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR, flags.reason()), begin, 0);
        }
        if (r.status() != AppendMessageStatus.PUT_OK) {
            boolean diskFull = rt.retention().diskMonitor().onFileCreationFailed(rt.commitLog().queue().mappedFileSize());
            // a full disk is the store refusing service (as past the 90% line), not a file-creation bug
            return done(diskFull ? new PutMessageResult(PutMessageStatus.SERVICE_NOT_AVAILABLE, r, flags.reason())
                    : new PutMessageResult(PutMessageStatus.CREATE_MAPPED_FILE_FAILED, r,
                    "could not create a commit-log file (not writable?)"), begin, 0);
        }
        rt.retention().diskMonitor().onAppended(r.wroteBytes());
        rt.reput().wakeup();
        long nextOffset = r.wroteOffset() + r.wroteBytes();
        CompletableFuture<PutMessageStatus> flushed = rt.flushService().handle(nextOffset, waitForFlush);
        ReplicationService replication = rt.replication();
        CompletableFuture<PutMessageStatus> replicated = replication == null
                ? CompletableFuture.completedFuture(PutMessageStatus.PUT_OK)
                : replication.handle(nextOffset, waitForFlush);
        if (flushed.isDone() && replicated.isDone()) {
            PutMessageResult result = outcome(flushed.getNow(PutMessageStatus.UNKNOWN_ERROR),
                    replicated.getNow(PutMessageStatus.UNKNOWN_ERROR), r, replication);
            return done(result, begin, r);
        }
        // flush and replication run side by side; the first failure names the outcome
        return flushed.thenCombine(replicated, (f, h) -> {
            PutMessageResult result = outcome(f, h, r, replication);
            record(result, begin, r);
            return result;
        });
    }

    private PutMessageResult outcome(PutMessageStatus flushed, PutMessageStatus replicated, AppendMessageResult r,
                                     ReplicationService replication) {
        if (flushed != PutMessageStatus.PUT_OK) {
            return new PutMessageResult(flushed, r, "stored, but not flushed within syncFlushTimeout: " + flags.reason());
        }
        if (replicated != PutMessageStatus.PUT_OK) {
            String why = replication == null ? "" : replication.status().problem();
            return new PutMessageResult(replicated, r, replicated == PutMessageStatus.FLUSH_SLAVE_TIMEOUT
                    ? "stored on the master, but no slave acknowledged it within syncFlushTimeout"
                    + (why.isEmpty() ? "" : " (" + why + ")")
                    : "stored on the master, but no slave can take it: " + why);
        }
        return new PutMessageResult(PutMessageStatus.PUT_OK, r);
    }

    /**
     * Back-pressure: when writers outrun the dispatcher by more than {@code maxDispatchBehindBytes}, a put waits
     * (at most {@link #DISPATCH_WAIT_LIMIT_NANOS}) for dispatch to catch up, so the lag stays bounded and messages
     * become readable soon after they are written.
     */
    private void waitForDispatch(StoreRuntime rt) {
        long deadline = System.nanoTime() + DISPATCH_WAIT_LIMIT_NANOS;
        rt.reput().wakeup();
        while (rt.reput().behindBytes() > maxDispatchBehind && System.nanoTime() < deadline && !shutdown) {
            java.util.concurrent.locks.LockSupport.parkNanos(DISPATCH_WAIT_STEP_NANOS);
        }
    }

    private CompletableFuture<PutMessageResult> done(PutMessageResult result, long begin, Object appended) {
        record(result, begin, appended instanceof AppendMessageResult a ? a : null);
        return CompletableFuture.completedFuture(result);
    }

    private void record(PutMessageResult result, long begin, AppendMessageResult appended) {
        int count = appended == null ? 0 : appended.messageCount();
        long bytes = appended == null ? 0 : appended.wroteBytes();
        stats.recordPut(result.status(), count, bytes, (System.nanoTime() - begin) / 1000);
    }

    private PutMessageResult checkStore(StoreRuntime rt) {
        if (shutdown) {
            return PutMessageResult.refused(PutMessageStatus.SERVICE_NOT_AVAILABLE, "the store is shut down");
        }
        if (rt == null) {
            return PutMessageResult.refused(PutMessageStatus.SERVICE_NOT_AVAILABLE, "the store is not started");
        }
        if (rt.readOnly()) {
            return PutMessageResult.refused(PutMessageStatus.SERVICE_NOT_AVAILABLE, "the store is open read-only");
        }
        if (role == BrokerRole.SLAVE) {
            if (slaveRefusals.getAndIncrement() % SLAVE_REFUSAL_LOG_EVERY == 0) {
                LOG.warn("this store is a SLAVE of {}: puts are refused ({} so far)",
                        config.get(StoreConfigKeys.HA_MASTER_ADDRESS), slaveRefusals.get());
            }
            return PutMessageResult.refused(PutMessageStatus.SERVICE_NOT_AVAILABLE, "this store is a SLAVE of "
                    + config.get(StoreConfigKeys.HA_MASTER_ADDRESS) + ": put to the master");
        }
        if (!flags.isWritable()) {
            return PutMessageResult.refused(PutMessageStatus.SERVICE_NOT_AVAILABLE,
                    "the store is not writable: " + flags.reason());
        }
        if (rt.commitLog().lockHeldMillis() > pageCacheBusyMillis) {
            return PutMessageResult.refused(PutMessageStatus.OS_PAGE_CACHE_BUSY,
                    "an append has held the put lock for over " + pageCacheBusyMillis + " ms");
        }
        return null;
    }

    // ------------------------------------------------------------------ reads

    private StoreRuntime readable() {
        StoreRuntime rt = runtime;
        if (rt == null) {
            throw new IllegalStateException("the store is not started");
        }
        return rt;
    }

    @Override
    public GetMessageResult getMessage(String group, String topic, int queueId, long offset, int maxMsgNums,
                                       MessageFilter filter) {
        GetMessageResult r = readable().reader().getMessage(topic, queueId, offset, maxMsgNums, filter);
        // the delay-level service polls every level several times a second: only clients' gets are counted
        if (!ScheduleMessageService.READER_GROUP.equals(group)) {
            stats.recordGet(!r.messages().isEmpty());
        }
        return r;
    }

    @Override
    public long getMinOffsetInQueue(String topic, int queueId) {
        return readable().reader().minOffset(topic, queueId);
    }

    @Override
    public long getMaxOffsetInQueue(String topic, int queueId) {
        return readable().reader().maxOffset(topic, queueId);
    }

    @Override
    public long getOffsetInQueueByTime(String topic, int queueId, long timestamp) {
        return readable().reader().offsetByTime(topic, queueId, timestamp);
    }

    @Override
    public long getMessageStoreTimeStamp(String topic, int queueId, long queueOffset) {
        return readable().reader().storeTimestamp(topic, queueId, queueOffset);
    }

    @Override
    public StoredMessage lookMessageByOffset(long commitLogOffset) {
        if (commitLogOffset < 0) {
            return null;
        }
        return readable().commitLog().lookMessageByOffset(commitLogOffset);
    }

    @Override
    public StoredMessage lookMessageByMsgId(String msgId) {
        MessageIdCodec.Decoded id;
        try {
            id = MessageIdCodec.decode(msgId);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return lookMessageByOffset(id.commitLogOffset());
    }

    @Override
    public QueryMessageResult queryMessage(String topic, String key, int maxNum, long begin, long end) {
        return readable().reader().query(topic, key, maxNum, begin, end);
    }

    @Override
    public long dispatchBehindBytes() {
        return readable().reput().behindBytes();
    }

    @Override
    public long getMinPhyOffset() {
        return readable().commitLog().getMinOffset();
    }

    @Override
    public long getMaxPhyOffset() {
        return readable().commitLog().getMaxOffset();
    }

    @Override
    public void addMessageArrivingListener(MessageArrivingListener listener) {
        readable().reput().addListener(listener);
    }
}
