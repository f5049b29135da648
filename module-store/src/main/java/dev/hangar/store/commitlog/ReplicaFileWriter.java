package dev.hangar.store.commitlog;

import dev.hangar.spi.mapped.MappedFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * Writes a slave's replicated bytes into its CommitLog file with positional writes ({@code pwrite}) rather than
 * stores into the file's mapping. A store into a page of a shared file mapping that is not yet in the page cache
 * takes a page fault that reads the page in ({@code filemap_fault}, then the file system fills the block's page);
 * on this project's VM that costs about 11 µs per 4 KiB page, 2.7 µs per replicated KiB, and it was two thirds of
 * the slave HA client's CPU. {@code pwrite} fills the same page cache without the fault, and the mapping shares
 * that page cache, so readers (the slave's dispatcher, the record walk of {@link ReplicatedAppender}) see the bytes
 * through the mapping as before, and the flusher's {@code msync} of the mapped range forces them as well (on
 * Linux it syncs the file's range, however its pages were dirtied).
 *
 * <p>Only for mapped-file variants that append into the mapping itself. A variant with a write buffer (the
 * transient pool, the copy-on-write window) later copies its buffer over the file, which would overwrite these
 * bytes: there {@link CommitLog} stores through the append callback as before.
 *
 * <p>Not thread-safe: used under the CommitLog's put lock. Keeps the newest file's channel open (one per file at a
 * time: a slave appends to one file until it is full).
 */
final class ReplicaFileWriter implements AutoCloseable {
    private MappedFile file;
    private FileChannel channel;

    /** Writes the remaining bytes of {@code data} at {@code position} of {@code target}; leaves {@code data} as is. */
    void write(MappedFile target, int position, ByteBuffer data) throws IOException {
        if (target != file) {
            close();
            channel = FileChannel.open(target.path(), StandardOpenOption.WRITE);
            file = target;
        }
        ByteBuffer source = data.duplicate();
        long at = position;
        while (source.hasRemaining()) {
            at += channel.write(source, at);
        }
    }

    @Override
    public void close() throws IOException {
        FileChannel open = channel;
        channel = null;
        file = null;
        if (open != null) {
            open.close();
        }
    }
}
