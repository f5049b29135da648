package dev.hangar.mmap.provider;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.MappedStorageProvider;

/** The {@code mmap} variant: every queue appends into its memory mapping. Stateless; thread-safe. */
public final class MmapStorageProvider implements MappedStorageProvider {
    public static final String NAME = "mmap";

    public MmapStorageProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "appends go straight into the memory-mapped files; CommitLog files are created ahead";
    }

    @Override
    public MappedStorage create(StoreConfig config) {
        return new DefaultMappedStorage(config, false, NativeMemory.system());
    }

    /** Concurrent copies go into the mapping; commit and flush read only below the wrote position. */
    @Override
    public boolean takesConcurrentAppends() {
        return true;
    }
}
