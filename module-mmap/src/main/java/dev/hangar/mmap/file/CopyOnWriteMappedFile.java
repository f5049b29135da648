package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.LibC;
import dev.hangar.mmap.nativeio.NativeMemory;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code write-window} variant: a write buffer that holds only what is not committed yet, without any pool.
 * Appends go into a second, <em>private</em> (copy-on-write) mapping of the same file: a page the writer touches
 * becomes a private copy, invisible to the file and to readers. {@link #commit(int)} writes
 * {@code [committed, wrote)} from that mapping to the file channel ({@code pwrite}) and then hands the private
 * copies of the pages now wholly committed back to the kernel ({@code madvise(MADV_DONTNEED)}): read again, such a
 * page shows the file's contents, which are the same bytes. So the resident write buffer is the uncommitted bytes
 * plus at most one page, and a SYNC_FLUSH group commit is a {@code pwrite} + {@code fdatasync} (much cheaper than
 * forcing a range written through the shared mapping; see docs/PERFORMANCE.md). Readers read the shared mapping up
 * to the committed position, as with {@link PooledMappedFile}. Positions are file positions in both mappings, so
 * append callbacks see the same buffer contract as with the other variants.
 *
 * <p>Thread-safety: one appending thread, one committing thread (each with its own view of the private mapping),
 * one flushing thread, readers from any thread. The writer publishes bytes by moving the wrote position (an
 * atomic), which the committer reads before reading the bytes. Only the committer drops pages, and only pages
 * below the committed position, which the writer never writes again.
 */
public class CopyOnWriteMappedFile extends DefaultMappedFile {
    private static final Logger LOG = LoggerFactory.getLogger(CopyOnWriteMappedFile.class);
    /**
     * The kernel's page size, or -1 when it could not be read (then nothing is given back). It must be the real
     * one: {@code madvise} rounds the length up to whole pages, so a wrong (smaller) size would drop a page that
     * still holds uncommitted bytes, and lose them.
     */
    static final int PAGE = kernelPageSize();

    private final NativeMemory nativeMemory;
    private volatile MappedByteBuffer privateMapping;
    private final ByteBuffer writerView;
    private final ByteBuffer committerView;
    private final AtomicInteger committedPosition = new AtomicInteger();
    /** Private pages below this position were given back; touched by the committing thread only. */
    private int droppedUpTo;
    private final AtomicInteger droppedBytes = new AtomicInteger();

    public CopyOnWriteMappedFile(Path directory, long fileFromOffset, int fileSize, NativeMemory nativeMemory)
            throws IOException {
        super(directory, fileFromOffset, fileSize, nativeMemory, true);
        this.nativeMemory = nativeMemory;
        MappedByteBuffer mapping;
        try {
            mapping = channel().map(FileChannel.MapMode.PRIVATE, 0, fileSize);
        } catch (IOException | RuntimeException e) {
            shutdown(0);
            throw new IOException("could not map " + path() + " privately as its write buffer (" + fileSize
                    + " bytes): " + e.getMessage(), e);
        }
        this.privateMapping = mapping;
        this.writerView = mapping.duplicate();
        this.committerView = mapping.duplicate();
    }

    private static int kernelPageSize() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return (Integer) unsafeClass.getMethod("pageSize").invoke(theUnsafe.get(null));
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("the kernel page size is unknown ({}): write-window files keep the private copies of committed "
                    + "pages until they are unmapped", e.toString());
            return -1;
        }
    }

    @Override
    protected ByteBuffer writerTarget() {
        return writerView;
    }

    @Override
    public int committedPosition() {
        return committedPosition.get();
    }

    /** Recovery sets it with the wrote position: the bytes below are in the file already. */
    @Override
    public void committedPosition(int position) {
        int checked = checkPosition(position);
        committedPosition.set(checked);
    }

    /** Only committed bytes are in the file, so only they are readable through the shared mapping. */
    @Override
    public int readPosition() {
        return committedPosition.get();
    }

    /** Bytes of private page copies given back so far (for tests and diagnostics). */
    public int droppedBytes() {
        return droppedBytes.get();
    }

    @Override
    public int commit(int leastPages) throws IOException {
        if (leastPages < 0) {
            throw new IllegalArgumentException("leastPages must not be negative: " + leastPages);
        }
        int committed = committedPosition.get();
        int wrote = wrotePosition.get();
        if (DirtyPages.worthPersisting(committed, wrote, isFull(), leastPages)) {
            if (hold()) {
                try {
                    PositionalWrites.writeRange(channel(), committerView, committed, wrote);
                    committedPosition.set(wrote);
                    dropCommittedPages(wrote);
                } finally {
                    release();
                }
            } else {
                LOG.warn("commit of {} skipped: the file is shut down (committed position stays {})", path(),
                        committed);
            }
        }
        return committedPosition.get();
    }

    /**
     * Gives back the private copies of the pages wholly below {@code committed}: the file holds the same bytes now.
     * When the call fails (no native library) the copies stay until the file is unmapped: memory, not data, is lost.
     */
    private void dropCommittedPages(int committed) {
        if (PAGE <= 0) {
            return;
        }
        int upTo = committed - committed % PAGE;
        if (upTo <= droppedUpTo) {
            return;
        }
        MappedByteBuffer mapping = privateMapping;
        if (mapping != null && nativeMemory.madvise(mapping.slice(droppedUpTo, upTo - droppedUpTo),
                upTo - droppedUpTo, LibC.MADV_DONTNEED)) {
            droppedBytes.addAndGet(upTo - droppedUpTo);
        }
        droppedUpTo = upTo;
    }

    /** The appends reached the file with {@code pwrite}: {@code fdatasync} makes them durable. */
    @Override
    protected void forceToDisk(int from, int to) throws IOException {
        FileChannel channel = channel();
        if (channel == null) {
            throw new ClosedChannelException();
        }
        channel.force(false);
    }

    @Override
    protected void afterUnmap() {
        int lost = wrotePosition.get() - committedPosition.get();
        if (lost > 0) {
            LOG.warn("{} closed with {} appended bytes never committed to the file", path(), lost);
        }
        MappedByteBuffer mapping = privateMapping;
        privateMapping = null;
        if (mapping != null) {
            MappedBufferCleaner.clean(mapping);
        }
    }
}
