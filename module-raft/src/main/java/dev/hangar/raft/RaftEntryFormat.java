package dev.hangar.raft;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * What a Raft entry of the {@code raft} provider carries in Ratis' own log: the header of one contiguous CommitLog
 * range, never its bytes (those travel as state-machine data, which Ratis does not write into its segments, and
 * live only in the CommitLog).
 *
 * <pre>
 *  0         1                   9          13         17
 *  +---------+-------------------+----------+----------+
 *  | version | start offset (8)  | length(4)| crc32c(4)|     big-endian, 17 bytes
 *  +---------+-------------------+----------+----------+
 * </pre>
 * The CRC covers the range's bytes: a follower checks it before it appends them, so bytes damaged in transit or
 * read from a wrong place never enter its CommitLog.
 */
public final class RaftEntryFormat {
    public static final byte VERSION = 1;
    public static final int SIZE = 17;

    /** One decoded header. */
    public record Range(long start, int length, int crc) {
        public long end() {
            return start + length;
        }
    }

    private RaftEntryFormat() {
    }

    public static byte[] encode(long start, int length, int crc) {
        return ByteBuffer.allocate(SIZE).put(VERSION).putLong(start).putInt(length).putInt(crc).array();
    }

    /** @throws IllegalArgumentException when the bytes are not a header of this version */
    public static Range decode(ByteBuffer bytes) {
        if (bytes.remaining() != SIZE || bytes.get(bytes.position()) != VERSION) {
            throw new IllegalArgumentException("not a CommitLog range header: " + bytes.remaining() + " bytes"
                    + (bytes.hasRemaining() ? ", version " + bytes.get(bytes.position()) : ""));
        }
        ByteBuffer b = bytes.duplicate();
        b.get();
        long start = b.getLong();
        int length = b.getInt();
        int crc = b.getInt();
        if (start < 0 || length <= 0) {
            throw new IllegalArgumentException("a CommitLog range header with start " + start + " and length " + length);
        }
        return new Range(start, length, crc);
    }

    public static int crc(ByteBuffer data) {
        CRC32C crc = new CRC32C();
        crc.update(data.duplicate());
        return (int) crc.getValue();
    }
}
