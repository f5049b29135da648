package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.LibC;
import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import java.nio.MappedByteBuffer;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Gives the page cache of CommitLog bytes far behind the flushed position back to the kernel, so that the pages
 * created ahead of the writer are made from memory just freed instead of memory never used before. On a VM that
 * reports free guest memory to its host ({@code page_reporting}, as docs/PERFORMANCE.md found on this project's
 * machine), a page-cache page made from memory the host has taken back costs ~7 µs of the creating thread's CPU
 * (the host backs it again), one made from memory freed a moment before ~1.5 µs; the CommitLog creates one per
 * 4 KiB appended, on the pretoucher or, when it falls behind, on the writer inside a put. Without this, a store
 * that writes faster than the machine fills up with page cache keeps using never-touched memory until the page
 * cache fills the RAM.
 *
 * <p>Dropping a range is {@code madvise(MADV_DONTNEED)} on the file's mapping (the page-table entries go; a shared
 * file mapping keeps its data in the file and the page cache), then {@code posix_fadvise(POSIX_FADV_DONTNEED)}
 * (the clean pages leave the cache). Only bytes at least {@code keepBytes} behind the queue's flushed position are
 * dropped, so only clean pages are asked for; a page still dirty, or mapped again by a reader meanwhile, is left by
 * the kernel. Nothing is lost either way: a reader of a dropped range reads it from the disk.
 * A file is dropped from only under {@link DefaultMappedFile#hold()}, so never after its unmap.
 *
 * <p>Thread-safety: one thread (the pretoucher's) calls {@link #dropBehind}.
 */
final class PageCacheRecycler {
    /**
     * Bytes dropped per call to the kernel: large enough that the calls are few (about 35 per second at 280 MB/s),
     * small enough that the freed memory is reused within a fraction of a second, before the kernel reports it to the
     * host (its free-page reporting waits 2 s).
     */
    static final int STEP_BYTES = 8 << 20;
    /** Steps per call of {@link #dropBehind} at most, so the pretoucher's touching for the writer goes on between. */
    private static final int STEPS_PER_CALL = 4;

    private final NativeMemory nativeMemory;
    private final long keepBytes;
    private final AtomicLong bytesDropped = new AtomicLong();

    /**
     * @param keepBytes CommitLog bytes behind the flushed position left in the page cache (at least one step)
     */
    PageCacheRecycler(NativeMemory nativeMemory, long keepBytes) {
        this.nativeMemory = Objects.requireNonNull(nativeMemory, "nativeMemory");
        if (keepBytes < STEP_BYTES) {
            throw new IllegalArgumentException("the page cache kept behind the flushed position must be at least "
                    + STEP_BYTES + " bytes: " + keepBytes);
        }
        this.keepBytes = keepBytes;
    }

    /** Bytes dropped so far (asked for; the kernel leaves pages that were dirty or mapped again). */
    long bytesDropped() {
        return bytesDropped.get();
    }

    /**
     * Drops the steps of {@code queue} between {@code droppedUpTo} (a queue offset; negative: nothing yet) and
     * {@code keepBytes} behind its flushed position, at most {@link #STEPS_PER_CALL}. Returns the new dropped-up-to
     * offset. It starts once the queue has a flushed position (set by recovery, or by the first flush of a new
     * store), at that position minus {@code keepBytes}: pages of files that were there before the store opened are
     * left to the kernel.
     */
    long dropBehind(MappedFileQueue queue, long droppedUpTo) {
        long flushed = queue.getFlushedWhere();
        long limit = flushed - keepBytes;
        if (droppedUpTo < 0) {
            return flushed <= 0 ? -1 : Math.max(0, limit) / STEP_BYTES * STEP_BYTES;
        }
        long at = droppedUpTo;
        for (int step = 0; step < STEPS_PER_CALL && at + STEP_BYTES <= limit; step++) {
            MappedFile found = queue.findMappedFileByOffset(at, false);
            if (!(found instanceof DefaultMappedFile file) || found instanceof PooledMappedFile) {
                // deleted already, or not a mapped file of this kind: go on at the next file
                long next = (at / queue.mappedFileSize() + 1) * queue.mappedFileSize();
                at = found == null ? next : found.fileFromOffset() + found.fileSize();
                continue;
            }
            long from = at - file.fileFromOffset();
            long to = Math.min(file.fileSize(), from + STEP_BYTES);
            if (from < 0 || from >= file.fileSize()) {
                at = file.fileFromOffset() + file.fileSize();
                continue;
            }
            drop(file, (int) from, (int) to);
            at = file.fileFromOffset() + to;
        }
        return at;
    }

    private void drop(DefaultMappedFile file, int from, int to) {
        if (!file.hold()) {
            return;
        }
        try {
            MappedByteBuffer mapping = file.mappingForPretouch();
            if (mapping != null) {
                nativeMemory.madvise(mapping.slice(from, to - from), to - from, LibC.MADV_DONTNEED);
            }
            nativeMemory.dropFromPageCache(file.path(), from, to - from);
            bytesDropped.addAndGet(to - from);
        } finally {
            file.release();
        }
    }
}
