package dev.hangar.dispatch.index;

import static dev.hangar.spi.format.IndexFileFormat.BEGIN_PHY_OFFSET_OFFSET;
import static dev.hangar.spi.format.IndexFileFormat.BEGIN_TIMESTAMP_OFFSET;
import static dev.hangar.spi.format.IndexFileFormat.END_PHY_OFFSET_OFFSET;
import static dev.hangar.spi.format.IndexFileFormat.END_TIMESTAMP_OFFSET;
import static dev.hangar.spi.format.IndexFileFormat.ENTRY_KEY_HASH_OFFSET;
import static dev.hangar.spi.format.IndexFileFormat.ENTRY_PHY_OFFSET_OFFSET;
import static dev.hangar.spi.format.IndexFileFormat.ENTRY_PREV_INDEX_OFFSET;
import static dev.hangar.spi.format.IndexFileFormat.ENTRY_TIME_DIFF_OFFSET;
import static dev.hangar.spi.format.IndexFileFormat.FIRST_ENTRY_INDEX;
import static dev.hangar.spi.format.IndexFileFormat.HASH_SLOT_COUNT_OFFSET;
import static dev.hangar.spi.format.IndexFileFormat.INDEX_COUNT_OFFSET;
import static dev.hangar.spi.format.IndexFileFormat.NO_ENTRY;

import dev.hangar.spi.flush.DurableFiles;
import dev.hangar.spi.flush.ForceEvents;
import dev.hangar.spi.format.IndexFileFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One hash index file (layout in {@link IndexFileFormat}), mapped whole with {@link FileChannel#map}.
 *
 * <p>Index files are named by time, not offset, so they are not a {@code MappedFileQueue}. The channel is closed
 * right after mapping; the mapping itself is released by the garbage collector once the file is dropped. This
 * module may not unmap explicitly ({@code Unsafe.invokeCleaner} needs {@code jdk.unsupported}); the upside is that a
 * query still walking a file that is being deleted reads valid memory, never an unmapped page.
 *
 * <p>Thread-safety: {@link #putKey}, {@link #truncateFrom} and batches ({@link #beginBatch}, {@link #appendKeyHash},
 * {@link #endBatch}) from one writer at a time; queries from any thread. A read-write lock makes every query see
 * whole entries and a consistent header. The writer keeps the header values in plain fields of its own and
 * publishes them to volatile fields, which every other thread reads without the lock, when it lets go of the lock:
 * a batch of keys pays for the lock and the volatile writes once, not per key.
 */
final class IndexFile {
    private static final Logger LOG = LoggerFactory.getLogger(IndexFile.class);

    private final Path path;
    private final int slotCount;
    private final int entryCapacity;
    private final MappedByteBuffer buffer;
    /**
     * Fair: the writer holds it for a whole batch and takes it again right after, so without fairness a waiting
     * query could lose the race for it batch after batch while dispatch keeps going.
     */
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);

    // the writer's header values: read and written only by the writer, under the write lock or while nothing
    // else writes (create, open, truncate); published to the volatile fields below when the lock is let go
    private long writerBeginTimestamp;
    private long writerEndTimestamp;
    private long writerBeginPhyOffset;
    private long writerEndPhyOffset;
    private int writerHashSlotCount;
    private int writerIndexCount;
    /** Keys appended in the batch under way (none: nothing to publish, the file is not dirtier). */
    private int batchKeys;

    // the header as readers see it: the writer's values at its last publish
    private volatile long beginTimestamp;
    private volatile long endTimestamp;
    private volatile long beginPhyOffset;
    private volatile long endPhyOffset;
    private volatile int hashSlotCount;
    private volatile int indexCount;
    private volatile boolean dirty;

    private IndexFile(Path path, int slotCount, int entryCapacity, MappedByteBuffer buffer) {
        this.path = path;
        this.slotCount = slotCount;
        this.entryCapacity = entryCapacity;
        this.buffer = buffer;
    }

    /**
     * Creates a new file. A file that follows a full one starts with that file's end offset and time as its
     * begin and end, as RocketMQ does, so the chain of files stays ordered even before the first key.
     */
    static IndexFile create(Path path, int slotCount, int entryCapacity, long previousEndPhyOffset,
                            long previousEndTimestamp) {
        return create(path, slotCount, entryCapacity, previousEndPhyOffset, previousEndTimestamp, HashSlotAdvice.NONE);
    }

    /** As {@link #create(Path, int, int, long, long)}, with {@code advice} given for the new mapping's hash slots. */
    static IndexFile create(Path path, int slotCount, int entryCapacity, long previousEndPhyOffset,
                            long previousEndTimestamp, HashSlotAdvice advice) {
        IndexFile file = new IndexFile(path, slotCount, entryCapacity,
                map(path, slotCount, entryCapacity, true, false, advice));
        try {
            // its length and name on the disk before a key goes in: a power cut must not leave it empty or nameless
            DurableFiles.forceCreation(path, List.of());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force the creation of index file " + path, e);
        }
        if (previousEndPhyOffset > 0) {
            file.writerBeginPhyOffset = previousEndPhyOffset;
            file.writerEndPhyOffset = previousEndPhyOffset;
        }
        if (previousEndTimestamp > 0) {
            file.writerBeginTimestamp = previousEndTimestamp;
            file.writerEndTimestamp = previousEndTimestamp;
        }
        file.writerIndexCount = FIRST_ENTRY_INDEX;
        file.writeHeader();
        file.publish();
        file.dirty = true;
        return file;
    }

    /** Maps an existing file for writing and reads its header (see the four-argument {@code open}). */
    static IndexFile open(Path path, int slotCount, int entryCapacity) {
        return open(path, slotCount, entryCapacity, false);
    }

    /**
     * Maps an existing file and reads its header; a wrong length or an impossible header is an error.
     *
     * @param readOnly true in a store opened read-only: opened for reading, mapped {@code READ_ONLY}, never written
     */
    static IndexFile open(Path path, int slotCount, int entryCapacity, boolean readOnly) {
        return open(path, slotCount, entryCapacity, readOnly, HashSlotAdvice.NONE);
    }

    /** As {@link #open(Path, int, int, boolean)}, with {@code advice} given for a writable mapping's hash slots. */
    static IndexFile open(Path path, int slotCount, int entryCapacity, boolean readOnly, HashSlotAdvice advice) {
        long expected = IndexFileFormat.fileSize(slotCount, entryCapacity);
        long actual;
        try {
            actual = Files.size(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the size of index file " + path, e);
        }
        if (actual != expected) {
            throw new IllegalStateException("index file " + path + " has " + actual + " bytes but maxHashSlotNum="
                    + slotCount + " and maxIndexNum=" + entryCapacity + " make " + expected
                    + "; set them to the values the file was written with");
        }
        IndexFile file = new IndexFile(path, slotCount, entryCapacity,
                map(path, slotCount, entryCapacity, false, readOnly, advice));
        file.readHeader();
        return file;
    }

    private static MappedByteBuffer map(Path path, int slotCount, int entryCapacity, boolean create,
                                        boolean readOnly, HashSlotAdvice advice) {
        long size = IndexFileFormat.fileSize(slotCount, entryCapacity);
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maxHashSlotNum=" + slotCount + " and maxIndexNum=" + entryCapacity
                    + " make an index file of " + size + " bytes; one mapped file holds at most " + Integer.MAX_VALUE);
        }
        StandardOpenOption[] options = create
                ? new StandardOpenOption[] {StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE}
                : readOnly ? new StandardOpenOption[] {StandardOpenOption.READ}
                : new StandardOpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE};
        try (FileChannel channel = FileChannel.open(path, options)) {
            MappedByteBuffer mapping = channel.map(readOnly ? FileChannel.MapMode.READ_ONLY
                    : FileChannel.MapMode.READ_WRITE, 0, size);
            long slots = hashSlotRegion(slotCount);
            if (!readOnly && slots > 0) {
                advice.advise(mapping, slots);
            }
            return mapping;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map index file " + path, e);
        }
    }

    /**
     * The whole 2 MiB pages (the huge pages that may back them) within the header and the hash slots: rounded down,
     * so that no huge page reaches into the entries, which fill from the front: a 2 MiB page there would be written
     * back whole with the first entries and take its blocks on disk at once (the 8 000-queue benchmark's disk use
     * grew from 2.01x to 2.03x the data with the slots rounded up). The slots' last partial page keeps 4 KiB pages,
     * as long as a fault in the advised range reads nothing around it: {@code MappedStorage.adviseHugePages} gives no
     * read-around with the advice (a huge-page fault otherwise reads the next 2 MiB page too, the entries' first).
     * 0 for a slot table smaller than one huge page.
     */
    static long hashSlotRegion(int slotCount) {
        long slotsEnd = IndexFileFormat.HEADER_SIZE + (long) slotCount * IndexFileFormat.SLOT_SIZE;
        return slotsEnd / HUGE_PAGE * HUGE_PAGE;
    }

    private static final long HUGE_PAGE = 2L * 1024 * 1024;

    private void readHeader() {
        writerBeginTimestamp = buffer.getLong(BEGIN_TIMESTAMP_OFFSET);
        writerEndTimestamp = buffer.getLong(END_TIMESTAMP_OFFSET);
        writerBeginPhyOffset = buffer.getLong(BEGIN_PHY_OFFSET_OFFSET);
        writerEndPhyOffset = buffer.getLong(END_PHY_OFFSET_OFFSET);
        writerHashSlotCount = buffer.getInt(HASH_SLOT_COUNT_OFFSET);
        int count = buffer.getInt(INDEX_COUNT_OFFSET);
        if (count > entryCapacity || count < 0) {
            throw new IllegalStateException("index file " + path + " is corrupt: index count " + count
                    + " outside [0, " + entryCapacity + "]; delete it to rebuild the index from the commit log");
        }
        // a file whose header never reached the disk reads 0: nothing indexed yet
        writerIndexCount = Math.max(count, FIRST_ENTRY_INDEX);
        publish();
    }

    private void writeHeader() {
        buffer.putLong(BEGIN_TIMESTAMP_OFFSET, writerBeginTimestamp);
        buffer.putLong(END_TIMESTAMP_OFFSET, writerEndTimestamp);
        buffer.putLong(BEGIN_PHY_OFFSET_OFFSET, writerBeginPhyOffset);
        buffer.putLong(END_PHY_OFFSET_OFFSET, writerEndPhyOffset);
        buffer.putInt(HASH_SLOT_COUNT_OFFSET, writerHashSlotCount);
        buffer.putInt(INDEX_COUNT_OFFSET, writerIndexCount);
    }

    /** Makes the writer's header values the ones every other thread reads. */
    private void publish() {
        beginTimestamp = writerBeginTimestamp;
        endTimestamp = writerEndTimestamp;
        beginPhyOffset = writerBeginPhyOffset;
        endPhyOffset = writerEndPhyOffset;
        hashSlotCount = writerHashSlotCount;
        indexCount = writerIndexCount;
    }

    /** Adds a key for the record at {@code phyOffset}; false when the file is full. */
    boolean putKey(String indexKey, long phyOffset, long storeTimestamp) {
        return putKeyHash(IndexFileFormat.keyHash(indexKey), phyOffset, storeTimestamp);
    }

    /** Adds a key by its {@link IndexFileFormat#keyHash hash}; false when the file is full. */
    boolean putKeyHash(int keyHash, long phyOffset, long storeTimestamp) {
        beginBatch();
        try {
            return appendKeyHash(keyHash, phyOffset, storeTimestamp);
        } finally {
            endBatch();
        }
    }

    /**
     * Takes the write lock for a batch of {@link #appendKeyHash} calls: queries wait until {@link #endBatch}, which
     * the same thread must call (in a finally).
     */
    void beginBatch() {
        if (buffer.isReadOnly()) {
            throw new IllegalStateException("cannot write to index file " + path + ": it is mapped read-only (the "
                    + "store was opened read-only)");
        }
        lock.writeLock().lock();
    }

    /** True when a query waits for the lock: the writer then ends its batch early (see IndexDispatcher). */
    boolean hasWaitingReaders() {
        return lock.hasQueuedThreads();
    }

    /** True when the calling thread is inside a batch on this file. */
    boolean batchHeldByCurrentThread() {
        return lock.isWriteLockedByCurrentThread();
    }

    /** Publishes the keys of the batch to readers and lets go of the write lock. */
    void endBatch() {
        if (batchKeys > 0) {
            batchKeys = 0;
            publish();
            dirty = true;
        }
        lock.writeLock().unlock();
    }

    /**
     * Adds a key by its {@link IndexFileFormat#keyHash hash} inside a batch ({@link #beginBatch}); false when the
     * file is full.
     */
    boolean appendKeyHash(int keyHash, long phyOffset, long storeTimestamp) {
        assert lock.isWriteLockedByCurrentThread() : "appendKeyHash outside a batch";
        int index = writerIndexCount;
        if (index >= entryCapacity) {
            return false;
        }
        int slotPosition = IndexFileFormat.slotPosition(IndexFileFormat.slotOf(keyHash, slotCount));
        int previous = buffer.getInt(slotPosition);
        if (previous < FIRST_ENTRY_INDEX || previous >= index) {
            previous = NO_ENTRY;
        }
        if (index == FIRST_ENTRY_INDEX) {
            // the first key fixes the begin; set before the time difference so the first entry reads exactly
            writerBeginPhyOffset = phyOffset;
            writerBeginTimestamp = storeTimestamp;
            buffer.putLong(BEGIN_PHY_OFFSET_OFFSET, phyOffset);
            buffer.putLong(BEGIN_TIMESTAMP_OFFSET, storeTimestamp);
        }
        int entry = IndexFileFormat.entryPosition(slotCount, index);
        buffer.putInt(entry + ENTRY_KEY_HASH_OFFSET, keyHash);
        buffer.putLong(entry + ENTRY_PHY_OFFSET_OFFSET, phyOffset);
        buffer.putInt(entry + ENTRY_TIME_DIFF_OFFSET, timeDiffSeconds(storeTimestamp));
        buffer.putInt(entry + ENTRY_PREV_INDEX_OFFSET, previous);
        buffer.putInt(slotPosition, index);
        if (previous == NO_ENTRY) {
            writerHashSlotCount++;
            buffer.putInt(HASH_SLOT_COUNT_OFFSET, writerHashSlotCount);
        }
        writerIndexCount = index + 1;
        writerEndPhyOffset = phyOffset;
        writerEndTimestamp = storeTimestamp;
        // the header stays current in the mapping after every key (as RocketMQ keeps it), so a process killed in
        // the middle of a batch leaves a header that matches the entries; these are plain stores into one cache
        // line, unlike the volatile fields, which wait for the end of the batch. The end comes before the count:
        // killed between the two, the new entry is not counted yet, instead of counted past the header's end
        buffer.putLong(END_PHY_OFFSET_OFFSET, phyOffset);
        buffer.putLong(END_TIMESTAMP_OFFSET, storeTimestamp);
        java.lang.invoke.VarHandle.storeStoreFence(); // keeps the JIT from moving the count before the end
        buffer.putInt(INDEX_COUNT_OFFSET, index + 1);
        batchKeys++;
        return true;
    }

    /** The writer's view of the newest indexed record's offset (up to date inside a batch); writer thread only. */
    long writerEndPhyOffset() {
        return writerEndPhyOffset;
    }

    /** The writer's view of the next entry index (up to date inside a batch); writer thread only. */
    int writerIndexCount() {
        return writerIndexCount;
    }

    private int timeDiffSeconds(long storeTimestamp) {
        if (writerBeginTimestamp <= 0) {
            return 0;
        }
        long seconds = (storeTimestamp - writerBeginTimestamp) / 1000;
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, seconds));
    }

    /**
     * Adds to {@code out} the commit-log offsets of entries whose hash equals {@code indexKey}'s and whose time
     * (begin + timeDiff seconds) lies in [begin, end], newest first, until {@code out} holds {@code maxNum}.
     */
    void select(List<Long> out, String indexKey, int maxNum, long begin, long end) {
        lock.readLock().lock();
        try {
            int count = indexCount;
            if (count <= FIRST_ENTRY_INDEX) {
                return;
            }
            int keyHash = IndexFileFormat.keyHash(indexKey);
            int current = buffer.getInt(IndexFileFormat.slotPosition(IndexFileFormat.slotOf(keyHash, slotCount)));
            long fileBegin = beginTimestamp;
            while (current >= FIRST_ENTRY_INDEX && current < count && out.size() < maxNum) {
                int entry = IndexFileFormat.entryPosition(slotCount, current);
                int timeDiff = buffer.getInt(entry + ENTRY_TIME_DIFF_OFFSET);
                if (timeDiff < 0) {
                    break;
                }
                long time = fileBegin + timeDiff * 1000L;
                if (buffer.getInt(entry + ENTRY_KEY_HASH_OFFSET) == keyHash && time >= begin && time <= end) {
                    out.add(buffer.getLong(entry + ENTRY_PHY_OFFSET_OFFSET));
                }
                int previous = buffer.getInt(entry + ENTRY_PREV_INDEX_OFFSET);
                // the chain runs newest to oldest: a link forward would loop, an older time cannot match again
                if (previous >= current || time < begin) {
                    break;
                }
                current = previous;
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Removes the newest entries whose commit-log offset is at or past {@code phyOffset}: each one's slot is
     * pointed back to the entry it chained to, then the index count and end offset are lowered, so the file reads
     * as if those keys had never been put.
     *
     * @return entries removed
     */
    int truncateFrom(long phyOffset) {
        lock.writeLock().lock();
        try {
            int count = writerIndexCount;
            int removed = 0;
            while (count > FIRST_ENTRY_INDEX) {
                int last = count - 1;
                int entry = IndexFileFormat.entryPosition(slotCount, last);
                if (buffer.getLong(entry + ENTRY_PHY_OFFSET_OFFSET) < phyOffset) {
                    break;
                }
                int keyHash = buffer.getInt(entry + ENTRY_KEY_HASH_OFFSET);
                int slotPosition = IndexFileFormat.slotPosition(IndexFileFormat.slotOf(keyHash, slotCount));
                if (buffer.getInt(slotPosition) == last) {
                    int previous = buffer.getInt(entry + ENTRY_PREV_INDEX_OFFSET);
                    buffer.putInt(slotPosition, previous);
                    if (previous == NO_ENTRY) {
                        writerHashSlotCount = Math.max(0, writerHashSlotCount - 1);
                    }
                }
                count = last;
                removed++;
            }
            if (removed == 0) {
                return 0;
            }
            writerIndexCount = count;
            if (count > FIRST_ENTRY_INDEX) {
                int entry = IndexFileFormat.entryPosition(slotCount, count - 1);
                writerEndPhyOffset = buffer.getLong(entry + ENTRY_PHY_OFFSET_OFFSET);
                long lastTime = writerBeginTimestamp + buffer.getInt(entry + ENTRY_TIME_DIFF_OFFSET) * 1000L;
                writerEndTimestamp = Math.min(writerEndTimestamp, Math.max(lastTime, writerBeginTimestamp));
            } else {
                writerEndPhyOffset = writerBeginPhyOffset;
                writerEndTimestamp = writerBeginTimestamp;
            }
            writeHeader();
            publish();
            dirty = true;
            return removed;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Forces the file to disk when something changed since the last flush. */
    void flush() {
        if (!dirty) {
            return;
        }
        dirty = false;
        try {
            buffer.force();
            ForceEvents.fileForced(path);
        } catch (RuntimeException e) {
            dirty = true;
            throw new UncheckedIOException("cannot force index file " + path, new IOException(e));
        }
    }

    /** Deletes the file; the mapping goes with the last reference (see the class comment). */
    boolean destroy() {
        try {
            Files.deleteIfExists(path);
            return true;
        } catch (IOException e) {
            LOG.warn("cannot delete index file {}: {}", path, e.toString());
            return false;
        }
    }

    boolean isFull() {
        return indexCount >= entryCapacity;
    }

    /** True when the file's time range overlaps [begin, end]. */
    boolean overlaps(long begin, long end) {
        return begin <= endTimestamp && end >= beginTimestamp;
    }

    Path path() {
        return path;
    }

    String fileName() {
        return path.getFileName().toString();
    }

    long beginTimestamp() {
        return beginTimestamp;
    }

    long endTimestamp() {
        return endTimestamp;
    }

    long beginPhyOffset() {
        return beginPhyOffset;
    }

    long endPhyOffset() {
        return endPhyOffset;
    }

    int hashSlotCount() {
        return hashSlotCount;
    }

    /** The next entry index (1 when empty). */
    int indexCount() {
        return indexCount;
    }
}
