package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.LibC;
import dev.hangar.spi.mapped.MappedFile;
import java.nio.MappedByteBuffer;

/**
 * Turns the kernel's read-around off for a CommitLog file while it is written, and back on once the writer has
 * rolled past it.
 *
 * <p>Why: a page fault on a page of a file mapping that is not in the page cache reads the pages around it into the
 * cache first ("read-around", as large as the device's {@code read_ahead_kb}: 8 MiB on the VM of
 * docs/PERFORMANCE.md). The CommitLog's blocks are reserved but unwritten, so that read is no I/O but a zero-fill of
 * up to 8 MiB of new page-cache pages, done by the faulting thread: when the writer outruns the pretoucher (a
 * paced writer catching up on 2 busy cores) one of its stores zero-fills megabytes, 20-50 ms of its CPU inside one
 * put (perf: {@code __memset < zero_user_segments < ext4_mpage_readpages < page_cache_ra_order <
 * filemap_fault}). With {@code MADV_RANDOM} a fault brings in only its own page: the same zeroing, spread over the
 * stores that need it, a few microseconds each. Read-around helps only a reader that faults its way through data
 * not in the cache, which a file being written is not; so the advice goes back to normal when the file is full,
 * for consumers that read it cold later.
 *
 * <p>Thread-safety: {@link #whileWritten} on a new file before it is handed out; {@link #afterWritten} from the
 * thread that rolls the queue. Both are {@code madvise} flags of the mapping only: no byte changes.
 */
public final class ReadAround {

    private ReadAround() {
    }

    /** A new file about to be written: faults read only their own page. Returns the file. */
    public static DefaultMappedFile whileWritten(DefaultMappedFile file) {
        if (advise(file, LibC.MADV_RANDOM)) {
            file.readAroundOff = true;
        }
        return file;
    }

    /** The writer rolled past {@code file}: read-around as usual again, for its readers. */
    public static void afterWritten(MappedFile file) {
        if (file instanceof DefaultMappedFile mapped && mapped.readAroundOff && advise(mapped, LibC.MADV_NORMAL)) {
            mapped.readAroundOff = false;
        }
    }

    /** True while {@code file}'s faults read no pages around them. */
    public static boolean isOff(MappedFile file) {
        return file instanceof DefaultMappedFile mapped && mapped.readAroundOff;
    }

    private static boolean advise(DefaultMappedFile file, int advice) {
        if (!file.hold()) {
            return false;
        }
        try {
            MappedByteBuffer mapping = file.mappingForPretouch();
            return mapping != null && file.nativeMemory().madvise(mapping, file.fileSize(), advice);
        } finally {
            file.release();
        }
    }
}
