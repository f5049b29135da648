package dev.hangar.spi.mapped;

import dev.hangar.spi.NamedProvider;
import dev.hangar.spi.config.StoreConfig;

/**
 * Provides a mapped-file variant; selected by {@code mappedFile}. Built-ins: {@code mmap} (writes into the
 * mapping), {@code transient-pool} (writes into pooled mlocked direct buffers, committed to the channel).
 */
public interface MappedStorageProvider extends NamedProvider {

    MappedStorage create(StoreConfig config);
}
