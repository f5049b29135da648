package dev.hangar.store.assembly;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.flush.FlushCommitLogServiceProvider;
import dev.hangar.spi.mapped.MappedStorageProvider;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The configuration checks that depend on what the chosen providers are, asked of the providers themselves.
 * Deliberately without a logger: the launcher runs {@link #check} while reading the configuration, before it has
 * set up logging (a static logger here would start the logging framework with its defaults).
 *
 * <p>Thread-safety: stateless.
 */
public final class ProviderCombinations {
    private ProviderCombinations() {
    }

    /**
     * Refuses, touching no file, the combinations of configured providers that cannot work, as soon as the
     * configuration is read ({@code ConfigLoader} in the launcher): a {@code mappedFile} whose provider needs a
     * commit service with SYNC_FLUSH when no flush service found commits before it forces. The providers say what they need; a name no provider has is left to
     * {@link StoreAssembly#select}, which names the ones found.
     */
    public static void check(StoreConfig config, ProviderRegistry registry) {
        String name = config.get(StoreConfigKeys.MAPPED_FILE);
        registry.providers(MappedStorageProvider.class).stream().filter(p -> p.name().equals(name)).findFirst()
                .ifPresent(mapped -> refuseSyncFlushWithCommitService(config, mapped, registry));
    }

    /**
     * A mapped-file variant that needs a commit service (its write buffer reaches the file only when committed) can
     * serve SYNC_FLUSH only through a flush service that commits before it forces (the built-in
     * {@code group-commit} does). Refused when {@code flushService} is not named and no provider found says it is
     * the default for that combination; the error names both values and the variants that write in place.
     */
    static void refuseSyncFlushWithCommitService(StoreConfig config, MappedStorageProvider mapped,
                                                 ProviderRegistry registry) {
        refuseSyncFlushWithCommitService(config, mapped, registry.providers(FlushCommitLogServiceProvider.class),
                registry.providers(MappedStorageProvider.class));
    }

    /** {@link #refuseSyncFlushWithCommitService(StoreConfig, MappedStorageProvider, ProviderRegistry)} over lists. */
    static void refuseSyncFlushWithCommitService(StoreConfig config, MappedStorageProvider mapped,
                                                 List<FlushCommitLogServiceProvider> flushes,
                                                 List<MappedStorageProvider> storages) {
        if (!mapped.needsCommitService() || !config.isSyncFlush()
                || !config.get(StoreConfigKeys.FLUSH_SERVICE).isEmpty()
                || flushes.stream().anyMatch(f -> f.isDefaultFor(true, true))) {
            return;
        }
        String inPlace = storages.stream().filter(p -> !p.needsCommitService()).map(MappedStorageProvider::name)
                .collect(Collectors.joining(", "));
        throw new ConfigException(StoreConfigKeys.MAPPED_FILE.name() + "=" + mapped.name() + " cannot be combined "
                + "with flushDiskType=SYNC_FLUSH: no flush service found commits its write buffer before a sync "
                + "flush, so a sync flush would time out; use a mappedFile that writes in place (" + (inPlace.isEmpty()
                ? "none found" : inPlace) + "), flushDiskType=ASYNC_FLUSH, or name a flushService that commits");
    }
}
