package dev.hangar.dispatch.support;

import dev.hangar.spi.config.ConfigKey;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.dispatch.DispatcherContext;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.MappedStorageProvider;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.message.MessageSysFlag;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * A store directory with the real {@code mmap} mapped storage, an in-memory checkpoint and a fake commit log,
 * from which dispatchers are built by provider name, as the engine builds them. Not thread-safe.
 */
public final class DispatchFixture implements AutoCloseable {
    public final Path root;
    public final InMemoryCheckpoint checkpoint = new InMemoryCheckpoint();
    public final FakeCommitLog commitLog = new FakeCommitLog();
    private final StoreConfig.Builder config = StoreConfig.builder();
    private MappedStorage storage;

    public DispatchFixture(Path root) {
        this.root = root;
    }

    public <T> DispatchFixture with(ConfigKey<T> key, T value) {
        config.set(key, value);
        return this;
    }

    /** A dispatcher from the named provider, loaded (as after a clean or unclean shutdown). */
    public CommitLogDispatcher open(String providerName, boolean lastShutdownClean) {
        StoreConfig built = config.build();
        if (storage == null) {
            storage = ServiceLoader.load(MappedStorageProvider.class).stream().map(ServiceLoader.Provider::get)
                    .filter(p -> p.name().equals("mmap")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("the mmap provider is not on the class path"))
                    .create(built);
            storage.start();
        }
        CommitLogDispatcherProvider provider = provider(providerName);
        CommitLogDispatcher dispatcher = provider.create(
                new DispatcherContext(root, built, storage, checkpoint, commitLog, lastShutdownClean));
        dispatcher.load();
        return dispatcher;
    }

    public CommitLogDispatcher open(String providerName) {
        return open(providerName, true);
    }

    public static CommitLogDispatcherProvider provider(String name) {
        return ServiceLoader.load(CommitLogDispatcherProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no dispatcher provider named " + name));
    }

    /** A plain message record; the fake commit log learns its store time. */
    public DispatchRequest message(String topic, int queueId, long queueOffset, long commitLogOffset, int size,
                                   long storeTimestamp) {
        return request(topic, queueId, queueOffset, commitLogOffset, size, storeTimestamp, null, null,
                MessageSysFlag.TRANSACTION_NOT_TYPE);
    }

    public DispatchRequest request(String topic, int queueId, long queueOffset, long commitLogOffset, int size,
                                   long storeTimestamp, String keys, String uniqKey, int sysFlag) {
        commitLog.record(commitLogOffset, size, storeTimestamp);
        Map<String, String> properties = new HashMap<>();
        if (keys != null) {
            properties.put(MessageConst.KEYS, keys);
        }
        if (uniqKey != null) {
            properties.put(MessageConst.UNIQ_KEY, uniqKey);
        }
        return DispatchRequest.of(topic, queueId, commitLogOffset, size, ("tag" + queueOffset).hashCode(),
                storeTimestamp, queueOffset, keys, uniqKey, sysFlag, 0L, properties, storeTimestamp - 5);
    }

    @Override
    public void close() {
        if (storage != null) {
            storage.shutdown();
        }
    }
}
