package dev.hangar.mmap.pool;

import dev.hangar.mmap.file.MappedBufferCleaner;
import dev.hangar.mmap.nativeio.NativeMemory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fixed set of direct write buffers, each one CommitLog file large, mlocked when the OS allows it (best
 * effort: a failed mlock is one warning, the buffer is used anyway). A new CommitLog file borrows one for its
 * appends and gives it back once it is full and committed.
 *
 * <p>Thread-safe. A buffer is handed to one borrower at a time: giving back a buffer that is not out is refused,
 * because handing the same buffer to two files would mix their data.
 */
public final class TransientStorePool {
    private static final Logger LOG = LoggerFactory.getLogger(TransientStorePool.class);
    /** Below this share of free buffers every borrow warns: the committer is falling behind. */
    private static final double LOW_WATER_RATIO = 0.4;

    private final int poolSize;
    private final int fileSize;
    private final NativeMemory nativeMemory;
    private final Deque<ByteBuffer> available = new ConcurrentLinkedDeque<>();
    private final Set<ByteBuffer> borrowed = Collections.newSetFromMap(new IdentityHashMap<>());
    private volatile boolean initialized;
    private volatile boolean destroyed;

    public TransientStorePool(int poolSize, int fileSize, NativeMemory nativeMemory) {
        if (poolSize <= 0) {
            throw new IllegalArgumentException("transientStorePoolSize must be positive: " + poolSize);
        }
        if (fileSize <= 0) {
            throw new IllegalArgumentException("pooled buffer size must be positive: " + fileSize);
        }
        this.poolSize = poolSize;
        this.fileSize = fileSize;
        this.nativeMemory = Objects.requireNonNull(nativeMemory, "nativeMemory");
    }

    /**
     * Allocates and mlocks the buffers. Fails with a clear message when the JVM has not enough direct memory
     * (then nothing stays allocated); never fails because of mlock.
     */
    public synchronized void init() {
        if (initialized) {
            return;
        }
        if (destroyed) {
            throw new IllegalStateException("the write-buffer pool was destroyed");
        }
        List<ByteBuffer> all = new ArrayList<>(poolSize);
        int locked = 0;
        for (int i = 0; i < poolSize; i++) {
            ByteBuffer buffer;
            try {
                buffer = ByteBuffer.allocateDirect(fileSize);
            } catch (OutOfMemoryError e) {
                all.forEach(MappedBufferCleaner::clean);
                all.clear();
                available.clear();
                throw new IllegalStateException("cannot allocate the write-buffer pool: transientStorePoolSize ("
                        + poolSize + ") x mappedFileSizeCommitLog (" + fileSize + " bytes) exceeds the JVM's direct "
                        + "memory (raise -XX:MaxDirectMemorySize, or lower either key): " + e.getMessage(), e);
            }
            if (nativeMemory.mlock(buffer, fileSize)) {
                locked++;
            }
            all.add(buffer);
            available.offer(buffer);
        }
        initialized = true;
        LOG.info("write-buffer pool ready: {} buffers of {} bytes ({} locked in memory)", poolSize, fileSize, locked);
    }

    /** A free buffer (position 0, limit = capacity), or null when none is left. */
    public ByteBuffer borrowBuffer() {
        ByteBuffer buffer = available.pollFirst();
        if (buffer == null) {
            LOG.warn("the write-buffer pool is empty ({} buffers all in use)", poolSize);
            return null;
        }
        synchronized (borrowed) {
            borrowed.add(buffer);
        }
        int remaining = available.size();
        if (remaining < poolSize * LOW_WATER_RATIO) {
            LOG.warn("the write-buffer pool has only {} of {} buffers left", remaining, poolSize);
        }
        return buffer;
    }

    /** Gives back a borrowed buffer; freed at once when the pool is already destroyed. */
    public void returnBuffer(ByteBuffer buffer) {
        Objects.requireNonNull(buffer, "buffer");
        synchronized (borrowed) {
            if (!borrowed.remove(buffer)) {
                throw new IllegalStateException("this buffer is not borrowed from this pool");
            }
        }
        if (destroyed) {
            free(buffer);
            return;
        }
        buffer.clear();
        available.offerFirst(buffer);
        if (destroyed) {
            // destroy() ran between the check and the offer: free what it could not see
            freeAvailable();
        }
    }

    /** Buffers free now. */
    public int availableBufferNums() {
        return available.size();
    }

    public int poolSize() {
        return poolSize;
    }

    public int fileSize() {
        return fileSize;
    }

    /** Munlocks and frees the free buffers; buffers still out are freed when they come back. */
    public synchronized void destroy() {
        if (destroyed) {
            return;
        }
        destroyed = true;
        freeAvailable();
        LOG.info("write-buffer pool destroyed");
    }

    private void freeAvailable() {
        ByteBuffer buffer;
        while ((buffer = available.pollFirst()) != null) {
            free(buffer);
        }
    }

    private void free(ByteBuffer buffer) {
        nativeMemory.munlock(buffer, fileSize);
        MappedBufferCleaner.clean(buffer);
    }
}
