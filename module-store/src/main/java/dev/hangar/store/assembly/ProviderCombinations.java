package dev.hangar.store.assembly;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.mapped.MappedStorageProvider;
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
     * commit service with SYNC_FLUSH. The providers say what they need; a name no provider has is left to
     * {@link StoreAssembly#select}, which names the ones found.
     */
    public static void check(StoreConfig config, ProviderRegistry registry) {
        String name = config.get(StoreConfigKeys.MAPPED_FILE);
        registry.providers(MappedStorageProvider.class).stream().filter(p -> p.name().equals(name)).findFirst()
                .ifPresent(mapped -> refuseSyncFlushWithCommitService(config, mapped, registry));
    }

    /**
     * A mapped-file variant that needs a commit service (its write buffer is committed asynchronously) cannot
     * serve SYNC_FLUSH: the error names both values and the variants that write in place.
     */
    static void refuseSyncFlushWithCommitService(StoreConfig config, MappedStorageProvider mapped,
                                                 ProviderRegistry registry) {
        if (!mapped.needsCommitService() || !config.isSyncFlush()) {
            return;
        }
        String inPlace = registry.providers(MappedStorageProvider.class).stream()
                .filter(p -> !p.needsCommitService()).map(MappedStorageProvider::name)
                .collect(Collectors.joining(", "));
        throw new ConfigException(StoreConfigKeys.MAPPED_FILE.name() + "=" + mapped.name() + " cannot be combined "
                + "with flushDiskType=SYNC_FLUSH: its write buffer is committed asynchronously, so a sync flush "
                + "would time out; use a mappedFile that writes in place (" + (inPlace.isEmpty() ? "none found"
                : inPlace) + ") or flushDiskType=ASYNC_FLUSH");
    }
}
