package dev.hangar.mmap.provider;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.MappedStorageProvider;

/**
 * The {@code transient-pool} variant: CommitLog appends go into pooled, mlocked direct buffers
 * ({@code transientStorePoolSize} of them, one file large each) and reach the file when committed; other queues
 * are plain {@code mmap}. Stateless; thread-safe.
 */
public final class TransientPoolStorageProvider implements MappedStorageProvider {
    public static final String NAME = "transient-pool";

    public TransientPoolStorageProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "CommitLog appends go into pooled mlocked buffers, committed to the file channel; reads see committed data";
    }

    /** Appends reach the file only when the flush service commits the pooled buffer. */
    @Override
    public boolean needsCommitService() {
        return true;
    }

    @Override
    public MappedStorage create(StoreConfig config) {
        return new DefaultMappedStorage(config, true, NativeMemory.system());
    }

    /** Concurrent copies go into the pooled buffer (or the mapping when the pool is empty); commit and flush read only below the wrote position. */
    @Override
    public boolean takesConcurrentAppends() {
        return true;
    }
}
