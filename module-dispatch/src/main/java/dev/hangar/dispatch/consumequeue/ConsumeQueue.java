package dev.hangar.dispatch.consumequeue;

import static dev.hangar.spi.format.ConsumeQueueFormat.UNIT_SIZE;

import dev.hangar.spi.dispatch.CqUnit;
import dev.hangar.spi.format.ConsumeQueueFormat;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.mapped.SelectedRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ConsumeQueue ({@code consumequeue/<topic>/<queueId>/}): 20-byte units, see {@link ConsumeQueueFormat}. This
 * class owns the queue's offsets, appending units and reading them; finding the end after a restart and cutting
 * units past a commit-log offset are {@link ConsumeQueueRecovery}'s.
 *
 * <p>Thread-safety: {@link #put} is called from the one dispatch thread; {@link #recover}, {@link #truncate}
 * only while nothing dispatches (recovery). {@link #flush}, {@link #deleteExpired} and every read may run
 * concurrently with {@link #put}: the file queue allows one writer, one flusher and any readers, and a reader sees
 * only up to a file's read position, which the file advances after a unit's bytes are in place.
 *
 * <p>A queue created by dispatch (not loaded) first holds its units in memory ({@link PendingUnits}), readable at
 * once; {@link #materialize()}, called by the flush side, creates its file and writes them. The checkpoint claims
 * units only after a full flush, which materializes every queue before forcing, so a unit is never claimed while
 * it is only in memory; a crash loses held units, and recovery re-dispatches them from the CommitLog. While units
 * are held, every access to them takes this object's monitor; once the file exists {@link #pending} is null and
 * nothing here locks.
 *
 * <p>A held queue has no {@link MappedFileQueue} either: {@link #materialize()} opens it (through the dispatcher's
 * {@link FileQueues}) just before it creates the file. With 100 000 new queues in a burst, the directory path and the
 * file-queue objects were most of what the dispatch thread allocated per new queue, and all of it stayed live into
 * the next young collection (docs/PERFORMANCE.md). Invariant: {@link #pending} is null only once {@link #files} is
 * set (it is written first), so every path that finds no held units finds the file queue.
 */
final class ConsumeQueue {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumeQueue.class);

    /** Blank units written per append while pre-filling (about one page). */
    private static final int BLANK_UNITS_PER_APPEND = 205;

    /** Opens the file queue of {@code consumequeue/<topic>/<queueId>/} (no disk access until a file is made). */
    interface FileQueues {
        MappedFileQueue open(String topic, int queueId);
    }

    private final String topic;
    private final int queueId;
    private final int fileSize;
    /** Opens {@link #files} for a queue created by dispatch; null for a queue loaded from disk. */
    private final FileQueues fileQueues;
    /**
     * This queue's files; null while its units are held in memory and nothing made its file yet. Set once, before
     * {@link #pending} becomes null.
     */
    private volatile MappedFileQueue files;
    /** Encoding buffer of the dispatch thread, shared by every queue of one dispatcher (only that thread puts). */
    private final byte[] unit;

    /** Commit-log offset one past the last record this queue points at; -1 when it points at none. */
    private volatile long maxPhysicOffset = -1;
    /** Logical byte offset of the first unit still pointing into the commit log. */
    private volatile long minLogicOffset;
    /** Units held until the file exists; null once it does (or for a loaded queue). Guarded by this monitor. */
    private volatile PendingUnits pending;
    /** Set by {@link #destroy()}: the flush side must make no file for this queue any more. Guarded by this monitor. */
    private boolean destroyed;

    /**
     * A queue whose units go straight to its files (a queue loaded from disk).
     *
     * @param unitBuffer the dispatcher's {@link ConsumeQueueFormat#UNIT_SIZE}-byte encoding buffer
     */
    ConsumeQueue(String topic, int queueId, MappedFileQueue files, byte[] unitBuffer) {
        this(topic, queueId, files.mappedFileSize(), null, files, null, unitBuffer);
    }

    /**
     * A queue new to the store. With a budget its first units are held in memory and its file queue is opened only
     * by {@link #materialize()}; without one it is opened now and every unit goes to the file at once.
     *
     * @param pendingBudget where the first units are held until {@link #materialize()}, or null
     */
    ConsumeQueue(String topic, int queueId, int fileSize, FileQueues fileQueues, PendingUnits.Budget pendingBudget,
                 byte[] unitBuffer) {
        this(topic, queueId, fileSize, fileQueues, pendingBudget == null ? fileQueues.open(topic, queueId) : null,
                pendingBudget, unitBuffer);
    }

    private ConsumeQueue(String topic, int queueId, int fileSize, FileQueues fileQueues, MappedFileQueue files,
                         PendingUnits.Budget pendingBudget, byte[] unitBuffer) {
        this.topic = topic;
        this.queueId = queueId;
        this.fileSize = fileSize;
        if (fileSize <= 0 || fileSize % UNIT_SIZE != 0) {
            throw new IllegalArgumentException("ConsumeQueue file size " + fileSize + " is not a positive multiple of "
                    + UNIT_SIZE + " bytes");
        }
        if (unitBuffer.length != UNIT_SIZE) {
            throw new IllegalArgumentException("unit buffer of " + unitBuffer.length + " bytes, need " + UNIT_SIZE);
        }
        this.fileQueues = fileQueues;
        this.files = files;
        this.unit = unitBuffer;
        this.pending = files == null ? new PendingUnits(pendingBudget, fileSize / UNIT_SIZE) : null;
    }

    String topic() {
        return topic;
    }

    int queueId() {
        return queueId;
    }

    /** Maps the existing files; false when one has the wrong length or a short file lies before data. */
    boolean load(boolean afterCrash) {
        return files().load(afterCrash);
    }

    /** Why the last {@link #load()} failed, naming the files; null when it did not. */
    String loadProblem() {
        return files().loadProblem();
    }

    /**
     * Finds the end of the written units and trims everything after it (see {@link ConsumeQueueRecovery#recover}).
     */
    void recover() {
        ConsumeQueueRecovery.RecoveredEnd end = new ConsumeQueueRecovery(topic, queueId, files()).recover();
        if (end == null) {
            return;
        }
        maxPhysicOffset = end.maxPhysicOffset();
        LOG.debug("recovered ConsumeQueue {}-{}: logical end {}, max physic offset {}", topic, queueId,
                end.logicalEnd(), end.maxPhysicOffset());
    }

    /**
     * Sets the min offset to the first real unit pointing at or past {@code minCommitLogOffset} (RocketMQ's
     * {@code correctMinOffset}); to the max offset when no unit does.
     */
    void correctMinOffset(long minCommitLogOffset) {
        MappedFileQueue files = this.files;
        if (files == null) {
            minLogicOffset = 0;
            return;
        }
        for (MappedFile file : files.mappedFiles()) {
            SelectedRegion region = file.selectMappedBuffer(0);
            if (region == null) {
                continue;
            }
            try (region) {
                int units = region.size() / UNIT_SIZE;
                int first = ConsumeQueueUnitSearch.firstUnitAtOrPast(region.buffer(), units, minCommitLogOffset);
                if (first < units) {
                    minLogicOffset = file.fileFromOffset() + (long) first * UNIT_SIZE;
                    return;
                }
            }
        }
        minLogicOffset = files.isEmpty() ? 0 : files.getMaxOffset();
    }

    /**
     * Writes the unit of queue offset {@code queueOffset}. True when written or already there (a duplicate from
     * re-dispatch); false when no file could be had or the append failed.
     */
    boolean put(long commitLogOffset, int size, long tagsCode, long queueOffset) {
        if (pending != null) {
            Held held = putInMemory(commitLogOffset, size, tagsCode, queueOffset);
            if (held != Held.TO_FILE) {
                return held == Held.HELD;
            }
        }
        if (commitLogOffset + size <= maxPhysicOffset) {
            LOG.debug("ConsumeQueue {}-{}: commit-log offset {} already dispatched", topic, queueId, commitLogOffset);
            return true;
        }
        long expected = ConsumeQueueFormat.logicalOffset(queueOffset);
        MappedFileQueue files = files();
        MappedFile file = files.getLastMappedFile(expected, true);
        if (file == null) {
            LOG.warn("ConsumeQueue {}-{}: no file for logical offset {}", topic, queueId, expected);
            return false;
        }
        if (queueOffset != 0 && file.wrotePosition() == 0 && file == files.getFirstMappedFile()) {
            startQueueAt(file, expected);
        }
        long current = file.fileFromOffset() + file.wrotePosition();
        if (expected < current) {
            LOG.debug("ConsumeQueue {}-{}: queue offset {} already built", topic, queueId, queueOffset);
            return true;
        }
        if (expected != current) {
            // RocketMQ logs this and appends at the current position, keeping the file contiguous.
            LOG.warn("ConsumeQueue {}-{}: logic queue order may be wrong: expected logical offset {}, current {}",
                    topic, queueId, expected, current);
        }
        ConsumeQueueFormat.encode(unit, commitLogOffset, size, tagsCode);
        if (!file.appendBytes(unit, 0, UNIT_SIZE)) {
            return false;
        }
        maxPhysicOffset = commitLogOffset + size;
        return true;
    }

    /** What {@link #putInMemory} did with a unit. */
    private enum Held { HELD, TO_FILE, FAILED }

    /**
     * Holds the unit in memory while the queue has no file; TO_FILE when it must go to the file (which now exists):
     * the queue does not start at offset 0, or this queue or all queues hold as much as they may.
     */
    private synchronized Held putInMemory(long commitLogOffset, int size, long tagsCode, long queueOffset) {
        PendingUnits held = pending;
        if (held == null) {
            return Held.TO_FILE;
        }
        if (commitLogOffset + size <= maxPhysicOffset) {
            LOG.debug("ConsumeQueue {}-{}: commit-log offset {} already dispatched", topic, queueId, commitLogOffset);
            return Held.HELD;
        }
        long current = held.units();
        if (queueOffset < current) {
            LOG.debug("ConsumeQueue {}-{}: queue offset {} already built", topic, queueId, queueOffset);
            return Held.HELD;
        }
        if ((current == 0 && queueOffset != 0) || !held.hasRoom()) {
            return materializeHeld() ? Held.TO_FILE : Held.FAILED;
        }
        if (queueOffset != current) {
            LOG.warn("ConsumeQueue {}-{}: logic queue order may be wrong: expected queue offset {}, current {}",
                    topic, queueId, queueOffset, current);
        }
        ConsumeQueueFormat.encode(unit, commitLogOffset, size, tagsCode);
        held.add(unit);
        maxPhysicOffset = commitLogOffset + size;
        return Held.HELD;
    }

    /**
     * Creates the file of a queue whose units are held in memory and writes them to it (one append); true when the
     * queue has its file (or never held units). Called by the flush side before it forces, by the dispatch thread
     * when a queue outgrows what it may hold, and before a truncation or shutdown.
     */
    boolean materialize() {
        if (pending == null) {
            return true;
        }
        synchronized (this) {
            return materializeHeld();
        }
    }

    private boolean materializeHeld() {
        PendingUnits held = pending;
        if (held == null || destroyed) {
            return true;
        }
        MappedFileQueue files = this.files;
        if (files == null) {
            files = fileQueues.open(topic, queueId);
            this.files = files;
        }
        if (held.units() > 0) {
            MappedFile file = files.getLastMappedFile(0, true);
            if (file == null) {
                LOG.warn("ConsumeQueue {}-{}: could not create its first file; {} units stay in memory", topic,
                        queueId, held.units());
                return false;
            }
            if (file.wrotePosition() == 0 && !file.appendBytes(held.bytes(), 0, held.length())) {
                LOG.warn("ConsumeQueue {}-{}: could not write its first {} units to {}", topic, queueId,
                        held.units(), file.fileName());
                return false;
            }
        }
        held.written();
        pending = null;
        return true;
    }

    /** True while units are held in memory (for tests). */
    boolean holdsUnitsInMemory() {
        PendingUnits held = pending;
        if (held == null) {
            return false;
        }
        synchronized (this) {
            return pending != null && pending.units() > 0;
        }
    }

    /** The first unit of a queue that does not start at 0: blank units up to it (RocketMQ's fillPreBlank). */
    private void startQueueAt(MappedFile file, long expected) {
        long from = file.fileFromOffset();
        if (expected < from || expected >= from + fileSize) {
            return;
        }
        minLogicOffset = expected;
        MappedFileQueue files = files();
        files.setFlushedWhere(from);
        files.setCommittedWhere(from);
        int until = (int) (expected - from);
        byte[] blanks = new byte[Math.min(until, BLANK_UNITS_PER_APPEND * UNIT_SIZE)];
        byte[] blank = ConsumeQueueFormat.blankUnit();
        for (int p = 0; p < blanks.length; p += UNIT_SIZE) {
            System.arraycopy(blank, 0, blanks, p, UNIT_SIZE);
        }
        for (int written = 0; written < until; ) {
            int chunk = Math.min(blanks.length, until - written);
            if (!file.appendBytes(blanks, 0, chunk)) {
                throw new IllegalStateException("could not pre-fill ConsumeQueue " + topic + "-" + queueId);
            }
            written += chunk;
        }
        LOG.info("ConsumeQueue {}-{} starts at queue offset {}: pre-filled {} blank units", topic, queueId,
                ConsumeQueueFormat.queueOffset(expected), until / UNIT_SIZE);
    }

    /** Smallest readable queue offset. */
    long minOffset() {
        return ConsumeQueueFormat.queueOffset(minLogicOffset);
    }

    /** One past the last unit. */
    long maxOffset() {
        if (pending != null) {
            synchronized (this) {
                if (pending != null) {
                    return pending.units();
                }
            }
        }
        MappedFileQueue files = files();
        return files.isEmpty() ? 0 : ConsumeQueueFormat.queueOffset(files.getMaxOffset());
    }

    long maxPhysicOffset() {
        return maxPhysicOffset;
    }

    /** Up to {@code max} units from {@code queueOffset}, within the file that holds it. */
    List<CqUnit> read(long queueOffset, int max) {
        if (queueOffset < 0 || max <= 0) {
            return List.of();
        }
        if (pending != null) {
            synchronized (this) {
                if (pending != null) {
                    return pending.read(queueOffset, max);
                }
            }
        }
        long logical = ConsumeQueueFormat.logicalOffset(queueOffset);
        if (logical < minLogicOffset) {
            return List.of();
        }
        MappedFile file = files().findMappedFileByOffset(logical, false);
        if (file == null) {
            return List.of();
        }
        SelectedRegion region = file.selectMappedBuffer((int) (logical - file.fileFromOffset()));
        if (region == null) {
            return List.of();
        }
        try (region) {
            int units = Math.min(max, region.size() / UNIT_SIZE);
            List<CqUnit> result = new ArrayList<>(units);
            ByteBuffer buffer = region.buffer();
            for (int i = 0; i < units; i++) {
                int p = i * UNIT_SIZE;
                result.add(new CqUnit(queueOffset + i, ConsumeQueueFormat.commitLogOffset(buffer, p),
                        ConsumeQueueFormat.size(buffer, p), ConsumeQueueFormat.tagsCode(buffer, p)));
            }
            return result;
        }
    }

    /** The unit at {@code queueOffset}, or null when it is not readable. */
    CqUnit unitAt(long queueOffset) {
        List<CqUnit> one = read(queueOffset, 1);
        return one.isEmpty() ? null : one.get(0);
    }

    /**
     * Drops every unit whose record does not end by {@code phyOffset}, zeroing the dropped bytes (see
     * {@link ConsumeQueueRecovery#truncate}), and lowers the min offset to the cut.
     */
    void truncate(long phyOffset) {
        if (!materialize()) {
            throw new IllegalStateException("ConsumeQueue " + topic + "-" + queueId + ": cannot truncate, its units "
                    + "held in memory could not be written to a file");
        }
        ConsumeQueueRecovery.Truncation truncation = new ConsumeQueueRecovery(topic, queueId, files())
                .truncate(phyOffset);
        maxPhysicOffset = truncation.maxPhysicOffset();
        long cut = truncation.cut();
        if (cut < 0) {
            return;
        }
        if (minLogicOffset > cut) {
            minLogicOffset = cut;
        }
        LOG.info("ConsumeQueue {}-{} truncated at commit-log offset {}: now ends at queue offset {}", topic, queueId,
                phyOffset, ConsumeQueueFormat.queueOffset(cut));
    }

    /** Deletes head files whose last unit points below {@code minCommitLogOffset}; corrects the min offset. */
    int deleteExpired(long minCommitLogOffset) {
        MappedFileQueue files = this.files;
        if (files == null) {
            return 0;
        }
        int deleted = files.deleteExpiredFileByOffset(minCommitLogOffset, UNIT_SIZE);
        correctMinOffset(minCommitLogOffset);
        return deleted;
    }

    /**
     * Forces dirty units; with {@code leastPages == 0} every file up to the written end, after writing units held
     * in memory to the new file (a regular flush leaves them to the dispatcher's time-bounded pass).
     */
    void flush(int leastPages) throws IOException {
        if (leastPages == 0 && !materialize()) {
            throw new IOException("ConsumeQueue " + topic + "-" + queueId + ": could not create its file for the "
                    + "units held in memory");
        }
        MappedFileQueue files = this.files;
        if (files == null) {
            return; // units held in memory, nothing on disk to force yet
        }
        if (leastPages > 0) {
            files.flush(leastPages);
            return;
        }
        int rounds = files.mappedFiles().size() + 1;
        for (int i = 0; i < rounds && !files.flush(0); i++) {
            // each round completes one file; stop once nothing was left to force
        }
    }

    /**
     * Deletes this queue (its topic was deleted): held units are dropped and their budget given back, the files are
     * destroyed (each unmapped once no reader holds it) and so is the directory. Dispatch thread; the flush side may
     * be flushing this queue meanwhile, which the file queue allows, and will make no new file for it.
     */
    synchronized void destroy() {
        destroyed = true;
        PendingUnits held = pending;
        if (held != null) {
            held.written();
        }
        MappedFileQueue files = this.files;
        if (files == null) {
            return;
        }
        // a reader or the flusher may hold a file right now: unlink it anyway (the second destroy finds it overdue;
        // its mapping stays until they let go). Left on the disk, it would be loaded as this queue at the next start.
        for (MappedFile file : files.mappedFiles()) {
            if (!file.destroy(0) && !file.destroy(0)) {
                LOG.error("ConsumeQueue {}-{}: could not delete {} of the deleted topic", topic, queueId, file.fileName());
            }
        }
        files.destroy();
    }

    void shutdown(long intervalForcibly) {
        if (!materialize()) {
            LOG.error("ConsumeQueue {}-{}: units held in memory are lost at shutdown; they are re-dispatched from the "
                    + "CommitLog only after an unclean exit", topic, queueId);
        }
        MappedFileQueue files = this.files;
        if (files != null) {
            files.shutdown(intervalForcibly);
        }
    }

    /** This queue's files, or null while its units are held in memory (for tests). */
    MappedFileQueue fileQueue() {
        return files;
    }

    /** The file queue where no units can be held (see the class comment's invariant). */
    private MappedFileQueue files() {
        MappedFileQueue files = this.files;
        if (files == null) {
            throw new IllegalStateException("ConsumeQueue " + topic + "-" + queueId + " holds its units in memory and "
                    + "has no file queue yet");
        }
        return files;
    }
}
