package dev.hangar.mmap.file;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * How a new mapped file gets its disk blocks.
 *
 * <p>A write through a mapping into a block the file system cannot allocate (disk full) kills the writer with a
 * SIGBUS instead of returning an error. So the CommitLog, where that would lose a put, reserves every block when
 * the file is created ({@code posix_fallocate}). A ConsumeQueue holds 20 bytes per message of a single queue:
 * reserving its 5.7 MB for each of thousands of queues costs gigabytes for kilobytes of data, and a ConsumeQueue
 * can be rebuilt from the CommitLog, so those files stay sparse and take blocks as units arrive.
 */
public enum FileSpace {
    /** Every block allocated when the file is created. */
    RESERVED,
    /** The file has its full length but takes blocks only where written. */
    SPARSE;

    /** A file {@link #openSparse} opened: its channel (the caller owns it) and whether it had no bytes yet. */
    record Opened(FileChannel channel, boolean created) {
    }

    /**
     * Opens {@code path} for reading and writing with one {@code open}, creating it when missing; a new (empty)
     * file gets its length without blocks ({@code ftruncate}) and is reported as created. A file that exists
     * keeps its length.
     */
    static Opened openSparse(Path path, long length) throws IOException {
        RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw");
        try {
            boolean created = file.length() == 0;
            if (created) {
                file.setLength(length);
            }
            return new Opened(file.getChannel(), created);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }
}
