package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.flush.DurableFiles;
import dev.hangar.spi.flush.ForceEvents;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * How a new mapped file gets its disk blocks.
 *
 * <p>A write through a mapping into a block the file system cannot allocate (disk full) kills the writer with a
 * SIGBUS instead of returning an error. So the CommitLog, where that would lose a put, reserves every block when
 * the file is created ({@code posix_fallocate}). A ConsumeQueue holds 20 bytes per message of a single queue:
 * reserving its 5.7 MB for each of thousands of queues costs gigabytes for kilobytes of data, and a ConsumeQueue
 * can be rebuilt from the CommitLog, so those files stay sparse and take blocks as units arrive. A store opened
 * read-only takes no blocks at all: its files are opened for reading only ({@link #READ_ONLY}).
 */
public enum FileSpace {
    /** Every block allocated when the file is created. */
    RESERVED,
    /** The file has its full length but takes blocks only where written. */
    SPARSE,
    /**
     * An existing file opened for reading only and mapped {@code READ_ONLY} (a store opened read-only): never
     * created, never written, so its bytes and modification time stay as they were.
     */
    READ_ONLY;

    /** The map mode of a file opened this way. */
    FileChannel.MapMode mapMode() {
        return this == READ_ONLY ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.READ_WRITE;
    }

    /** Fails a write to {@code path}, naming it, when it was opened {@link #READ_ONLY}. */
    void refuseWrite(Path path) {
        if (this == READ_ONLY) {
            throw new IllegalStateException("cannot write to " + path + ": it is mapped read-only (the store was "
                    + "opened read-only)");
        }
    }

    /** The options that open an existing file this way (to map it again). */
    StandardOpenOption[] reopenOptions() {
        return this == READ_ONLY ? new StandardOpenOption[] {StandardOpenOption.READ}
                : new StandardOpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE};
    }

    /**
     * A file {@link #open} opened: its channel (the caller owns it) and, for a new file (no bytes yet), the directories
     * made for it, outermost first; null for a file that existed.
     */
    record Opened(FileChannel channel, List<Path> createdDirectories) {

        /** True when the file was new and got its length here. */
        boolean created() {
            return createdDirectories != null;
        }
    }

    /**
     * Opens {@code path} for reading and writing, creating it (and its directory) with {@code length} bytes when
     * missing, its blocks taken as this space says; {@link #READ_ONLY} opens an existing file for reading and creates
     * nothing (NoSuchFileException when missing). A file that exists keeps its length and blocks. A reserved file
     * whose blocks cannot be had (disk full) is deleted again and the error thrown: no half-reserved file is left.
     */
    Opened open(Path path, int length, NativeMemory nativeMemory) throws IOException {
        if (this == READ_ONLY) {
            return new Opened(FileChannel.open(path, StandardOpenOption.READ), null);
        }
        List<Path> createdDirectories = DurableFiles.createDirectories(path.getParent());
        if (this == SPARSE) {
            // one open for create, length and channel: thousands of ConsumeQueue files are created this way
            return openSparse(path, length, createdDirectories);
        }
        boolean created = !Files.exists(path);
        FileChannel opened = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        if (created) {
            try {
                nativeMemory.preallocate(path, length);
                opened.force(true);
                ForceEvents.lengthForced(path, length);
                DurableFiles.forceDirectories(DurableFiles.parentsOf(List.of(path), createdDirectories));
            } catch (IOException e) {
                opened.close();
                Files.deleteIfExists(path);
                throw e;
            }
        }
        return new Opened(opened, created ? createdDirectories : null);
    }

    /**
     * Opens {@code path} for reading and writing with one {@code open}, creating it when missing; a new (empty)
     * file gets its length without blocks ({@code ftruncate}) and is reported as created. A file that exists
     * keeps its length.
     */
    private static Opened openSparse(Path path, long length, List<Path> createdDirectories) throws IOException {
        RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw");
        try {
            boolean created = file.length() == 0;
            if (created) {
                file.setLength(length);
            }
            return new Opened(file.getChannel(), created ? createdDirectories : null);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }
}
