package dev.hangar.mmap.provider;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.MappedStorageProvider;

/**
 * The {@code write-window} variant: CommitLog appends go into a private (copy-on-write) mapping of the file and
 * reach it when committed with {@code pwrite}; the private copies of committed pages are given back at once, so
 * the write buffer holds only the uncommitted bytes and needs no pool (see
 * {@link dev.hangar.mmap.file.CopyOnWriteMappedFile}). Other queues are plain {@code mmap}. Stateless;
 * thread-safe.
 */
public final class WriteWindowStorageProvider implements MappedStorageProvider {
    public static final String NAME = "write-window";

    public WriteWindowStorageProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "CommitLog appends go into a private copy-on-write mapping, committed with pwrite and given back; "
                + "reads see committed data";
    }

    /** Appends reach the file only when the flush service commits them. */
    @Override
    public boolean needsCommitService() {
        return true;
    }

    @Override
    public MappedStorage create(StoreConfig config) {
        return new DefaultMappedStorage(config, DefaultMappedStorage.CommitLogWrites.PRIVATE_MAPPING,
                NativeMemory.system());
    }

    /** Concurrent copies go into the private mapping; commit and flush read only below the wrote position. */
    @Override
    public boolean takesConcurrentAppends() {
        return true;
    }
}
