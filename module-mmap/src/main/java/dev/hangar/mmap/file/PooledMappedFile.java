package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.pool.TransientStorePool;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code transient-pool} variant: the same mapped file, but appends go into a direct buffer (one whole file
 * large, mlocked) borrowed from a {@link TransientStorePool}. {@link #commit(int)} writes
 * {@code [committed, wrote)} to the file channel; readers see only committed bytes (through the mapping, which
 * shares the page cache with the channel); a flush is {@code FileChannel.force(false)}. Once the file is full
 * and fully committed the buffer goes back to the pool and the file behaves like the {@code mmap} variant.
 * When the pool had no buffer the file is the {@code mmap} variant from the start.
 *
 * <p>A commit is published in steps of {@link #COMMIT_STEP_BYTES}: a committer that fell behind (its pwrite costs
 * ~14 us per new 4 KiB page on the VM of docs/PERFORMANCE.md, slower than 4 writers) works off its backlog step
 * by step, and readers and dispatch follow each step instead of seeing the readable end jump by the whole backlog
 * once the last byte of it is written.
 *
 * <p>Thread-safety: one appending thread, one committing thread (each with its own reused view of the buffer),
 * one flushing thread, readers from any thread. The writer publishes bytes by moving the wrote position (an
 * atomic), which the committer reads before reading the bytes.
 */
public class PooledMappedFile extends DefaultMappedFile {
    private static final Logger LOG = LoggerFactory.getLogger(PooledMappedFile.class);
    /** The most a commit writes before it publishes the committed position. */
    static final int COMMIT_STEP_BYTES = 1 << 20;

    private final TransientStorePool pool;
    /** The borrowed buffer; null once given back (or when none was free). */
    private final AtomicReference<ByteBuffer> writeBuffer = new AtomicReference<>();
    private final ByteBuffer poolWriterView;
    private final ByteBuffer committerView;
    private final boolean writesThroughChannel;
    private final AtomicInteger committedPosition = new AtomicInteger();

    public PooledMappedFile(Path directory, long fileFromOffset, int fileSize, TransientStorePool pool,
                            NativeMemory nativeMemory) throws IOException {
        super(directory, fileFromOffset, checkSameSize(pool, fileSize), nativeMemory, true);
        this.pool = pool;
        ByteBuffer borrowed = pool.borrowBuffer();
        if (borrowed == null) {
            LOG.warn("no pooled write buffer free for {}: it is written through the mapping instead", path());
        }
        this.writeBuffer.set(borrowed);
        this.poolWriterView = borrowed == null ? null : borrowed.duplicate();
        this.committerView = borrowed == null ? null : borrowed.duplicate();
        this.writesThroughChannel = borrowed != null;
    }

    private static int checkSameSize(TransientStorePool pool, int fileSize) {
        Objects.requireNonNull(pool, "pool");
        if (pool.fileSize() != fileSize) {
            throw new IllegalArgumentException("the write-buffer pool holds buffers of " + pool.fileSize()
                    + " bytes but the file is to be " + fileSize + " bytes");
        }
        return fileSize;
    }

    /** True while the file still holds a buffer from the pool. */
    public boolean hasWriteBuffer() {
        return writeBuffer.get() != null;
    }

    @Override
    protected ByteBuffer writerTarget() {
        return writeBuffer.get() != null ? poolWriterView : super.writerTarget();
    }

    @Override
    public int committedPosition() {
        return committedPosition.get();
    }

    @Override
    public void committedPosition(int position) {
        committedPosition.set(checkPosition(position));
    }

    /** Committed bytes while the buffer is in use (the rest is not in the file yet), else the wrote position. */
    @Override
    public int readPosition() {
        return writeBuffer.get() == null ? wrotePosition.get() : committedPosition.get();
    }

    @Override
    public int commit(int leastPages) throws IOException {
        if (leastPages < 0) {
            throw new IllegalArgumentException("leastPages must not be negative: " + leastPages);
        }
        if (writeBuffer.get() == null) {
            // written through the mapping: nothing to copy, so all that was written counts as committed
            committedPosition.set(wrotePosition.get());
            return committedPosition.get();
        }
        int committed = committedPosition.get();
        int wrote = wrotePosition.get();
        if (DirtyPages.worthPersisting(committed, wrote, isFull(), leastPages)) {
            if (hold()) {
                try {
                    for (int from = committed; from < wrote; ) {
                        int to = Math.min(wrote, from + COMMIT_STEP_BYTES);
                        PositionalWrites.writeRange(channel(), committerView, from, to);
                        committedPosition.set(to);
                        from = to;
                    }
                } finally {
                    release();
                }
            } else {
                LOG.warn("commit of {} skipped: the file is shut down (committed position stays {})", path(),
                        committed);
            }
        }
        if (committedPosition.get() == fileSize()) {
            giveBufferBack();
        }
        return committedPosition.get();
    }

    @Override
    protected void forceToDisk(int from, int to) throws IOException {
        if (!writesThroughChannel) {
            super.forceToDisk(from, to);
            return;
        }
        FileChannel channel = channel();
        if (channel == null) {
            throw new ClosedChannelException();
        }
        channel.force(false);
    }

    @Override
    protected void afterUnmap() {
        int lost = wrotePosition.get() - committedPosition.get();
        if (writeBuffer.get() != null && lost > 0) {
            LOG.warn("{} closed with {} appended bytes never committed to the file", path(), lost);
        }
        giveBufferBack();
    }

    private void giveBufferBack() {
        ByteBuffer buffer = writeBuffer.getAndSet(null);
        if (buffer != null) {
            pool.returnBuffer(buffer);
        }
    }
}
