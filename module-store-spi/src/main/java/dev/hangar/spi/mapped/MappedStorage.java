package dev.hangar.spi.mapped;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * A mapped-file variant at work: builds {@link MappedFileQueue}s and owns what they share (the allocation
 * service, the write-buffer pool). Started before the first queue is used; shut down after every queue.
 */
public interface MappedStorage extends AutoCloseable {

    /** Creates (not loads) a queue over {@code directory} with files of {@code fileSize} bytes. */
    MappedFileQueue openQueue(Path directory, int fileSize, QueueRole role);

    /**
     * A queue of a store opened read-only: {@code load()} maps the existing files {@code READ_ONLY}; no file or
     * directory is created, and an append or any other write to its files fails with an exception naming the file,
     * so a read-only open cannot dirty a file. The default is {@link #openQueue}: a variant without read-only files
     * maps them as for writing, and only the engine's care keeps them unchanged.
     */
    default MappedFileQueue openReadOnlyQueue(Path directory, int fileSize, QueueRole role) {
        return openQueue(directory, fileSize, role);
    }

    /**
     * Asks for transparent huge pages (2 MiB) behind the first {@code length} bytes of {@code mapping}, a file a
     * plugin mapped itself for writing and writes at scattered places (an index's hash slots): one page fault and one
     * TLB entry per 2 MiB instead of one per 4 KiB page a write lands on. A fault there reads no pages around it, so
     * the bytes after the range keep 4 KiB pages. {@code mapping} maps the file from its start. Call it right after
     * mapping, before any byte of the range is touched. True when the advice was given; false when the variant does
     * not give it (the default), the store's configuration turned it off ({@code transparentHugePages=false}), the
     * kernel has none, the mapping does not start on a 2 MiB boundary, {@code length} is past its end, or
     * {@code mapping} is read-only. Only a hint: the mapping works the same either way. Any thread.
     */
    default boolean adviseHugePages(MappedByteBuffer mapping, long length) {
        return false;
    }

    /** True when CommitLog queues write into a pooled buffer that must be committed before it is readable. */
    boolean usesWriteBuffer();

    /** Pooled write buffers free now, or -1 without a pool. */
    default int availableWriteBuffers() {
        return -1;
    }

    /**
     * Forces, at once, the files of every queue of {@code role} that were written since their last force - with
     * one file-system-wide sync where the variant can, instead of one force per file - and records them as flushed
     * up to what the force covered. Files it could not cover stay dirty: callers still flush their queues
     * afterwards, which then finds only those left. Returns false when the variant has no such force for
     * {@code role} (nothing was done). Called from the flushing thread.
     *
     * @throws IOException the sync failed: nothing was recorded as flushed
     */
    default boolean forceWrittenFiles(QueueRole role) throws IOException {
        return false;
    }

    void start();

    void shutdown();

    @Override
    default void close() {
        shutdown();
    }
}
