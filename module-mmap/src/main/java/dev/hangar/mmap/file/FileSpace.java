package dev.hangar.mmap.file;

import java.io.IOException;
import java.io.RandomAccessFile;
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

    /** Gives a new, empty file its length without allocating blocks ({@code ftruncate}). */
    static void extendSparse(Path path, long length) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            file.setLength(length);
        }
    }
}
