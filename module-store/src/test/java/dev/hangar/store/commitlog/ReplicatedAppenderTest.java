package dev.hangar.store.commitlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.store.format.CommitLogRecordFormat;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The store timestamp a slave's replicated append reports is that of the last record the bytes complete: a chunk
 * from a master may end inside a record, and such a half-copied record must not advance the checkpoint.
 */
class ReplicatedAppenderTest {
    private static final int FILE_SIZE = 1024;
    private static final int RECORD = 100;

    /** A minimal record: total size, magic, IPv4 sys flag and the store timestamp where the format puts them. */
    private static byte[] record(long storeTimestamp) {
        ByteBuffer b = ByteBuffer.allocate(RECORD);
        b.putInt(CommitLogRecordFormat.TOTAL_SIZE_OFFSET, RECORD);
        b.putInt(CommitLogRecordFormat.MAGIC_CODE_OFFSET, CommitLogRecordFormat.MESSAGE_MAGIC_CODE);
        b.putInt(CommitLogRecordFormat.SYS_FLAG_OFFSET, 0);
        b.putLong(CommitLogRecordFormat.storeTimestampOffset(0), storeTimestamp);
        return b.array();
    }

    private static byte[] blank(int size) {
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(CommitLogRecordFormat.TOTAL_SIZE_OFFSET, size);
        b.putInt(CommitLogRecordFormat.MAGIC_CODE_OFFSET, CommitLogRecordFormat.BLANK_MAGIC_CODE);
        return b.array();
    }

    /** A file being appended to, driving the callback as MappedFile.append does. */
    private static final class File {
        final long from;
        final ByteBuffer buffer = ByteBuffer.allocate(FILE_SIZE);
        long timestamp;

        File(long from) {
            this.from = from;
        }

        long append(ReplicatedAppender appender, byte[] bytes, int offset, int length) {
            int position = buffer.position();
            appender.prepare(ByteBuffer.wrap(bytes, offset, length), length, from + position, timestamp);
            ByteBuffer target = buffer.duplicate().clear().position(position);
            AppendMessageResult r = appender.doAppend(from, target, FILE_SIZE - position);
            assertEquals(length, r.wroteBytes());
            buffer.position(position + length);
            timestamp = r.storeTimestamp();
            return timestamp;
        }
    }

    @Test
    void aChunkEndingInsideARecordReportsTheLastCompleteRecordsTime() {
        ReplicatedAppender appender = new ReplicatedAppender();
        File file = new File(0);
        byte[] three = new byte[3 * RECORD];
        System.arraycopy(record(1_000), 0, three, 0, RECORD);
        System.arraycopy(record(2_000), 0, three, RECORD, RECORD);
        System.arraycopy(record(3_000), 0, three, 2 * RECORD, RECORD);

        assertEquals(0, file.append(appender, three, 0, 50), "half a record vouches for nothing");
        assertEquals(1_000, file.append(appender, three, 50, 60), "the first record is complete");
        assertEquals(1_000, file.append(appender, three, 110, 10), "the second is not yet");
        assertEquals(3_000, file.append(appender, three, 120, 180), "both others are complete");
        assertEquals(3 * RECORD, appender.nextRecordStart());
    }

    @Test
    void theMastersEndOfFileBlankMovesTheWalkToTheNextFile() {
        ReplicatedAppender appender = new ReplicatedAppender();
        File first = new File(0);
        byte[] full = new byte[FILE_SIZE];
        for (int i = 0; i < 9; i++) {
            System.arraycopy(record(100 + i), 0, full, i * RECORD, RECORD);
        }
        System.arraycopy(blank(FILE_SIZE - 9 * RECORD), 0, full, 9 * RECORD, FILE_SIZE - 9 * RECORD);
        assertEquals(108, first.append(appender, full, 0, FILE_SIZE));
        assertEquals(FILE_SIZE, appender.nextRecordStart());

        File second = new File(FILE_SIZE);
        assertEquals(500, second.append(appender, record(500), 0, RECORD));
        assertEquals(FILE_SIZE + RECORD, appender.nextRecordStart());
    }

    @Test
    void bytesThatAreNoRecordStopTheClockButNotTheAppend() {
        ReplicatedAppender appender = new ReplicatedAppender();
        File file = new File(0);
        assertEquals(7, file.append(appender, record(7), 0, RECORD));
        byte[] noise = new byte[RECORD];
        Arrays.fill(noise, (byte) 0x5A);
        assertEquals(7, file.append(appender, noise, 0, RECORD), "garbage keeps the last good time");
        assertEquals(7, file.append(appender, record(9), 0, RECORD), "and the walk does not resume on a guess");
        assertEquals(-1, appender.nextRecordStart());
    }

    @Test
    void aChunkLargerThanTheRoomLeftIsRefused() {
        ReplicatedAppender appender = new ReplicatedAppender();
        appender.prepare(ByteBuffer.wrap(new byte[200]), 200, 0, 0);
        assertThrows(IllegalStateException.class, () -> appender.doAppend(0, ByteBuffer.allocate(100), 100));
    }

    @Test
    void bytesAlreadyWrittenIntoTheFileAreWalkedAndLeftAsTheyAre() {
        // a slave whose file is its mapping writes the bytes with pwrite first (ReplicaFileWriter), then appends
        // no chunk: the append must move the end and the clock without storing anything over those bytes
        ReplicatedAppender appender = new ReplicatedAppender();
        ByteBuffer file = ByteBuffer.allocate(FILE_SIZE);
        file.put(0, record(4_000));
        appender.prepare(null, RECORD, 0, 0);
        AppendMessageResult r = appender.doAppend(0, file.duplicate().clear().position(0), FILE_SIZE);
        assertEquals(RECORD, r.wroteBytes());
        assertEquals(4_000, r.storeTimestamp());
        assertEquals(RECORD, appender.nextRecordStart());
        byte[] stored = new byte[RECORD];
        file.get(0, stored);
        assertArrayEquals(record(4_000), stored, "the bytes in the file are untouched");
    }

    @Test
    void aChunkWhoseSizeDisagreesWithItsLengthIsRefused() {
        ReplicatedAppender appender = new ReplicatedAppender();
        assertThrows(IllegalArgumentException.class, () -> appender.prepare(ByteBuffer.allocate(10), 20, 0, 0));
    }
}
