package dev.hangar.store.commitlog;

import dev.hangar.spi.mapped.AppendCallback;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import dev.hangar.store.format.CommitLogRecordFormat;
import java.nio.ByteBuffer;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a slave's replicated bytes into a mapped file through {@code MappedFile.append}, so that the file's store
 * timestamp advances as a master's does: the flusher copies it into the checkpoint's physicMsgTimestamp, and the
 * abnormal recovery of a slave then starts near its end instead of at its first file.
 *
 * <p>The timestamp is the store time of the last record the bytes <em>complete</em>: a chunk from a master may end
 * in the middle of a record, and a half-copied record must not vouch for anything. To know where records start it
 * walks the record headers from the first append of this process on (the log's end then, which recovery left on a
 * record boundary, or a file boundary for an empty log). Bytes it cannot parse stop the walk for good (logged
 * once): the timestamp then stays where it was, which only makes a later crash recovery scan more, never less.
 *
 * <p>Not thread-safe: used under the CommitLog's put lock.
 */
final class ReplicatedAppender implements AppendCallback {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedAppender.class);
    private static final long UNKNOWN = -1;
    /** Total size + magic + body CRC + queue id + flag + queue offset + physical offset + sys flag: a record's least. */
    private static final int MIN_RECORD_HEADER = CommitLogRecordFormat.BORN_TIMESTAMP_OFFSET;

    private long nextRecordStart = UNKNOWN;
    private boolean walkLost;
    /** The bytes to store, or null when they are in the file already ({@link ReplicaFileWriter}). */
    private ByteBuffer chunk;
    private int length;
    private long previousTimestamp;

    /** The commit-log offset of the next record whose header the walk will read; -1 before the first append. */
    long nextRecordStart() {
        return nextRecordStart;
    }

    /** Forgets where the walk was (the log was cut back): the next append's offset is a record boundary again. */
    void restart() {
        nextRecordStart = UNKNOWN;
        walkLost = false;
    }

    /**
     * Sets up one {@code MappedFile.append} of {@code length} bytes at commit-log offset {@code offset}: the remaining
     * bytes of {@code chunk}, or, when {@code chunk} is null, bytes already written into the file at the append
     * position (the append then only walks them and moves the file's end); {@code fileTimestamp} is the file's
     * store timestamp so far (kept when no record completes).
     */
    void prepare(ByteBuffer chunk, int length, long offset, long fileTimestamp) {
        if (chunk != null && chunk.remaining() != length) {
            throw new IllegalArgumentException("a chunk of " + chunk.remaining() + " bytes announced as " + length);
        }
        this.chunk = chunk;
        this.length = length;
        this.previousTimestamp = fileTimestamp;
        if (nextRecordStart == UNKNOWN && !walkLost) {
            nextRecordStart = offset;
        }
    }

    @Override
    public AppendMessageResult doAppend(long fileFromOffset, ByteBuffer target, int maxBlank) {
        if (length > maxBlank) {
            throw new IllegalStateException("replicated chunk of " + length + " bytes does not fit the " + maxBlank
                    + " bytes left in the file at " + fileFromOffset);
        }
        int start = target.position();
        if (chunk != null) {
            target.put(chunk);
            chunk = null;
        }
        long timestamp = walk(fileFromOffset, target, start + length, target.limit());
        return AppendMessageResult.of(AppendMessageStatus.PUT_OK, fileFromOffset + start, length, List.of(),
                timestamp, 0, 0);
    }

    /** Walks the records of the file that end at or before {@code written}; returns the last one's store time. */
    private long walk(long fileFromOffset, ByteBuffer file, int written, int fileSize) {
        long timestamp = previousTimestamp;
        if (walkLost) {
            return timestamp;
        }
        long pos = nextRecordStart - fileFromOffset;
        if (pos < 0 || pos > fileSize) {
            return lose("the next record start " + nextRecordStart + " is not in the file at " + fileFromOffset,
                    timestamp);
        }
        while (pos + CommitLogRecordFormat.END_FILE_MIN_BLANK_LENGTH <= written) {
            int p = (int) pos;
            int size = file.getInt(p + CommitLogRecordFormat.TOTAL_SIZE_OFFSET);
            int magic = file.getInt(p + CommitLogRecordFormat.MAGIC_CODE_OFFSET);
            if (magic == CommitLogRecordFormat.BLANK_MAGIC_CODE) {
                // the master's end-of-file filler: the next record is the next file's first
                pos = fileSize;
                break;
            }
            if (magic != CommitLogRecordFormat.MESSAGE_MAGIC_CODE || size < MIN_RECORD_HEADER || pos + size > fileSize) {
                return lose("no record header at " + (fileFromOffset + pos) + " (size " + size + ", magic "
                        + Integer.toHexString(magic) + ")", timestamp);
            }
            if (pos + size > written) {
                break; // the rest of this record comes with a later chunk
            }
            int sysFlag = file.getInt(p + CommitLogRecordFormat.SYS_FLAG_OFFSET);
            int timestampAt = CommitLogRecordFormat.storeTimestampOffset(sysFlag);
            if (timestampAt + Long.BYTES > size) {
                return lose("a record of " + size + " bytes at " + (fileFromOffset + pos) + " is too short for its "
                        + "header", timestamp);
            }
            timestamp = file.getLong(p + timestampAt);
            pos += size;
        }
        nextRecordStart = fileFromOffset + pos;
        return timestamp;
    }

    private long lose(String why, long timestamp) {
        walkLost = true;
        nextRecordStart = UNKNOWN;
        LOG.warn("replicated bytes: {}; the store timestamp stops advancing on this slave until it restarts, so a crash "
                + "recovery may scan more files than needed", why);
        return timestamp;
    }
}
