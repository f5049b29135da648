package dev.hangar.spi.mapped;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One fixed-size file mapped into memory, named by the 20-digit offset of its first byte.
 *
 * <p>Positions: {@code wrote} (appended into the buffer the writer uses), {@code committed} (reached the file
 * channel; equals wrote without a write buffer), {@code flushed} (forced to disk). Readers see up to
 * {@link #readPosition()}. Appends come from one thread at a time (under the put lock, or, for concurrent
 * appends, through {@link #concurrentWriteView()}); flush and commit from
 * one flush thread each; reads from any thread.
 *
 * <p>Reference counting: a file starts with one reference (its own). {@link #hold()} before reading,
 * {@link #release()} after; {@link #shutdown(long)} drops the own reference and the mapping is unmapped
 * when the count reaches zero, never under a reader (that would crash the JVM on its next read).
 */
public interface MappedFile {

    Path path();

    /** The file name: the 20-digit start offset. */
    String fileName();

    long fileFromOffset();

    int fileSize();

    int wrotePosition();

    void wrotePosition(int position);

    int committedPosition();

    void committedPosition(int position);

    int flushedPosition();

    void flushedPosition(int position);

    /** Highest position readers may see: committed with a write buffer, wrote otherwise. */
    int readPosition();

    boolean isFull();

    /** Appends one record through {@code callback}; null result is not allowed. Caller holds the put lock. */
    dev.hangar.spi.store.AppendMessageResult append(AppendCallback callback);

    /**
     * A view of the buffer appends go into, indexed by file position, for concurrent appends into the CommitLog
     * ({@code appendMode=concurrent}): several threads copy records into disjoint ranges reserved past the wrote
     * position, each while holding the file and only with absolute writes; then one thread at a time moves the wrote
     * position over the complete ones through {@link #append}, so readers, commit and flush still see only bytes
     * below it. Null when the variant cannot take such copies (a buffer that may be replaced while the file lives).
     */
    default java.nio.ByteBuffer concurrentWriteView() {
        return null;
    }

    /** Appends raw bytes (ConsumeQueue units, index data); false when they do not fit. */
    boolean appendBytes(byte[] data, int offset, int length);

    /** Commits the write buffer to the channel when at least {@code leastPages} pages are pending (0 = any). */
    int commit(int leastPages) throws IOException;

    /**
     * Forces written data to disk when at least {@code leastPages} pages are dirty (0 = any).
     * On failure throws and leaves the flushed position where it was.
     *
     * @return the flushed position
     */
    int flush(int leastPages) throws IOException;

    /** A region from {@code pos} to the read position, or null when there is nothing to read or the file is gone. */
    SelectedRegion selectMappedBuffer(int pos);

    /**
     * A new read view of the whole file, indexed by file position (0 to {@link #fileSize()}), for a reader that
     * reads the same file many times and keeps the view (the reput cursor: a region per pass would be an allocation
     * per pass, and a pass may carry one record). Rules: read it only while holding the file ({@link #hold()}),
     * only below {@link #readPosition()}, with absolute indexes; never write through it. Null when the provider has
     * no stable view (a mapping that may be replaced while the file lives): callers then use
     * {@link #selectMappedBuffer(int)}.
     */
    default java.nio.ByteBuffer wholeFileReadView() {
        return null;
    }

    /** A region of {@code size} bytes from {@code pos}, or null when not all of it is readable. */
    SelectedRegion selectMappedBuffer(int pos, int size);

    /** Takes a reference; false when the file is shutting down. */
    boolean hold();

    void release();

    boolean isAvailable();

    /** Drops the file's own reference; unmaps once readers are gone. */
    void shutdown(long intervalForcibly);

    boolean isCleanupOver();

    /**
     * Shuts down, and when unmapped deletes the file. A reader still holding it after {@code intervalForcibly} ms
     * (since the first call) no longer keeps the file on the disk: it is deleted and its mapping stays until that
     * reader lets go. True when the file is gone from the disk.
     */
    boolean destroy(long intervalForcibly);

    long lastModifiedTimestamp();

    /** Store timestamp of the last record appended through {@link #append}. */
    long storeTimestamp();

    /** Optional: touch every page and mlock (warm-up). Failures of the native part are logged, never thrown. */
    void warmUp(int flushLeastPages);

    /** Optional: munlock a warmed file once it is full. */
    void unlockMemory();
}
