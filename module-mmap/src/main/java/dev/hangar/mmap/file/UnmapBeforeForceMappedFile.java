package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.LibC;
import dev.hangar.mmap.nativeio.NativeMemory;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A CommitLog file written through the shared mapping (the {@code mmap} variant) whose force first takes the pages
 * it covers wholly out of this process's mapping: {@code madvise(MADV_DONTNEED)} over
 * {@code [from rounded down, to rounded down)} to whole pages (when that is at least {@link #MIN_PAGES} pages: large
 * group commits, e.g. many puts in flight), then the usual {@code msync} of {@code [from, to)}.
 * Used under SYNC_FLUSH, where every put waits for a force ({@code syncFlushUnmapForcedPages}).
 *
 * <p>Why: write-back of a page that is mapped writable must write-protect its page-table entry and flush it from
 * every CPU's TLB, one page at a time, before the write can start; on this project's VMs a remote TLB flush is a
 * hypervisor exit. A group commit of 320 KiB forced that way took a median 3.1 ms against 1.1 ms with the pages
 * unmapped first (one batched TLB flush for the whole range), and 1.5 ms for the same bytes written with
 * {@code pwrite} and {@code fdatasync} (docs/PERFORMANCE.md, section "SYNC_FLUSH over the mapping").
 *
 * <p>Durability is unchanged: on a shared file mapping {@code MADV_DONTNEED} moves each page's dirty bit to the
 * page cache before it drops the page-table entry, and the bytes stay in the page cache, so the {@code msync} that
 * follows writes and waits for exactly what it did before. Only pages wholly below {@code to} are dropped: the
 * writer has moved past them and never writes them again (append only), so it takes no fault for this. The page
 * holding {@code to} (still being filled) stays mapped. Readers that read a dropped page later take one read fault
 * that maps it (and its neighbours) again read-only, with the same bytes. When {@code madvise} fails (no native
 * library, or the file is mlocked) the force proceeds as before: time, not data, is lost.
 *
 * <p>Small folios while the file is written: from its first force until a force reaches its end, the mapping is
 * advised {@code MADV_RANDOM}, so a fault on a page not in the page cache (the pretoucher's, or the writer's) reads
 * no pages around it and the page cache holds the file in 4 KiB folios. Without it the kernel's read-around fills
 * the cache ahead of the writer with large folios (up to 2 MiB on this project's 6.18 kernel, whose ext4 has large
 * folios). A store through the mapping dirties a whole folio, and write-back writes whole folios: every force
 * wrote the 2 MiB folio holding the write position again, 2.25x the bytes forced in the store-less probe of
 * docs/PERFORMANCE.md (section "SYNC_FLUSH in flight: ..."), and the same folio once per force until the writer
 * left it. With the advice each force writes only the pages it covers. Once the file is complete the advice is
 * taken back ({@code MADV_NORMAL}): readers of a full file from disk get read-around again.
 *
 * <p>Thread-safety: as {@link DefaultMappedFile}; the drop and the advice run on the flushing thread inside the
 * force, holding the reference the force holds.
 */
public final class UnmapBeforeForceMappedFile extends DefaultMappedFile {
    /** The kernel's page size (-1 when unknown: then nothing is dropped); see {@link CopyOnWriteMappedFile#PAGE}. */
    private static final int PAGE = CopyOnWriteMappedFile.PAGE;
    /**
     * The fewest whole pages a force must cover to be unmapped first. Below it the drop gains nothing measurable (a
     * 16 KiB force cost the same three ways in the probe) and its native call allocates (~57 B: the slice and JNA's
     * pointer and length), which a force of one put would charge to that put (PutAllocationTest's 64 B bound).
     */
    static final int MIN_PAGES = 16;

    private final NativeMemory nativeMemory;
    /** Bytes taken out of the mapping before forces, for tests and diagnostics. */
    private final AtomicLong unmappedBytes = new AtomicLong();
    /** The mapping's read advice: {@link LibC#MADV_NORMAL} until the first force, then random until complete. */
    private volatile int advice = LibC.MADV_NORMAL;
    /** Set once the file was complete and its advice taken back (or could not be given): no further calls. */
    private volatile boolean adviceDone;

    public UnmapBeforeForceMappedFile(Path directory, long fileFromOffset, int fileSize, NativeMemory nativeMemory)
            throws IOException {
        super(directory, fileFromOffset, fileSize, nativeMemory);
        this.nativeMemory = nativeMemory;
    }

    @Override
    protected void forceToDisk(int from, int to) throws IOException {
        boolean complete = to >= fileSize();
        if (!complete) {
            advise(LibC.MADV_RANDOM);
        }
        unmapWholePages(from, to);
        super.forceToDisk(from, to);
        if (complete) {
            advise(LibC.MADV_NORMAL);
            adviceDone = true;
        }
    }

    /** Gives the whole mapping {@code wanted} read advice unless it has it; one native call per change. */
    private void advise(int wanted) {
        if (adviceDone || advice == wanted) {
            return;
        }
        MappedByteBuffer mapping = mappingForPretouch();
        if (mapping == null) {
            return;
        }
        if (nativeMemory.madvise(mapping, fileSize(), wanted)) {
            advice = wanted;
        } else {
            adviceDone = true; // no native calls here: the file behaves as before, nothing to take back
        }
    }

    /** The read advice the mapping has now ({@link LibC#MADV_NORMAL} or {@link LibC#MADV_RANDOM}); for tests. */
    int advice() {
        return advice;
    }

    private void unmapWholePages(int from, int to) {
        if (PAGE <= 0) {
            return;
        }
        int start = from - from % PAGE;
        int end = to - to % PAGE;
        MappedByteBuffer mapping = mappingForPretouch();
        if (end - start < MIN_PAGES * PAGE || mapping == null) {
            return;
        }
        if (nativeMemory.madvise(mapping.slice(start, end - start), end - start, LibC.MADV_DONTNEED)) {
            unmappedBytes.addAndGet(end - start);
        }
    }

    /** Bytes taken out of the mapping before forces so far. */
    public long unmappedBytes() {
        return unmappedBytes.get();
    }
}
