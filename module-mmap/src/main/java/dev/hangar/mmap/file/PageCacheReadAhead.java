package dev.hangar.mmap.file;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Brings one file's pages into the page cache ahead of a writer by reading them, in order, through a read-only
 * channel of its own: {@code pread} into a reused buffer whose contents are thrown away. Used by
 * {@link CommitLogPretoucher} so that the kernel creates the page-cache pages of the CommitLog (zero-filled, as
 * its blocks are reserved but unwritten) on the pretouch thread, far ahead of the writer, instead of the writer's
 * page fault doing it: a fault on a page not in the cache reads the pages around it first, up to the device's
 * {@code read_ahead_kb} (8 MiB on the VM of docs/PERFORMANCE.md, 20-50 ms on the faulting thread).
 *
 * <p>Why a read and not an advice: {@code MADV_WILLNEED} and {@code posix_fadvise(WILLNEED)} (and
 * {@code readahead(2)}) force a read-ahead that allocates one 4 KiB folio per page, and a CommitLog in 4 KiB
 * folios costs its flush one write-protect fault and TLB flush per page (docs/PERFORMANCE.md). A sequential read
 * runs the kernel's normal read-ahead, which allocates large folios, like the writer's own fault would. The pages
 * read stay clean: a write-back before the writer comes has nothing to write and write-protects nothing, so the
 * distance read ahead can be much longer than the distance touched writable.
 *
 * <p>The channel is kept open while the same file is read, so that the kernel sees one sequential stream
 * (read-ahead state is per open file). The file is never created, written or resized here: a missing file is
 * skipped. Not thread-safe: one pretouch thread.
 */
final class PageCacheReadAhead implements AutoCloseable {
    /** Bytes per {@code pread}: 256 pages, well under a millisecond each once the pages exist. */
    static final int READ_BYTES = 1 << 20;

    /** Where the bytes read go, and are forgotten; made at the first read, so a reader never used costs nothing. */
    private ByteBuffer sink;
    private Path path;
    /** {@link #path} as a File, made once per file: asking whether it exists yet allocates nothing. */
    private File file;
    private FileChannel channel;
    private long readUpTo;

    /** The file now being read, or null. */
    Path path() {
        return path;
    }

    /** How far the current file has been read (0 for a file just switched to). */
    long readUpTo() {
        return readUpTo;
    }

    /**
     * Reads {@code path} from where this reader stands (or {@code from}, if further) up to {@code to}, switching
     * files first when {@code path} is another one. Returns the bytes read: fewer when the file ends first, 0 when
     * it does not exist (yet).
     */
    long readAhead(Path path, long from, long to) throws IOException {
        if (!path.equals(this.path)) {
            close();
            this.path = path;
            this.file = path.toFile();
            this.readUpTo = 0;
        }
        long position = Math.max(readUpTo, from);
        if (position >= to) {
            return 0;
        }
        if (channel == null) {
            if (!file.exists()) {
                // not created yet, and asked every step until it is: File.exists answers without an exception,
                // where opening a missing file throws one (about 4.4 KB with its stack trace) each time
                return 0;
            }
            try {
                channel = FileChannel.open(path, StandardOpenOption.READ);
            } catch (NoSuchFileException notYetCreated) {
                return 0;
            }
        }
        if (sink == null) {
            sink = ByteBuffer.allocateDirect(READ_BYTES);
        }
        long start = position;
        while (position < to) {
            sink.clear().limit((int) Math.min(READ_BYTES, to - position));
            int read = channel.read(sink, position);
            if (read <= 0) {
                break;
            }
            position += read;
        }
        readUpTo = position;
        return position - start;
    }

    @Override
    public void close() throws IOException {
        FileChannel open = channel;
        channel = null;
        path = null;
        file = null;
        readUpTo = 0;
        if (open != null) {
            open.close();
        }
    }
}
