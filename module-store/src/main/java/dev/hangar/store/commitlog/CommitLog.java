package dev.hangar.store.commitlog;

import dev.hangar.spi.lock.PutMessageLock;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.SelectedRegion;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import dev.hangar.store.format.CommitLogRecordFormat;
import dev.hangar.store.format.MessageEncoder;
import dev.hangar.store.format.MessageIdCodec;
import dev.hangar.store.format.RecordDecoder;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append-only log of every message: appends encoded records under the put lock, rolls files with a BLANK
 * record, and reads records back by physical offset. Flushing is not its business (the flush service drives
 * the queue); neither is dispatch.
 *
 * <p>Two append modes ({@code appendMode}): {@code locked} copies every record under the put lock;
 * {@code concurrent} ({@link ConcurrentAppender}) takes under it only the queue offset and the record's place in the
 * log, and copies outside it. The lock provider (spin, reentrant, adaptive) guards the critical section either way.
 *
 * <p>Thread-safety: {@link #append} from any thread; reads from any thread.
 */
public final class CommitLog {
    /** Raised (under the put lock) each time {@link #truncate} removes bytes. */
    private volatile long cuts;
    private static final Logger LOG = LoggerFactory.getLogger(CommitLog.class);
    private static final long SLOW_APPEND_WARN_MILLIS = 500;

    private static final AppendMessageResult APPEND_FAILED = AppendMessageResult.of(AppendMessageStatus.UNKNOWN_ERROR);

    private final MappedFileQueue queue;
    private final PutMessageLock lock;
    private final TopicQueueOffsets queueOffsets;
    private final RecordAppender appender;
    /** The concurrent mode's appender; null in the locked mode. */
    private final ConcurrentAppender concurrent;
    private final ReplicatedAppender replicatedAppender = new ReplicatedAppender();
    /** Set on a slave whose files are their mappings: replicated bytes are written with pwrite (guarded by lock). */
    private ReplicaFileWriter replicaWriter;
    /**
     * When the current append took the put lock (millis), 0 while the lock is free. Written with release stores, not
     * volatile ones: a volatile store is a full fence on x86, two per append inside the lock, and the only reader
     * ({@link #lockHeldMillis}, a heuristic for OS_PAGE_CACHE_BUSY) needs no ordering beyond seeing the value soon.
     */
    @SuppressWarnings("unused") // accessed through BEGIN_TIME_IN_LOCK
    private long beginTimeInLock;
    private static final VarHandle BEGIN_TIME_IN_LOCK;
    /** The lock-taking time whose slow hold was last reported, so a stuck append is reported once. */
    private volatile long reportedSlowHold;

    static {
        try {
            BEGIN_TIME_IN_LOCK = MethodHandles.lookup().findVarHandle(CommitLog.class, "beginTimeInLock", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public CommitLog(MappedFileQueue queue, PutMessageLock lock, TopicQueueOffsets queueOffsets,
                     InetSocketAddress storeHost) {
        this(queue, lock, queueOffsets, storeHost, false);
    }

    /** @param concurrentAppends true for {@code appendMode=concurrent}: records are copied outside the put lock */
    public CommitLog(MappedFileQueue queue, PutMessageLock lock, TopicQueueOffsets queueOffsets,
                     InetSocketAddress storeHost, boolean concurrentAppends) {
        this.queue = queue;
        this.lock = lock;
        this.queueOffsets = queueOffsets;
        byte[] hostPrefix = MessageIdCodec.hostPrefix(storeHost);
        this.appender = new RecordAppender(hostPrefix);
        this.concurrent = concurrentAppends ? new ConcurrentAppender(queue, lock, hostPrefix) : null;
    }

    /** True in {@code appendMode=concurrent}. */
    public boolean appendsConcurrently() {
        return concurrent != null;
    }

    public MappedFileQueue queue() {
        return queue;
    }

    public TopicQueueOffsets queueOffsets() {
        return queueOffsets;
    }

    /** The largest encoded put that fits in one file (a file keeps room for the BLANK record). */
    public int maxAppendLength() {
        return queue.mappedFileSize() - CommitLogRecordFormat.END_FILE_MIN_BLANK_LENGTH;
    }

    /**
     * What the caller of {@link #append} makes of an append: the put's result is built from the reused
     * {@link LiveAppend} before it is reused (under the put lock, or in the concurrent mode in the writer's thread,
     * whose own it is).
     */
    public interface AppendOutcome<R> {
        /** A PUT_OK append; {@code append} is valid only during this call. */
        R appended(LiveAppend append);

        /** An append that wrote no record (no file could be created, or the file refused it). */
        R failed(AppendMessageResult failure);
    }

    /**
     * Appends what {@code encoder} holds (one record or a batch, all for {@code topic}/{@code queueId}),
     * rolling to a new file when it does not fit, and returns what {@code outcome} makes of it.
     */
    public <R> R append(MessageEncoder encoder, String topic, int queueId, boolean takesQueueOffset,
                        AppendOutcome<R> outcome) {
        return append(encoder, topic, queueId, takesQueueOffset, null, outcome);
    }

    /**
     * {@link #append} of the record that deletes {@code deletedTopic}: once it is appended, under the same hold of the
     * put lock, the topic's queues start again at offset 0 (in the concurrent mode an exclusive hold: it waits for
     * the copies in flight first). Every record of the topic before it in the log keeps its
     * old queue offset, every one after it counts from 0, and the dispatcher forgets the old queues when it passes
     * this record, so no two units ever claim one queue offset.
     */
    public <R> R appendTopicDeletion(MessageEncoder encoder, String topic, int queueId, String deletedTopic,
                                     AppendOutcome<R> outcome) {
        return append(encoder, topic, queueId, true, deletedTopic, outcome);
    }

    private <R> R append(MessageEncoder encoder, String topic, int queueId, boolean takesQueueOffset,
                         String resetTopic, AppendOutcome<R> outcome) {
        // before the lock: finding the topic's counters hashes and compares the topic, which grows with the topic
        // count (100 000 queues: 12 500 topics), and the map may resize; under the lock only an array index is left
        TopicQueueOffsets.TopicCounters counters = takesQueueOffset ? queueOffsets.countersOf(topic) : null;
        if (concurrent != null && resetTopic == null) {
            return concurrent.append(encoder, counters, queueId, outcome);
        }
        lock.lock();
        try {
            if (concurrent != null && !concurrent.awaitDrained()) {
                return outcome.failed(APPEND_FAILED);
            }
            long now = System.currentTimeMillis();
            BEGIN_TIME_IN_LOCK.setRelease(this, now);
            MappedFile file = queue.getLastMappedFile();
            if (file == null || file.isFull()) {
                file = queue.getLastMappedFile(0, true);
            }
            if (file == null) {
                LOG.error("could not create a CommitLog file at {}", queue.getMaxWrotePosition());
                return outcome.failed(APPEND_FAILED);
            }
            appender.prepare(encoder, counters != null ? counters.next(queueId) : queueOffsets.next(topic, queueId),
                    takesQueueOffset, now);
            AppendMessageResult result = file.append(appender);
            if (result.status() == AppendMessageStatus.END_OF_FILE) {
                file = queue.getLastMappedFile(0, true);
                if (file == null) {
                    LOG.error("could not create a CommitLog file at {}", queue.getMaxWrotePosition());
                    return outcome.failed(APPEND_FAILED);
                }
                result = file.append(appender);
            }
            if (result.status() != AppendMessageStatus.PUT_OK || !(result instanceof LiveAppend live)) {
                return outcome.failed(result instanceof LiveAppend live ? live.detach() : result);
            }
            if (counters != null) {
                counters.advance(queueId, live.messageCount());
            }
            if (resetTopic != null) {
                queueOffsets.forget(resetTopic);
            }
            return outcome.appended(live);
        } finally {
            // no clock read here: the hold is measured by whoever looks while it lasts (lockHeldMillis), which
            // every put's admission does, so a slow append is reported by the puts queued behind it
            BEGIN_TIME_IN_LOCK.setRelease(this, 0L);
            lock.unlock();
        }
    }

    /**
     * Appends bytes copied from a master verbatim at {@code offset} (a slave's append): {@code offset} must be where
     * this log ends, or, for an empty log, a file boundary (a master may start a fresh slave at its last file). The
     * bytes may run over a file boundary: a master's file ends in a BLANK record and is full, so the split lands
     * where the master's next file starts. Queue offsets are not touched: the slave's dispatcher reads them from
     * the records, and recovery rebuilds them when this log is opened as a master.
     *
     * @throws IllegalStateException when {@code offset} is not where the log ends, or a file cannot be created
     */
    public void appendReplicated(long offset, ByteBuffer data) {
        lock.lock();
        try {
            if (concurrent != null && !concurrent.awaitDrained()) {
                throw new IllegalStateException("concurrent appends stopped at a failed copy; reopen the store");
            }
            MappedFile last = queue.getLastMappedFile();
            long end = last == null ? -1 : queue.getMaxWrotePosition();
            if (last == null && offset % queue.mappedFileSize() != 0) {
                throw new IllegalStateException("an empty commit log can only start at a file boundary (a multiple of "
                        + queue.mappedFileSize() + "), not at " + offset);
            }
            if (last != null && offset != end) {
                throw new IllegalStateException("replicated bytes for offset " + offset
                        + " do not continue this commit log, which ends at " + end);
            }
            while (data.hasRemaining()) {
                MappedFile file = queue.getLastMappedFile();
                if (file == null || file.isFull()) {
                    file = queue.getLastMappedFile(offset, true);
                }
                if (file == null) {
                    throw new IllegalStateException("cannot create a commit-log file for offset " + offset);
                }
                int n = Math.min(file.fileSize() - file.wrotePosition(), data.remaining());
                ByteBuffer piece = data.duplicate().limit(data.position() + n);
                if (replicaWriter != null) {
                    writeThroughChannel(file, piece);
                    piece = null; // in the file already: the append below only walks the records and moves the end
                }
                // through append (not appendBytes) so the file's store timestamp advances for the checkpoint
                replicatedAppender.prepare(piece, n, offset, file.storeTimestamp());
                AppendMessageResult result = file.append(replicatedAppender);
                if (!result.isOk() || result.wroteBytes() != n) {
                    throw new IllegalStateException("cannot append " + n + " replicated bytes to " + file.fileName()
                            + ": " + result.status());
                }
                data.position(data.position() + n);
                offset += n;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Cuts the log back so that it ends at {@code offset} (a consensus provider removing entries a new leader does not
     * have, or a leader dropping bytes no entry covers): the last file's positions move back and files wholly past it
     * are deleted. The bytes past {@code offset} stay in the file until overwritten: the provider cuts again at start
     * when its log ends before the CommitLog does. Under the put lock, so no put or replicated append is half done.
     */
    /** How many times {@link #truncate} removed bytes (ReplicatedLog.cuts). */
    public long cuts() {
        return cuts;
    }

    public void truncate(long offset) {
        lock.lock();
        try {
            if (concurrent != null) {
                // the concurrent mode's copies run outside the lock: none may publish past the cut afterwards
                concurrent.awaitDrained();
            }
            if (offset >= queue.getMaxWrotePosition()) {
                return;
            }
            LOG.warn("cutting the commit log back from {} to {}", queue.getMaxWrotePosition(), offset);
            // before the bytes go: a put that read the count before its append and sees it moved fails, not waits
            cuts++;
            queue.truncateDirtyFiles(offset);
            // the walk of replicated records restarts at the next append, which begins on a record boundary
            replicatedAppender.restart();
        } finally {
            lock.unlock();
        }
    }

    private void writeThroughChannel(MappedFile file, ByteBuffer piece) {
        try {
            replicaWriter.write(file, file.wrotePosition(), piece);
        } catch (IOException e) {
            // the end does not move: the bytes past it are ignored and overwritten by the next attempt
            throw new IllegalStateException("cannot write " + piece.remaining() + " replicated bytes into "
                    + file.fileName() + " at " + file.wrotePosition() + ": " + e.getMessage(), e);
        }
    }

    /**
     * From now on a slave's appends ({@link #appendReplicated}) write through the file ({@link ReplicaFileWriter}),
     * not the mapping. Only for mapped-file variants without a write buffer (the caller's check).
     */
    public void writeReplicasThroughFile() {
        lock.lock();
        try {
            if (replicaWriter == null) {
                replicaWriter = new ReplicaFileWriter();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Closes the file a slave's appends write through, if any; a later append opens it again. */
    public void closeReplicaFile() {
        lock.lock();
        try {
            if (replicaWriter != null) {
                replicaWriter.close();
            }
        } catch (IOException e) {
            LOG.warn("closing the replicated CommitLog file: {}", e.toString());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Millis the current holder has held the put lock (in the concurrent mode, or the oldest put in flight has waited to
     * be published), 0 when free. The first look that finds one append holding it
     * over {@value #SLOW_APPEND_WARN_MILLIS} ms logs a warning (once per append).
     */
    public long lockHeldMillis() {
        long begin = (long) BEGIN_TIME_IN_LOCK.getAcquire(this);
        if (begin == 0 && concurrent != null) {
            // the concurrent mode copies outside the lock: a stalled copy shows as the oldest unpublished put
            begin = concurrent.oldestInFlightStamp();
        }
        if (begin == 0) {
            return 0;
        }
        long held = System.currentTimeMillis() - begin;
        if (held > SLOW_APPEND_WARN_MILLIS && reportedSlowHold != begin) {
            reportedSlowHold = begin;
            LOG.warn("an append has held the put lock for {} ms (page faults or writeback stalls?)", held);
        }
        return held;
    }

    public long getMinOffset() {
        MappedFile first = queue.getFirstMappedFile();
        if (first == null) {
            return -1;
        }
        return first.isAvailable() ? first.fileFromOffset() : rollNextFile(first.fileFromOffset());
    }

    /**
     * One past the last readable byte such that every byte before it is readable: the one readable end that
     * dispatch, its back-pressure, replication and {@code getMaxPhyOffset} share. With a write buffer a file becomes
     * readable as it is committed, but a file that found the pool empty is written through its mapping and is
     * readable at once, while the file before it may still hold an uncommitted tail in its buffer: the end of the
     * last file would then lie past bytes nobody can read yet, and "behind" measured against it would count bytes
     * dispatch cannot reach (puts waited out the back-pressure's full limit at such rolls). So the end walks back
     * over every file before the last that is not readable to its end. A file rolls only when full (a BLANK record
     * fills its tail), so without a write buffer only the last file is partly readable and this is the last file's
     * readable end.
     */
    public long getMaxOffset() {
        MappedFile file = queue.getLastMappedFile();
        if (file == null) {
            return 0;
        }
        // the last file first: whatever an earlier file shows afterwards is at least what it showed before
        long end = file.fileFromOffset() + file.readPosition();
        int size = queue.mappedFileSize();
        while (file.fileFromOffset() > 0) {
            MappedFile before = queue.findMappedFileByOffset(file.fileFromOffset() - 1, false);
            if (before == null || before.fileFromOffset() != file.fileFromOffset() - size) {
                break;
            }
            int readable = before.readPosition();
            if (readable >= size) {
                break;
            }
            end = before.fileFromOffset() + readable;
            file = before;
        }
        return end;
    }

    /** The first offset of the file after the one holding {@code offset}. */
    public long rollNextFile(long offset) {
        int size = queue.mappedFileSize();
        return offset + size - offset % size;
    }

    /** The readable bytes from {@code offset} to the end of its file's readable part, or null. */
    public SelectedRegion getData(long offset) {
        MappedFile file = queue.findMappedFileByOffset(offset, offset == 0);
        if (file == null) {
            return null;
        }
        return file.selectMappedBuffer((int) (offset % queue.mappedFileSize()));
    }

    /** {@code size} readable bytes at {@code offset}, or null. */
    public SelectedRegion getData(long offset, int size) {
        MappedFile file = queue.findMappedFileByOffset(offset, offset == 0);
        if (file == null) {
            return null;
        }
        return file.selectMappedBuffer((int) (offset % queue.mappedFileSize()), size);
    }

    /** Decodes the record at {@code offset}; null when there is no complete, valid record there. */
    public StoredMessage lookMessageByOffset(long offset) {
        int size = recordSizeAt(offset);
        if (size <= 0) {
            return null;
        }
        return lookMessageByOffset(offset, size);
    }

    /** Decodes the record of known {@code size} at {@code offset}, or null. */
    public StoredMessage lookMessageByOffset(long offset, int size) {
        try (SelectedRegion region = getData(offset, size)) {
            if (region == null) {
                return null;
            }
            RecordDecoder.Check check = RecordDecoder.check(region.buffer(), 0, region.size(), false);
            if (check.kind() != RecordDecoder.Kind.MESSAGE || check.size() != size) {
                return null;
            }
            return RecordDecoder.decode(region.buffer(), 0);
        }
    }

    /** The TOTALSIZE field at {@code offset}, or -1. */
    public int recordSizeAt(long offset) {
        try (SelectedRegion region = getData(offset, 8)) {
            if (region == null) {
                return -1;
            }
            int magic = region.buffer().getInt(4);
            return magic == CommitLogRecordFormat.MESSAGE_MAGIC_CODE ? region.buffer().getInt(0) : -1;
        }
    }

    /** The store timestamp of the record at {@code offset}, or -1. */
    public long storeTimestampAt(long offset, int size) {
        try (SelectedRegion region = getData(offset, size)) {
            if (region == null) {
                return -1;
            }
            return RecordDecoder.storeTimestamp(region.buffer(), 0);
        }
    }
}
