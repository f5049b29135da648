package dev.hangar.store.commitlog;

import dev.hangar.spi.lock.PutMessageLock;
import dev.hangar.spi.mapped.AppendCallback;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import dev.hangar.spi.store.MessageIdSource;
import dev.hangar.store.format.CommitLogRecordFormat;
import dev.hangar.store.format.MessageEncoder;
import dev.hangar.store.format.MessageIdCodec;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CommitLog's concurrent appends ({@code appendMode=concurrent}). Under the put lock a writer takes only what
 * must be ordered: its topic-queue's next queue offset, the store time and its record's place in the log (a
 * <em>reservation</em>: a sequence number and a byte range of the current file). It stamps and copies the record
 * after releasing the lock, while other writers copy theirs.
 *
 * <p>Readers, commit, flush, replication and dispatch all read up to a file's wrote position, so that position moves
 * only over contiguous complete records: a writer marks its reservation complete, and whoever holds the publisher
 * role moves the wrote position over every complete reservation in sequence order (through
 * {@link MappedFile#append}, one thread at a time, writing nothing). A writer returns once its own record is below
 * the wrote position, so what its caller does next (wait for the flush or the replicas) covers it whole, and a
 * SYNC_FLUSH put is acknowledged only when it and everything before it is forced.
 *
 * <p>File end: a record that does not fit reserves the BLANK filler, waits (holding the lock) until every earlier
 * record of the file is published, and rolls to the next file, where it takes its place. Because the lock orders
 * reservations, no other writer reserves past the end meanwhile; they wait for the lock and reserve in the new file.
 * The cost is one wait for the copies in flight per file.
 *
 * <p>Exclusive appends (topic deletion, replicated bytes) hold the lock, call {@link #awaitDrained()} and append
 * through {@link MappedFile#append} as the locked mode does; a reservation that finds nothing in flight takes the
 * tail from the queue again, so it continues after them.
 *
 * <p>A copy that throws (a SIGBUS on a page the disk could not back) leaves a hole that no later record may be
 * published past: from then on every put is refused, and the store must be reopened, whose recovery keeps the
 * records before the hole.
 */
final class ConcurrentAppender {
    private static final Logger LOG = LoggerFactory.getLogger(ConcurrentAppender.class);
    /** Reservations in flight at most (one per writer thread at a time); a power of two. */
    static final int SLOTS = 1 << 10;
    private static final AppendMessageResult APPEND_FAILED = AppendMessageResult.of(AppendMessageStatus.UNKNOWN_ERROR);
    private static final long NOT_BROKEN = Long.MAX_VALUE;

    private final MappedFileQueue queue;
    private final PutMessageLock lock;
    private final MessageIdSource idSource;
    private final ThreadLocal<Writer> writers;

    // --- the reservation, guarded by the lock
    private MappedFile file;
    private ByteBuffer view;
    private int position;
    /** The next reservation's sequence number; volatile for {@link #oldestInFlightMillis()} only. */
    private volatile long nextSeq;

    // --- one slot per reservation in flight: written by its reserver, complete once done[slot] == its sequence
    private final AtomicLongArray done = new AtomicLongArray(SLOTS);
    private final long[] ends = new long[SLOTS];
    private final long[] stamps = new long[SLOTS];
    private final MappedFile[] files = new MappedFile[SLOTS];

    // --- publication
    /** The first reservation not yet under the wrote position. */
    private volatile long publishedSeq;
    private volatile long brokenSeq = NOT_BROKEN;
    private final AtomicBoolean publishing = new AtomicBoolean();
    /** The publisher's reused result and callback (one publisher at a time). */
    private final LiveAppend published;
    private final AppendCallback publishCallback;

    ConcurrentAppender(MappedFileQueue queue, PutMessageLock lock, byte[] storeHostPrefix) {
        this.queue = queue;
        this.lock = lock;
        this.idSource = offset -> MessageIdCodec.create(storeHostPrefix, offset);
        this.writers = ThreadLocal.withInitial(() -> new Writer(new LiveAppend(idSource)));
        this.published = new LiveAppend(idSource);
        this.publishCallback = (fileFromOffset, target, maxBlank) -> published;
        for (int i = 0; i < SLOTS; i++) {
            done.set(i, -1);
        }
    }

    /** One writer thread's reservation and result, reused by its every put. */
    private static final class Writer {
        final LiveAppend live;
        long seq;
        MappedFile file;
        ByteBuffer view;
        int position;
        long storeTimestamp;
        long queueOffset;

        Writer(LiveAppend live) {
            this.live = live;
        }
    }

    /**
     * Appends what {@code encoder} holds. {@code counters} is null for a record that takes no queue offset.
     */
    <R> R append(MessageEncoder encoder, TopicQueueOffsets.TopicCounters counters, int queueId,
                 CommitLog.AppendOutcome<R> outcome) {
        Writer w = writers.get();
        int length = encoder.encodedLength();
        int count = encoder.recordCount();
        lock.lock();
        try {
            if (!reserve(w, length)) {
                return outcome.failed(APPEND_FAILED);
            }
            if (counters != null) {
                w.queueOffset = counters.next(queueId);
                counters.advance(queueId, count);
            }
        } finally {
            lock.unlock();
        }
        long wroteOffset = w.file.fileFromOffset() + w.position;
        for (int i = 0; i < count; i++) {
            long queueOffset = counters != null ? w.queueOffset + i : 0;
            encoder.stamp(i, queueOffset, wroteOffset + encoder.recordStart(i), w.storeTimestamp);
        }
        copy(w, encoder);
        done.set(slot(w.seq), w.seq);
        if (!awaitPublished(w.seq)) {
            return outcome.failed(APPEND_FAILED);
        }
        w.live.set(AppendMessageStatus.PUT_OK, wroteOffset, length, w.storeTimestamp,
                counters != null ? w.queueOffset : 0, count, encoder.relativeStarts());
        return outcome.appended(w.live);
    }

    private void copy(Writer w, MessageEncoder encoder) {
        if (!w.file.hold()) {
            broken(w.seq, "the file " + w.file.fileName() + " was shut down under a copy");
            return;
        }
        try {
            encoder.copyTo(w.view, w.position);
        } catch (RuntimeException | Error e) {
            broken(w.seq, "a copy into " + w.file.fileName() + " failed: " + e);
            throw e;
        } finally {
            w.file.release();
        }
    }

    /** Takes the record's place in the log; the caller holds the lock. False when there is none to take. */
    private boolean reserve(Writer w, int length) {
        if (brokenSeq != NOT_BROKEN) {
            return false;
        }
        for (int spins = 0; nextSeq - publishedSeq >= SLOTS; spins++) {
            publish();
            if (brokenSeq != NOT_BROKEN) {
                return false;
            }
            backOff(spins);
        }
        if (nextSeq == publishedSeq && !takeTail()) {
            return false;
        }
        if (file == null || position >= file.fileSize()) {
            if (!roll()) {
                return false;
            }
        }
        if (length + CommitLogRecordFormat.END_FILE_MIN_BLANK_LENGTH > file.fileSize() - position
                && !fillAndRoll()) {
            return false;
        }
        long now = System.currentTimeMillis();
        long seq = nextSeq;
        int i = slot(seq);
        files[i] = file;
        ends[i] = file.fileFromOffset() + position + length;
        stamps[i] = now;
        w.seq = seq;
        w.file = file;
        w.view = view;
        w.position = position;
        w.storeTimestamp = now;
        position += length;
        nextSeq = seq + 1;
        return true;
    }

    /** Nothing in flight: the queue's last file and its wrote position are where the log ends. */
    private boolean takeTail() {
        MappedFile last = queue.getLastMappedFile();
        if (last == null) {
            file = null;
            view = null;
            position = 0;
            return true;
        }
        return use(last);
    }

    private boolean use(MappedFile next) {
        if (next != file) {
            ByteBuffer nextView = next.concurrentWriteView();
            if (nextView == null) {
                LOG.error("the CommitLog file {} cannot take concurrent appends: its mappedFile variant has no "
                        + "concurrent write view; set appendMode=locked or another mappedFile", next.fileName());
                return false;
            }
            file = next;
            view = nextView;
        }
        position = next.wrotePosition();
        return true;
    }

    /** Writes the BLANK filler over the rest of the file as a reservation of its own, then rolls. */
    private boolean fillAndRoll() {
        int blank = file.fileSize() - position;
        if (!file.hold()) {
            LOG.error("cannot fill {}: the file is shut down", file.fileName());
            return false;
        }
        try {
            view.putInt(position, blank);
            view.putInt(position + 4, CommitLogRecordFormat.BLANK_MAGIC_CODE);
        } finally {
            file.release();
        }
        long seq = nextSeq;
        int i = slot(seq);
        files[i] = file;
        ends[i] = file.fileFromOffset() + file.fileSize();
        stamps[i] = System.currentTimeMillis();
        position = file.fileSize();
        nextSeq = seq + 1;
        done.set(i, seq);
        return roll();
    }

    /** Once the full file is published, moves on to the next one (made when missing). */
    private boolean roll() {
        if (!awaitDrained()) {
            return false;
        }
        MappedFile next = queue.getLastMappedFile(0, true);
        if (next == null) {
            LOG.error("could not create a CommitLog file at {}", queue.getMaxWrotePosition());
            return false;
        }
        return use(next);
    }

    /** Waits until every reservation so far is published; the caller holds the lock. False when broken. */
    boolean awaitDrained() {
        long last = nextSeq - 1;
        return last < 0 || awaitPublished(last);
    }

    private boolean awaitPublished(long seq) {
        for (int spins = 0; publishedSeq <= seq; spins++) {
            if (brokenSeq <= seq) {
                return false;
            }
            publish();
            if (publishedSeq > seq) {
                return true;
            }
            backOff(spins);
        }
        return true;
    }

    private static void backOff(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else if (spins < 256) {
            Thread.yield();
        } else {
            // a writer before this one was descheduled in its copy: stop taking the core it needs
            LockSupport.parkNanos(20_000);
        }
    }

    /**
     * Moves the wrote positions over every complete reservation in order. Whoever gets the role does the work for
     * all; a writer that completes while another publishes is covered by that publisher's second look (after it
     * drops the role) or by its own next call while it waits.
     */
    private void publish() {
        while (publishing.compareAndSet(false, true)) {
            long seq = publishedSeq;
            try {
                long runStart = seq;
                MappedFile run = null;
                long end = 0;
                long stamp = 0;
                for (int i = slot(seq); seq < brokenSeq && done.get(i) == seq; i = slot(seq)) {
                    if (run != null && files[i] != run) {
                        if (!moveWrote(run, end, stamp)) {
                            publishedSeq = runStart;
                            broken(runStart, "the wrote position of " + run.fileName() + " could not be moved");
                            return;
                        }
                        runStart = seq;
                    }
                    run = files[i];
                    end = ends[i];
                    stamp = stamps[i];
                    seq++;
                }
                if (run != null && !moveWrote(run, end, stamp)) {
                    publishedSeq = runStart;
                    broken(runStart, "the wrote position of " + run.fileName() + " could not be moved");
                    return;
                }
                publishedSeq = seq;
            } finally {
                publishing.set(false);
            }
            if (seq >= brokenSeq || done.get(slot(seq)) != seq) {
                return;
            }
        }
    }

    private boolean moveWrote(MappedFile f, long end, long stamp) {
        int from = f.wrotePosition();
        int to = (int) (end - f.fileFromOffset());
        published.set(AppendMessageStatus.PUT_OK, f.fileFromOffset() + from, to - from, stamp, 0, 0, null);
        return f.append(publishCallback) == published;
    }

    private synchronized void broken(long seq, String why) {
        if (seq < brokenSeq) {
            if (brokenSeq == NOT_BROKEN) {
                LOG.error("concurrent appends stopped at CommitLog reservation {}: {}; every put is refused until "
                        + "the store is reopened (recovery keeps the records before it)", seq, why);
            }
            brokenSeq = seq;
        }
    }

    /**
     * When the oldest reservation in flight was taken (millis), 0 when none is: what the put lock's hold tells in the
     * locked mode (a copy stalled by the page cache holds up every put after it), for OS_PAGE_CACHE_BUSY.
     */
    long oldestInFlightStamp() {
        long oldest = publishedSeq;
        return nextSeq <= oldest ? 0 : stamps[slot(oldest)];
    }

    private static int slot(long seq) {
        return (int) (seq & (SLOTS - 1));
    }
}
