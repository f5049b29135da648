package dev.hangar.store;

import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.MappedStorage;
import dev.hangar.spi.mapped.QueueRole;
import java.nio.file.Path;

/**
 * The mapped-file variant of a store opened read-only: every queue it opens, the CommitLog's and each dispatcher's,
 * is the variant's read-only queue ({@link MappedStorage#openReadOnlyQueue}), so no file of the store is mapped for
 * writing, and a write to one fails instead of dirtying it. Nothing to start: no file is ever allocated.
 */
final class ReadOnlyMappedStorage implements MappedStorage {
    private final MappedStorage variant;

    ReadOnlyMappedStorage(MappedStorage variant) {
        this.variant = variant;
    }

    @Override
    public MappedFileQueue openQueue(Path directory, int fileSize, QueueRole role) {
        return variant.openReadOnlyQueue(directory, fileSize, role);
    }

    @Override
    public MappedFileQueue openReadOnlyQueue(Path directory, int fileSize, QueueRole role) {
        return variant.openReadOnlyQueue(directory, fileSize, role);
    }

    @Override
    public boolean usesWriteBuffer() {
        return variant.usesWriteBuffer();
    }

    @Override
    public int availableWriteBuffers() {
        return variant.availableWriteBuffers();
    }

    @Override
    public void start() {
        throw new IllegalStateException("a store opened read-only starts no mapped-file service");
    }

    @Override
    public void shutdown() {
        variant.shutdown();
    }
}
