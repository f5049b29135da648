package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.flush.ForceEvents;
import dev.hangar.spi.mapped.AppendCallback;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.SelectedRegion;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code mmap} variant: one file mapped {@code READ_WRITE} in full ({@link FileSpace#READ_ONLY} in a store opened
 * read-only); appends are written into the mapping, so they are readable at once ({@code committed == wrote}) and a
 * flush is an {@code msync} of the dirty range.
 *
 * <p>Thread-safety as {@link MappedFile} states: one appending thread at a time (it reuses one writer view of
 * the mapping, so an append allocates nothing), one flushing thread, readers from any thread through
 * {@link #selectMappedBuffer} (absolute slices, no shared position). Positions are atomics.
 *
 * <p>The file channel is closed right after mapping (the mapping does not need it), so thousands of
 * ConsumeQueue files cost no file descriptors; subclasses that write through the channel keep it open.
 */
public class DefaultMappedFile extends ReferenceCounted implements MappedFile {
    private static final Logger LOG = LoggerFactory.getLogger(DefaultMappedFile.class);

    private final Path path;
    private final String fileName;
    private final long fileFromOffset;
    private final int fileSize;
    /** The mapping; null only in {@link OnDemandMappedFile} while it is parked (unmapped because idle). */
    private volatile MappedByteBuffer mapped;
    /** The single writer's view of the mapping, reused by every append. */
    private volatile ByteBuffer mappedWriterView;
    private final KeptChannel channel;
    private volatile boolean unmapped;
    private final MemoryLock memoryLock;
    private volatile long storeTimestamp;
    private final FileSpace space;
    /** The directories made for this file when this object created it; null for a file that existed. */
    private final List<Path> createdDirectories;

    protected final AtomicInteger wrotePosition = new AtomicInteger();
    private final AtomicInteger flushedPosition = new AtomicInteger();

    /** Maps {@code directory/<20-digit fileFromOffset>}, creating it when missing. */
    public DefaultMappedFile(Path directory, long fileFromOffset, int fileSize, NativeMemory nativeMemory)
            throws IOException {
        this(directory, fileFromOffset, fileSize, nativeMemory, false);
    }

    protected DefaultMappedFile(Path directory, long fileFromOffset, int fileSize, NativeMemory nativeMemory,
                                boolean keepChannelOpen) throws IOException {
        this(directory, fileFromOffset, fileSize, nativeMemory, keepChannelOpen, FileSpace.RESERVED, true);
    }

    /**
     * @param space  how a new file gets its blocks: reserved up front, or sparse (blocks on first write); or none
     * @param mapNow false leaves the file unmapped until a subclass calls {@link #mapNow()}
     */
    protected DefaultMappedFile(Path directory, long fileFromOffset, int fileSize, NativeMemory nativeMemory,
                                boolean keepChannelOpen, FileSpace space, boolean mapNow) throws IOException {
        if (fileSize <= 0) {
            throw new IllegalArgumentException("mapped file size must be positive: " + fileSize);
        }
        this.fileName = MappedFileNames.of(fileFromOffset);
        this.fileFromOffset = fileFromOffset;
        this.fileSize = fileSize;
        this.memoryLock = new MemoryLock(Objects.requireNonNull(nativeMemory, "nativeMemory"));
        this.path = directory.resolve(fileName);
        this.space = space;
        FileSpace.Opened file = space.open(path, fileSize, nativeMemory);
        FileChannel opened = file.channel();
        if (mapNow) {
            try {
                mapThrough(opened);
            } catch (IOException e) {
                opened.close();
                throw e;
            }
        }
        this.createdDirectories = file.createdDirectories();
        this.channel = new KeptChannel(keepChannelOpen ? opened : null);
        if (!keepChannelOpen) {
            opened.close();
        }
    }

    /** True when this object created the file (or found it empty) and gave it its length. */
    protected final boolean createdFile() {
        return createdDirectories != null;
    }

    /** The directories made for this file when it was created, outermost first; empty for a file that existed. */
    protected final List<Path> createdDirectories() {
        return createdDirectories == null ? List.of() : createdDirectories;
    }

    private void mapThrough(FileChannel opened) throws IOException {
        MappedByteBuffer buffer;
        try {
            buffer = opened.map(space.mapMode(), 0, fileSize);
        } catch (IOException | RuntimeException e) {
            throw new IOException("could not map " + path + " (" + fileSize + " bytes): " + e.getMessage(), e);
        }
        this.mappedWriterView = buffer.duplicate();
        this.mapped = buffer;
        MappedMemoryCounters.mapped(fileSize);
    }

    /**
     * Maps the file again after {@link #unmapNow()}. Only for variants that unmap idle files: the caller makes
     * sure nobody uses the mapping concurrently.
     */
    protected final void mapNow() throws IOException {
        if (mapped != null) {
            return;
        }
        try (FileChannel opened = FileChannel.open(path, space.reopenOptions())) {
            mapThrough(opened);
        }
    }

    /** {@link #mapNow()} through a channel the caller keeps open (saves opening the file a second time). */
    protected final void mapNow(FileChannel open) throws IOException {
        if (mapped == null) {
            mapThrough(open);
        }
    }

    /** Unmaps while the file stays open for use; the caller makes sure no reference uses the mapping. */
    protected final void unmapNow() {
        MappedByteBuffer buffer = mapped;
        if (buffer == null) {
            return;
        }
        mapped = null;
        mappedWriterView = null;
        MappedBufferCleaner.clean(buffer);
        MappedMemoryCounters.unmapped(fileSize);
    }

    /** True while the file is mapped. */
    protected final boolean isMapped() {
        return mapped != null;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public String fileName() {
        return fileName;
    }

    @Override
    public long fileFromOffset() {
        return fileFromOffset;
    }

    @Override
    public int fileSize() {
        return fileSize;
    }

    @Override
    public int wrotePosition() {
        return wrotePosition.get();
    }

    @Override
    public void wrotePosition(int position) {
        wrotePosition.set(checkPosition(position));
    }

    /** Always the wrote position: appends go straight into the mapping. */
    @Override
    public int committedPosition() {
        return wrotePosition.get();
    }

    /** Checked, but without effect: in this variant the committed position is the wrote position. */
    @Override
    public void committedPosition(int position) {
        checkPosition(position);
    }

    @Override
    public int flushedPosition() {
        return flushedPosition.get();
    }

    @Override
    public void flushedPosition(int position) {
        flushedPosition.set(checkPosition(position));
    }

    @Override
    public int readPosition() {
        return wrotePosition.get();
    }

    @Override
    public boolean isFull() {
        return wrotePosition.get() == fileSize;
    }

    @Override
    public AppendMessageResult append(AppendCallback callback) {
        Objects.requireNonNull(callback, "callback");
        int current = wrotePosition.get();
        if (current >= fileSize) {
            LOG.error("append to {} refused: the file is full (wrote position {}, size {})", path, current, fileSize);
            return AppendMessageResult.of(AppendMessageStatus.UNKNOWN_ERROR);
        }
        if (!hold()) {
            LOG.error("append to {} refused: the file is shut down", path);
            return AppendMessageResult.of(AppendMessageStatus.UNKNOWN_ERROR);
        }
        try {
            ByteBuffer target = writerTarget();
            target.clear().position(current);
            int maxBlank = fileSize - current;
            AppendMessageResult result = callback.doAppend(fileFromOffset, target, maxBlank);
            if (result == null) {
                throw new IllegalStateException("AppendCallback returned null for " + path);
            }
            int wroteBytes = result.wroteBytes();
            if (wroteBytes < 0 || wroteBytes > maxBlank) {
                throw new IllegalStateException("AppendCallback reported " + wroteBytes + " bytes written but only "
                        + maxBlank + " were left in " + path + "; the wrote position was not moved");
            }
            wrotePosition.set(current + wroteBytes);
            if (wroteBytes > 0) {
                storeTimestamp = result.storeTimestamp();
            }
            return result;
        } finally {
            release();
        }
    }

    @Override
    public boolean appendBytes(byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        int current = wrotePosition.get();
        if ((long) current + length > fileSize) {
            return false;
        }
        if (!hold()) {
            LOG.error("append to {} refused: the file is shut down", path);
            return false;
        }
        try {
            ByteBuffer target = writerTarget();
            target.clear().position(current);
            target.put(data, offset, length);
            wrotePosition.set(current + length);
            return true;
        } finally {
            release();
        }
    }

    /**
     * The whole mapping, or null while an {@link OnDemandMappedFile} is parked. For {@link CommitLogPretoucher},
     * which touches pages ahead of the writer under a {@link #hold()}, and {@link UnmapBeforeForceMappedFile}.
     */
    final MappedByteBuffer mappingForPretouch() {
        return mapped;
    }

    /** The buffer appends go into; the writer's reused view. */
    protected ByteBuffer writerTarget() {
        space.refuseWrite(path);
        return mappedWriterView;
    }

    /** {@inheritDoc} Here: a view of what {@link #writerTarget()} is now (the mapping, or a write buffer). */
    @Override
    public ByteBuffer concurrentWriteView() {
        return writerTarget().duplicate();
    }

    /** Nothing to commit: appends are in the mapping already. */
    @Override
    public int commit(int leastPages) throws IOException {
        return wrotePosition.get();
    }

    @Override
    public int flush(int leastPages) throws IOException {
        if (leastPages < 0) {
            throw new IllegalArgumentException("leastPages must not be negative: " + leastPages);
        }
        int flushed = flushedPosition.get();
        int target = readPosition();
        if (!DirtyPages.worthPersisting(flushed, target, isFull(), leastPages)) {
            return flushed;
        }
        if (!hold()) {
            LOG.warn("flush of {} skipped: the file is shut down (flushed position stays {})", path, flushed);
            return flushed;
        }
        try {
            forceToDisk(flushed, target);
            ForceEvents.rangeForced(path, flushed, target);
            flushedPosition.set(target);
        } finally {
            release();
        }
        return flushedPosition.get();
    }

    /**
     * Makes bytes {@code [from, to)} durable; throws when the device refused. Called holding a reference.
     * This variant msyncs the dirty range of the mapping.
     */
    protected void forceToDisk(int from, int to) throws IOException {
        try {
            mapped.force(from, to - from);
        } catch (UncheckedIOException e) {
            throw new IOException("force of " + path + " [" + from + ", " + to + ") failed: "
                    + e.getCause().getMessage(), e.getCause());
        } catch (RuntimeException e) {
            throw new IOException("force of " + path + " [" + from + ", " + to + ") failed: " + e, e);
        }
    }

    @Override
    public SelectedRegion selectMappedBuffer(int pos) {
        if (pos < 0) {
            throw new IllegalArgumentException("negative position " + pos + " in " + path);
        }
        int readPosition = readPosition();
        return pos >= readPosition ? null : selectMappedBuffer(pos, readPosition - pos);
    }

    /** {@inheritDoc} Here: a duplicate of the mapping, which stays the same for the file's life. */
    @Override
    public ByteBuffer wholeFileReadView() {
        MappedByteBuffer current = mapped;
        return current == null ? null : current.duplicate();
    }

    /**
     * {@inheritDoc} The region is a writable view of the mapping: only the single writer of this file may write
     * through it (an index, for example); readers must not.
     */
    @Override
    public SelectedRegion selectMappedBuffer(int pos, int size) {
        if (pos < 0 || size < 0) {
            throw new IllegalArgumentException("bad region [" + pos + ", +" + size + ") in " + path);
        }
        if ((long) pos + size > readPosition() || !hold()) {
            return null;
        }
        return new SelectedRegion(fileFromOffset + pos, mapped.slice(pos, size), size, this);
    }

    @Override
    protected boolean cleanup(long currentRef) {
        if (isAvailable()) {
            LOG.error("refusing to unmap {}: it has not been shut down (references {})", path, currentRef);
            return false;
        }
        if (unmapped) {
            return true;
        }
        unmapped = true;
        unmapNow();
        channel.close(path);
        afterUnmap();
        LOG.debug("unmapped {}", path);
        return true;
    }

    /** Called once, under the cleanup, after the mapping is gone. */
    protected void afterUnmap() {
    }

    @Override
    public boolean destroy(long intervalForcibly) {
        shutdown(intervalForcibly);
        if (!isCleanupOver()) {
            if (!isOverdue()) {
                LOG.warn("could not destroy {} yet: still referenced ({} references); retry later", path, refCount());
                return false;
            }
            // unlinking a mapped file is safe: its pages stay readable until the last reader lets go and unmaps
            LOG.warn("deleting {} while still referenced ({} references) after {} ms: the mapping stays until the "
                    + "last reader lets go", path, refCount(), intervalForcibly);
        } else {
            channel.close(path);
        }
        try {
            Files.deleteIfExists(path);
            LOG.info("deleted {} (wrote {}, flushed {})", path, wrotePosition(), flushedPosition());
            return true;
        } catch (IOException e) {
            LOG.error("could not delete {}: {}", path, e.toString());
            return false;
        }
    }

    @Override
    public long lastModifiedTimestamp() {
        try {
            return Files.getLastModifiedTime(path).toMillis();
        } catch (IOException e) {
            return 0L;
        }
    }

    @Override
    public long storeTimestamp() {
        return storeTimestamp;
    }

    @Override
    public void warmUp(int flushLeastPages) {
        warmUp(flushLeastPages, () -> false);
    }

    /**
     * Writes a zero into every page so the kernel allocates them now rather than under the put lock, forcing
     * every {@code flushLeastPages} pages (0 = never), then mlocks the file ({@link FileWarmUp}). Stops early when
     * {@code abandon} becomes true (someone needs the file now). Only for a new, empty file. Never throws for
     * native failures.
     */
    public void warmUp(int flushLeastPages, BooleanSupplier abandon) {
        if (!hold()) {
            return;
        }
        try {
            memoryLock.warm(path, mapped, fileSize, flushLeastPages, abandon);
        } finally {
            release();
        }
    }

    @Override
    public void unlockMemory() {
        if (!memoryLock.locked() || !hold()) {
            return;
        }
        try {
            memoryLock.unlock(mapped, fileSize);
        } finally {
            release();
        }
    }

    /** True while the file is mlocked after a warm-up. */
    public boolean isMemoryLocked() {
        return memoryLock.locked();
    }

    /** The open channel of variants that keep it, else null. */
    protected FileChannel channel() {
        return channel.get();
    }

    /** Hands the kept channel over to the caller, who closes it from now on; null when none is kept. */
    protected final FileChannel takeChannel() {
        return channel.take();
    }

    protected final int checkPosition(int position) {
        if (position < 0 || position > fileSize) {
            throw new IllegalArgumentException("position " + position + " outside [0, " + fileSize + "] of " + path);
        }
        return position;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + path + ", wrote " + wrotePosition() + ", committed "
                + committedPosition() + ", flushed " + flushedPosition() + "]";
    }
}
