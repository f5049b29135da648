package dev.hangar.store;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.ha.BrokerRole;
import dev.hangar.spi.ha.ReplicationStatus;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.ConsumerOffsets;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.MessageArrivingListener;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.spi.store.QueryMessageResult;
import dev.hangar.store.assembly.ProviderRegistry;
import dev.hangar.store.assembly.StoreAssembly;
import dev.hangar.store.format.MessageIdCodec;
import dev.hangar.store.offsets.ConsumerOffsetService;
import dev.hangar.store.offsets.OffsetRecordFormat;
import dev.hangar.store.put.DelayLevels;
import dev.hangar.store.put.PendingPut;
import dev.hangar.store.put.PutCompletion;
import dev.hangar.store.put.StoredPut;
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

/**
 * Hangar's {@link MessageStore}: puts go through the {@link PutPipeline} (admission, encoding, CommitLog append,
 * the wait for the flush service), reads through the dispatchers' views. Assembled from configuration: every pluggable part is a
 * provider selected by name in the constructor (which touches no file); {@link #start()} opens the directory
 * ({@link StoreRuntime}), recovers and starts the services.
 */
public final class DefaultMessageStore implements MessageStore {
    private final StoreConfig config;
    private final StoreAssembly assembly;
    private final InetSocketAddress storeHost;
    private final DelayLevels delayLevels;
    private final StoreStats stats = new StoreStats();
    private final RunningFlags flags = new RunningFlags();
    private volatile StoreRuntime runtime;
    private volatile boolean shutdown;
    private volatile ScheduleMessageService schedule;
    private volatile ConsumerOffsetService consumerOffsets;
    private final BrokerRole role;
    private final PutPipeline puts;

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
        this.role = assembly.role();
        PutAdmission admission = new PutAdmission(role, config.get(StoreConfigKeys.HA_MASTER_ADDRESS), flags,
                config.get(StoreConfigKeys.OS_PAGE_CACHE_BUSY_TIMEOUT_MILLS));
        this.puts = new PutPipeline(admission, new PutCompletion(stats, flags, offsetIds(storeHost)), flags, delayLevels, storeHost,
                config.get(StoreConfigKeys.MAX_MESSAGE_SIZE), config.get(StoreConfigKeys.MAX_DISPATCH_BEHIND_BYTES),
                config.get(StoreConfigKeys.SYNC_FLUSH_TIMEOUT), stats, () -> shutdown);
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
        consumerOffsets = new ConsumerOffsetService(runtime.offsets().table(),
                new StoreQueueBounds(runtime.dispatchers().view(dev.hangar.spi.dispatch.ConsumeQueueView.class)
                        .orElse(null)), this::putInternal);
        // a slave copies its master's re-puts of delayed messages; it never re-puts them itself
        if (!readOnly && role.isMaster()
                && runtime.dispatchers().view(dev.hangar.spi.dispatch.ConsumeQueueView.class).isPresent()) {
            schedule = new ScheduleMessageService(this, delayLevels,
                    new DelayOffsetFile(runtime.root().resolve("config").resolve("delayOffset.json")),
                    config.get(StoreConfigKeys.FLUSH_DELAY_OFFSET_INTERVAL), this::leadsItsGroup);
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

    /**
     * The consensus group this store belongs to (a {@code raft} node): who leads and where, each peer's progress, and
     * the online changes to the group; empty for a lone store or a fixed master/slave role.
     */
    public java.util.Optional<dev.hangar.spi.ha.ConsensusGroup> consensus() {
        StoreRuntime rt = runtime;
        return rt == null || rt.replication() == null ? java.util.Optional.empty() : rt.replication().consensus();
    }

    /** True unless this store is a node of a consensus group that does not lead it now (its puts are refused). */
    boolean leadsItsGroup() {
        return replicationPutRefusal() == null;
    }

    /**
     * Why the replication provider has this store take no puts now (a {@code raft} node that is not the ready
     * leader), or null when it takes them or runs no such provider: the same check the store makes on every put, so
     * cheap; the HTTP API reads it on every write to redirect it to the leader before reading its body.
     */
    public String replicationPutRefusal() {
        StoreRuntime rt = runtime;
        return rt == null || rt.replication() == null ? null : rt.replication().putRefusal();
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

    /**
     * Deletes every queue of {@code topic}, as RocketMQ's {@code deleteTopics}: its ConsumeQueues (files and
     * directories) and every consumer group's committed offsets of it are dropped, and later puts to the topic start
     * again at queue offset 0. The CommitLog keeps the messages' bytes until retention deletes their files (a lookup
     * by message id or key still finds them). A record in the CommitLog carries the deletion, so recovery and every
     * replica apply it at the same place in the log (see {@link TopicDeletion}). Returns when the deletion is durable
     * as a put under the flush mode and dispatched: reads of the topic find no queue.
     *
     * @return the number of queues the topic had
     * @throws IllegalArgumentException         {@code topic} is not a valid topic name or is one of the store's own
     * @throws java.util.NoSuchElementException the store has no queue of {@code topic}
     * @throws IllegalStateException            the store is not started, read-only, a slave, or refused the record
     */
    public int deleteTopic(String topic) {
        StoreRuntime rt = readable();
        if (rt.readOnly()) {
            throw new IllegalStateException("the store is open read-only: a topic cannot be deleted");
        }
        return new TopicDeletion(rt, puts).delete(topic);
    }

    /** The store's figures, typed, for {@code stat}, {@code /v1/stats} and {@code /metrics}; see {@link StatsSnapshot#toMap()}. */
    public StatsSnapshot statsSnapshot() {
        return StatsCollector.of(this);
    }

    /** The offset message ids of this store's records (host and port of {@code storeHost}, then the offset). */
    private static dev.hangar.spi.store.MessageIdSource offsetIds(InetSocketAddress storeHost) {
        byte[] prefix = MessageIdCodec.hostPrefix(storeHost);
        return offset -> MessageIdCodec.create(prefix, offset);
    }

    // ------------------------------------------------------------------ puts

    /**
     * Refuses puts to the consumer-offset topic: its records are written by {@link #consumerOffsets()} only. Takes
     * the message itself, not a list of one: a put allocates nothing but its result.
     */
    private static PutMessageResult reservedTopic(Message message) {
        return message != null && OffsetRecordFormat.isInternal(message.topic())
                ? PutMessageResult.refused(PutMessageStatus.MESSAGE_ILLEGAL, "topic " + message.topic()
                + " is reserved for consumer offsets; commit through the consumer-offset API") : null;
    }

    private static PutMessageResult reservedTopic(List<Message> batch) {
        if (batch != null) {
            for (Message m : batch) {
                PutMessageResult refused = reservedTopic(m);
                if (refused != null) {
                    return refused;
                }
            }
        }
        return null;
    }

    /** The put path of commit records: one put or one batch, waiting as a put with waitStoreMsgOk does. */
    private PutMessageResult putInternal(List<Message> records) {
        long begin = System.nanoTime();
        StoreRuntime rt = runtime;
        long cuts = rt.commitLog().cuts();
        PutMessageResult appended = records.size() == 1 ? puts.appendOne(rt, records.get(0), begin, false)
                : puts.appendBatch(rt, records, begin, false);
        return appended instanceof StoredPut r ? puts.awaitDurable(rt, r, true, begin, cuts) : appended;
    }

    @Override
    public ConsumerOffsets consumerOffsets() {
        ConsumerOffsetService c = consumerOffsets;
        if (c == null || shutdown) {
            throw new IllegalStateException("the store is not started");
        }
        return c;
    }

    @Override
    public PutMessageResult putMessage(Message message) {
        PutMessageResult reserved = reservedTopic(message);
        if (reserved != null) {
            return reserved;
        }
        long begin = System.nanoTime();
        StoreRuntime rt = runtime;
        long cuts = rt.commitLog().cuts();
        PutMessageResult appended = puts.appendOne(rt, message, begin, false);
        return appended instanceof StoredPut r ? puts.awaitDurable(rt, r, message.waitStoreMsgOk(), begin, cuts)
                : appended;
    }

    @Override
    public PutMessageResult putMessages(List<Message> batch) {
        PutMessageResult reserved = reservedTopic(batch);
        if (reserved != null) {
            return reserved;
        }
        long begin = System.nanoTime();
        StoreRuntime rt = runtime;
        long cuts = rt.commitLog().cuts();
        PutMessageResult appended = puts.appendBatch(rt, batch, begin, false);
        return appended instanceof StoredPut r ? puts.awaitDurable(rt, r, batch.get(0).waitStoreMsgOk(), begin, cuts)
                : appended;
    }

    @Override
    public CompletableFuture<PutMessageResult> asyncPutMessage(Message message) {
        PutMessageResult reserved = reservedTopic(message);
        if (reserved != null) {
            return CompletableFuture.completedFuture(reserved);
        }
        long begin = System.nanoTime();
        StoreRuntime rt = runtime;
        long cuts = rt.commitLog().cuts();
        PutMessageResult appended = puts.appendOne(rt, message, begin, true);
        return appended instanceof PendingPut p ? puts.whenDurable(rt, p, message.waitStoreMsgOk(), begin, cuts)
                : CompletableFuture.completedFuture(appended);
    }

    @Override
    public CompletableFuture<PutMessageResult> asyncPutMessages(List<Message> batch) {
        PutMessageResult reserved = reservedTopic(batch);
        if (reserved != null) {
            return CompletableFuture.completedFuture(reserved);
        }
        long begin = System.nanoTime();
        StoreRuntime rt = runtime;
        long cuts = rt.commitLog().cuts();
        PutMessageResult appended = puts.appendBatch(rt, batch, begin, true);
        return appended instanceof PendingPut p ? puts.whenDurable(rt, p, batch.get(0).waitStoreMsgOk(), begin, cuts)
                : CompletableFuture.completedFuture(appended);
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
