package dev.hangar.store.assembly;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.flush.FlushCommitLogServiceProvider;
import dev.hangar.spi.ha.BrokerRole;
import dev.hangar.spi.ha.ReplicationServiceProvider;
import dev.hangar.spi.lock.PutMessageLockProvider;
import dev.hangar.spi.mapped.MappedStorageProvider;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The providers a store is built from, chosen by name from configuration. Selection touches no file: an
 * unknown or duplicate name fails here, before the store directory is opened.
 */
public final class StoreAssembly {
    private static final Logger LOG = LoggerFactory.getLogger(StoreAssembly.class);

    private final PutMessageLockProvider lock;
    private final MappedStorageProvider mappedStorage;
    private final FlushCommitLogServiceProvider flush;
    private final Map<String, CommitLogDispatcherProvider> dispatchers;
    private final BrokerRole role;
    /** The mapped-file variant a slave uses when the configured one keeps a write buffer. */
    static final String SLAVE_MAPPED_FILE = "mmap";
    private final ReplicationServiceProvider replication;

    private StoreAssembly(PutMessageLockProvider lock, MappedStorageProvider mappedStorage,
                          FlushCommitLogServiceProvider flush, Map<String, CommitLogDispatcherProvider> dispatchers,
                          BrokerRole role, ReplicationServiceProvider replication) {
        this.lock = lock;
        this.mappedStorage = mappedStorage;
        this.flush = flush;
        this.dispatchers = dispatchers;
        this.role = role;
        this.replication = replication;
    }

    public static StoreAssembly select(StoreConfig config, ProviderRegistry registry) {
        PutMessageLockProvider lock = registry.select(PutMessageLockProvider.class,
                config.get(StoreConfigKeys.PUT_MESSAGE_LOCK), StoreConfigKeys.PUT_MESSAGE_LOCK.name());
        MappedStorageProvider mapped = registry.select(MappedStorageProvider.class,
                config.get(StoreConfigKeys.MAPPED_FILE), StoreConfigKeys.MAPPED_FILE.name());
        BrokerRole role = BrokerRole.valueOf(config.get(StoreConfigKeys.BROKER_ROLE));
        if (role == BrokerRole.SLAVE && mapped.needsCommitService()) {
            // a write buffer holds appends out of the file (and out of maxOffset) until committed: a slave could
            // neither acknowledge what it received nor check that the next frame continues it
            LOG.warn("brokerRole=SLAVE: {}={} keeps appends in a write buffer until they are committed, which a slave "
                    + "cannot work with; using {}={} (as RocketMQ 4.x ignores transientStorePoolEnable on a slave)",
                    StoreConfigKeys.MAPPED_FILE.name(), mapped.name(), StoreConfigKeys.MAPPED_FILE.name(),
                    SLAVE_MAPPED_FILE);
            mapped = registry.select(MappedStorageProvider.class, SLAVE_MAPPED_FILE, StoreConfigKeys.MAPPED_FILE.name());
        }
        FlushCommitLogServiceProvider flush = selectFlush(config, mapped, registry);
        Map<String, CommitLogDispatcherProvider> dispatchers = new LinkedHashMap<>();
        for (String name : config.dispatcherNames()) {
            if (dispatchers.put(name, registry.select(CommitLogDispatcherProvider.class, name,
                    StoreConfigKeys.DISPATCHERS.name())) != null) {
                throw new dev.hangar.spi.config.ConfigException("bad value for dispatchers: '" + name
                        + "' is listed twice");
            }
        }
        String haName = replicationName(config, role);
        ReplicationServiceProvider replication = haName == null ? null : registry.select(
                ReplicationServiceProvider.class, haName, StoreConfigKeys.HA_SERVICE.name());
        if (replication != null && replication.electsWriter()) {
            refuseFixedRoles(config, replication.name(), mapped);
        }
        StoreAssembly a = new StoreAssembly(lock, mapped, flush, dispatchers, role, replication);
        LOG.info("providers: putMessageLock={} ({}), mappedFile={} ({}), flushService={} ({}), dispatchers={}, "
                        + "brokerRole={}, haService={}", lock.name(), moduleOf(lock), mapped.name(), moduleOf(mapped),
                flush.name(), moduleOf(flush), describeDispatchers(dispatchers), role,
                replication == null ? "none" : replication.name() + " (" + moduleOf(replication) + ")");
        return a;
    }

    /**
     * The replication provider's name, or null for none. {@code auto}: a SYNC_MASTER and a SLAVE need one; an
     * ASYNC_MASTER gets one only when brokerRole was set explicitly (a broker.conf of a master with slaves), so a
     * lone store with default settings opens no port and runs no replication thread.
     */
    static String replicationName(StoreConfig config, BrokerRole role) {
        String configured = config.get(StoreConfigKeys.HA_SERVICE);
        if (role == BrokerRole.SLAVE && config.get(StoreConfigKeys.HA_MASTER_ADDRESS).isEmpty()) {
            throw new dev.hangar.spi.config.ConfigException("brokerRole=SLAVE needs haMasterAddress (host:port of the "
                    + "master's HA port)");
        }
        if ("none".equals(configured)) {
            if (role != BrokerRole.ASYNC_MASTER) {
                throw new dev.hangar.spi.config.ConfigException("haService=none is not allowed with brokerRole="
                        + role + ": a " + role + " needs a replication provider (e.g. rocketmq-ha)");
            }
            return null;
        }
        if (!"auto".equals(configured)) {
            return configured;
        }
        boolean explicitRole = !"default".equals(config.source(StoreConfigKeys.BROKER_ROLE));
        return role != BrokerRole.ASYNC_MASTER || explicitRole ? DEFAULT_REPLICATION : null;
    }

    /**
     * A provider whose nodes elect their writer sets every node's role itself: a configured {@code brokerRole} (or
     * a slave's master address) would contradict it. Its followers append and its leaders cut the log back, which a
     * write buffer (appends held out of the file until committed) cannot do.
     */
    private static void refuseFixedRoles(StoreConfig config, String provider, MappedStorageProvider mapped) {
        for (var key : List.of(StoreConfigKeys.BROKER_ROLE, StoreConfigKeys.HA_MASTER_ADDRESS)) {
            if (!"default".equals(config.source(key))) {
                throw new dev.hangar.spi.config.ConfigException(key.name() + " cannot be set with haService="
                        + provider + ": its nodes elect the leader themselves (remove " + key.name() + ")");
            }
        }
        if (mapped.needsCommitService()) {
            throw new dev.hangar.spi.config.ConfigException(StoreConfigKeys.MAPPED_FILE.name() + "=" + mapped.name()
                    + " cannot be used with haService=" + provider + ": it keeps appends in a write buffer, which a "
                    + "follower's appends and a new leader's cut of its log cannot work with; use "
                    + StoreConfigKeys.MAPPED_FILE.name() + "=" + SLAVE_MAPPED_FILE);
        }
    }

    /** The built-in replication provider {@code auto} chooses. */
    public static final String DEFAULT_REPLICATION = "rocketmq-ha";

    public BrokerRole role() {
        return role;
    }

    /** The chosen replication provider, or null when this store replicates nothing. */
    public ReplicationServiceProvider replication() {
        return replication;
    }

    /**
     * flushService when set; else the one provider that says it is the default for flushDiskType and for whether the
     * mapped-file variant needs a commit service. A variant that needs one cannot serve SYNC_FLUSH.
     */
    static FlushCommitLogServiceProvider selectFlush(StoreConfig config, MappedStorageProvider mapped,
                                                     ProviderRegistry registry) {
        boolean commits = mapped.needsCommitService();
        ProviderCombinations.refuseSyncFlushWithCommitService(config, mapped, registry);
        String explicit = config.get(StoreConfigKeys.FLUSH_SERVICE);
        if (!explicit.isEmpty()) {
            return registry.select(FlushCommitLogServiceProvider.class, explicit, StoreConfigKeys.FLUSH_SERVICE.name());
        }
        List<FlushCommitLogServiceProvider> defaults = registry.providers(FlushCommitLogServiceProvider.class).stream()
                .filter(p -> p.isDefaultFor(config.isSyncFlush(), commits)).toList();
        String wanted = "flushDiskType=" + config.get(StoreConfigKeys.FLUSH_DISK_TYPE) + " with "
                + StoreConfigKeys.MAPPED_FILE.name() + "=" + mapped.name()
                + (commits ? " (a write buffer to commit)" : "");
        if (defaults.size() != 1) {
            throw new ConfigException((defaults.isEmpty() ? "no flush service provider" : "several flush service "
                    + "providers (" + defaults.stream().map(FlushCommitLogServiceProvider::name)
                    .collect(Collectors.joining(", ")) + ")") + " serve " + wanted + "; name one with "
                    + StoreConfigKeys.FLUSH_SERVICE.name() + " (found: "
                    + String.join(", ", registry.names(FlushCommitLogServiceProvider.class)) + ")");
        }
        return defaults.get(0);
    }

    private static String describeDispatchers(Map<String, CommitLogDispatcherProvider> d) {
        List<String> parts = new ArrayList<>();
        d.forEach((n, p) -> parts.add(n + " (" + moduleOf(p) + ")"));
        return String.join(", ", parts);
    }

    private static String moduleOf(Object o) {
        Module m = o.getClass().getModule();
        if (m.isNamed()) {
            return m.getName();
        }
        return o.getClass().getClassLoader() instanceof PluginFolderLoader loader
                ? "plugin folder " + loader.folder() : "classpath";
    }

    public PutMessageLockProvider lock() {
        return lock;
    }

    public MappedStorageProvider mappedStorage() {
        return mappedStorage;
    }

    public FlushCommitLogServiceProvider flush() {
        return flush;
    }

    public Map<String, CommitLogDispatcherProvider> dispatchers() {
        return dispatchers;
    }

    /** The chosen names: putMessageLock, mappedFile, flushService, dispatchers. */
    public Map<String, String> chosen() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("putMessageLock", lock.name());
        m.put("mappedFile", mappedStorage.name());
        m.put("flushService", flush.name());
        m.put("dispatchers", String.join(",", dispatchers.keySet()));
        m.put("haService", replication == null ? "none" : replication.name());
        return m;
    }
}
