package dev.hangar.spi.mapped;

import java.nio.file.Path;

/**
 * A mapped-file variant at work: builds {@link MappedFileQueue}s and owns what they share (the allocation
 * service, the write-buffer pool). Started before the first queue is used; shut down after every queue.
 */
public interface MappedStorage extends AutoCloseable {

    /** Creates (not loads) a queue over {@code directory} with files of {@code fileSize} bytes. */
    MappedFileQueue openQueue(Path directory, int fileSize, QueueRole role);

    /** True when CommitLog queues write into a pooled buffer that must be committed before it is readable. */
    boolean usesWriteBuffer();

    /** Pooled write buffers free now, or -1 without a pool. */
    default int availableWriteBuffers() {
        return -1;
    }

    void start();

    void shutdown();

    @Override
    default void close() {
        shutdown();
    }
}
