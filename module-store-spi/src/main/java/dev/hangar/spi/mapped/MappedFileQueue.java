package dev.hangar.spi.mapped;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A directory of equally sized {@link MappedFile}s forming one contiguous log, each named by its 20-digit
 * start offset. Thread-safety: one writer (appends, roll), one flusher, one committer, any number of readers;
 * deletion from the head and truncation at the tail happen under the queue's own synchronisation.
 */
public interface MappedFileQueue {

    Path directory();

    int mappedFileSize();

    /**
     * Maps the existing files, as after a clean shutdown: files a crash left unwritten at the end (short, all zeros)
     * are set aside (see {@link TailFiles}). False (and logged) when a file's length is not the configured size, or a
     * short file lies before one holding data; {@link #loadProblem()} then says which.
     */
    boolean load();

    /**
     * As {@link #load()}; after an unclean shutdown ({@code afterCrash}) a short newest file holding data is also
     * taken as one whose length did not reach the disk in full, and extended to the configured size with its bytes
     * kept (recovery then keeps its valid records). After a clean shutdown such a file is refused: it is more likely
     * a file written with another mapped file size, which extending would silently rewrite.
     */
    default boolean load(boolean afterCrash) {
        return load();
    }

    /** Why the last {@link #load()} returned false, naming the files; null when it did not. */
    default String loadProblem() {
        return null;
    }

    /** Snapshot of the files, oldest first. */
    List<MappedFile> mappedFiles();

    boolean isEmpty();

    MappedFile getFirstMappedFile();

    /** The newest file, or null. */
    MappedFile getLastMappedFile();

    /**
     * The newest file when it is not full; otherwise (or when there is none) a new one starting at the next
     * file boundary ({@code startOffset} rounded down to a file boundary when the queue is empty), if
     * {@code needCreate}. Null when a file could not be created.
     */
    MappedFile getLastMappedFile(long startOffset, boolean needCreate);

    /** The file holding {@code offset}; the first file when not found and {@code returnFirstOnNotFound}; else null. */
    MappedFile findMappedFileByOffset(long offset, boolean returnFirstOnNotFound);

    /** The first file modified at or after {@code timestamp}, else the last. */
    MappedFile getMappedFileByTime(long timestamp);

    /** Start offset of the first file, or -1 when empty. */
    long getMinOffset();

    /** One past the last readable byte. */
    long getMaxOffset();

    /** One past the last written byte. */
    long getMaxWrotePosition();

    long getFlushedWhere();

    void setFlushedWhere(long where);

    long getCommittedWhere();

    void setCommittedWhere(long where);

    /** Store timestamp of the last flushed append. */
    long getStoreTimestamp();

    /**
     * Forces the file holding the flushed position (at least {@code leastPages} dirty pages, 0 = any). A flush
     * that spans two files completes the first one; call again for the next.
     *
     * @return true when nothing was flushed (RocketMQ's convention)
     * @throws IOException the force failed; the flushed position did not move
     */
    boolean flush(int leastPages) throws IOException;

    /** Commits the write buffer at the committed position; true when nothing was committed. */
    boolean commit(int leastPages) throws IOException;

    /** Bytes written but not yet flushed. */
    default long howMuchFallBehind() {
        return Math.max(0, getMaxWrotePosition() - getFlushedWhere());
    }

    /** Drops everything at or past {@code offset}: trims the file that holds it, destroys later files. */
    void truncateDirtyFiles(long offset);

    /**
     * Deletes files last modified more than {@code expiredTimeMs} ago (or any when {@code cleanImmediately}),
     * oldest first, never the last file, stopping at the first one that may not go, at most {@code maxBatch}.
     *
     * @return files deleted
     */
    int deleteExpiredFileByTime(long expiredTimeMs, int deleteFilesIntervalMs, long intervalForcibly,
                                boolean cleanImmediately, int maxBatch);

    /**
     * Deletes head files whose last unit (of {@code unitSize} bytes, first 8 bytes = commit-log offset) points
     * below {@code offset}. For ConsumeQueues.
     */
    int deleteExpiredFileByOffset(long offset, int unitSize);

    /** Retries destroying the first file when an earlier destroy left it in place. */
    boolean retryDeleteFirstFile(long intervalForcibly);

    /** Bytes mapped by this queue. */
    long getMappedMemorySize();

    void shutdown(long intervalForcibly);

    /** Shuts down and deletes every file and the directory. */
    void destroy();
}
