package dev.hangar.store.format;

import static dev.hangar.store.format.CommitLogRecordFormat.BLANK_MAGIC_CODE;
import static dev.hangar.store.format.CommitLogRecordFormat.MESSAGE_MAGIC_CODE;

import dev.hangar.spi.message.StoredMessage;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Checks and decodes CommitLog records in place, with absolute reads (the buffer's position is not moved).
 * Stateless and thread-safe.
 */
public final class RecordDecoder {
    private RecordDecoder() {
    }

    /** What lies at a position of the log. */
    public enum Kind {
        /** A complete, consistent record. */
        MESSAGE,
        /** The BLANK end-of-file record: go on at the next file. */
        BLANK,
        /** Nothing was ever written here (zeros, or no bytes left). */
        END,
        /** A torn, truncated or corrupted record: the log ends before it. */
        INVALID
    }

    /**
     * Result of {@link #check}.
     *
     * @param kind   what was found
     * @param size   the record size (MESSAGE, BLANK), else 0
     * @param reason why INVALID, else null
     */
    public record Check(Kind kind, int size, String reason) {
        static final Check END = new Check(Kind.END, 0, null);

        static Check invalid(String reason) {
            return new Check(Kind.INVALID, 0, reason);
        }
    }

    /**
     * Checks the record at {@code pos}, with {@code available} bytes readable from there.
     *
     * @param checkCrc also verify the body CRC
     */
    public static Check check(ByteBuffer buf, int pos, int available, boolean checkCrc) {
        int length = messageLength(buf, pos, available, checkCrc);
        if (length > 0) {
            return new Check(Kind.MESSAGE, length, null);
        }
        return switch (length) {
            case NOTHING -> Check.END;
            case BLANK_RECORD -> new Check(Kind.BLANK, buf.getInt(pos), null);
            default -> Check.invalid(reason(length, buf, pos, available, checkCrc));
        };
    }

    // what messageLength returns when no consistent message lies at the position
    private static final int NOTHING = -1;
    private static final int BLANK_RECORD = -2;
    private static final int HEADER_CUT = -3;
    private static final int BAD_MAGIC = -4;
    private static final int LENGTH_OUT_OF_RANGE = -5;
    private static final int SHORTER_THAN_HEADER = -6;
    private static final int BODY_OVERRUNS = -7;
    private static final int TOPIC_OVERRUNS = -8;
    private static final int LENGTHS_DISAGREE = -9;
    private static final int CRC_MISMATCH = -10;

    /**
     * The length of the complete, consistent message record at {@code pos}, or a negative number when something
     * else lies there ({@link #check} says what). The loop over records calls this per record: unlike
     * {@link #check} it allocates nothing.
     */
    public static int messageLength(ByteBuffer buf, int pos, int available, boolean checkCrc) {
        if (available < 8) {
            return available <= 0 || allZero(buf, pos, available) ? NOTHING : HEADER_CUT;
        }
        int total = buf.getInt(pos);
        int magic = buf.getInt(pos + 4);
        if (magic == BLANK_MAGIC_CODE) {
            return BLANK_RECORD;
        }
        if (magic != MESSAGE_MAGIC_CODE) {
            return total == 0 && magic == 0 ? NOTHING : BAD_MAGIC;
        }
        if (total < CommitLogRecordFormat.recordLength(0, 0, 0, 0) || total > available) {
            return LENGTH_OUT_OF_RANGE;
        }
        int sysFlag = buf.getInt(pos + CommitLogRecordFormat.SYS_FLAG_OFFSET);
        int bodyLenAt = CommitLogRecordFormat.bodyLengthOffset(sysFlag);
        if (bodyLenAt + 4 > total) {
            return SHORTER_THAN_HEADER;
        }
        int bodyLen = buf.getInt(pos + bodyLenAt);
        int topicLenAt = bodyLenAt + 4 + bodyLen;
        if (bodyLen < 0 || topicLenAt + 1 > total) {
            return BODY_OVERRUNS;
        }
        int topicLen = buf.get(pos + topicLenAt);
        int propsLenAt = topicLenAt + 1 + topicLen;
        if (topicLen <= 0 || propsLenAt + 2 > total) {
            return TOPIC_OVERRUNS;
        }
        int propsLen = buf.getShort(pos + propsLenAt);
        if (propsLen < 0 || CommitLogRecordFormat.recordLength(sysFlag, bodyLen, topicLen, propsLen) != total) {
            return LENGTHS_DISAGREE;
        }
        if (checkCrc && buf.getInt(pos + CommitLogRecordFormat.BODY_CRC_OFFSET) != crc(buf, pos + bodyLenAt + 4, bodyLen)) {
            return CRC_MISMATCH;
        }
        return total;
    }

    /** Why the record at {@code pos} is INVALID, for a {@link #messageLength} code (the fields are read again). */
    private static String reason(int code, ByteBuffer buf, int pos, int available, boolean checkCrc) {
        if (code == HEADER_CUT) {
            return "a record header is cut short"; // fewer than 8 bytes: nothing more to read
        }
        int total = buf.getInt(pos);
        int sysFlag = code <= SHORTER_THAN_HEADER ? buf.getInt(pos + CommitLogRecordFormat.SYS_FLAG_OFFSET) : 0;
        int bodyLenAt = CommitLogRecordFormat.bodyLengthOffset(sysFlag);
        int bodyLen = code <= BODY_OVERRUNS ? buf.getInt(pos + bodyLenAt) : 0;
        int topicLen = code <= TOPIC_OVERRUNS ? buf.get(pos + bodyLenAt + 4 + bodyLen) : 0;
        return switch (code) {
            case BAD_MAGIC -> String.format("bad magic code 0x%08X", buf.getInt(pos + 4));
            case LENGTH_OUT_OF_RANGE -> "record length " + total + " does not fit the " + available + " bytes left";
            case SHORTER_THAN_HEADER -> "record of " + total + " bytes is shorter than its header";
            case BODY_OVERRUNS -> "body length " + bodyLen + " overruns the record";
            case TOPIC_OVERRUNS -> "topic length " + topicLen + " overruns the record";
            case LENGTHS_DISAGREE -> "field lengths do not add up to the record length " + total;
            case CRC_MISMATCH -> String.format("body CRC 0x%08X does not match the stored 0x%08X",
                    crc(buf, pos + bodyLenAt + 4, bodyLen), buf.getInt(pos + CommitLogRecordFormat.BODY_CRC_OFFSET));
            default -> throw new IllegalArgumentException("not an invalid-record code: " + code);
        };
    }

    private static boolean allZero(ByteBuffer buf, int pos, int len) {
        for (int i = 0; i < len; i++) {
            if (buf.get(pos + i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** CRC32 of a region, masked to 31 bits as RocketMQ stores it. */
    public static int crc(ByteBuffer buf, int pos, int len) {
        CRC32 crc = new CRC32();
        ByteBuffer slice = buf.duplicate();
        slice.limit(pos + len).position(pos);
        crc.update(slice);
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }

    /** Decodes a record already {@link #check checked} as MESSAGE. */
    public static StoredMessage decode(ByteBuffer buf, int pos) {
        int total = buf.getInt(pos);
        int sysFlag = buf.getInt(pos + CommitLogRecordFormat.SYS_FLAG_OFFSET);
        int bodyLenAt = CommitLogRecordFormat.bodyLengthOffset(sysFlag);
        int bodyLen = buf.getInt(pos + bodyLenAt);
        byte[] body = bytes(buf, pos + bodyLenAt + 4, bodyLen);
        int topicLenAt = bodyLenAt + 4 + bodyLen;
        int topicLen = buf.get(pos + topicLenAt);
        String topic = new String(bytes(buf, pos + topicLenAt + 1, topicLen), StandardCharsets.UTF_8);
        int propsLenAt = topicLenAt + 1 + topicLen;
        int propsLen = buf.getShort(pos + propsLenAt);
        byte[] props = bytes(buf, pos + propsLenAt + 2, propsLen);
        Map<String, String> properties = MessagePropertiesCodec.decode(props, 0, propsLen);
        long commitLogOffset = buf.getLong(pos + CommitLogRecordFormat.PHYSICAL_OFFSET_OFFSET);
        InetSocketAddress storeHost = host(buf, pos + CommitLogRecordFormat.storeHostOffset(sysFlag),
                CommitLogRecordFormat.storeHostLength(sysFlag));
        return new StoredMessage(
                topic,
                buf.getInt(pos + CommitLogRecordFormat.QUEUE_ID_OFFSET),
                buf.getLong(pos + CommitLogRecordFormat.QUEUE_OFFSET_OFFSET),
                commitLogOffset,
                total,
                buf.getInt(pos + CommitLogRecordFormat.BODY_CRC_OFFSET),
                buf.getInt(pos + CommitLogRecordFormat.FLAG_OFFSET),
                sysFlag,
                buf.getLong(pos + CommitLogRecordFormat.BORN_TIMESTAMP_OFFSET),
                host(buf, pos + CommitLogRecordFormat.BORN_HOST_OFFSET, CommitLogRecordFormat.bornHostLength(sysFlag)),
                buf.getLong(pos + CommitLogRecordFormat.storeTimestampOffset(sysFlag)),
                storeHost,
                buf.getInt(pos + CommitLogRecordFormat.reconsumeTimesOffset(sysFlag)),
                buf.getLong(pos + CommitLogRecordFormat.preparedTransactionOffsetOffset(sysFlag)),
                body,
                properties,
                MessageIdCodec.create(MessageIdCodec.hostPrefix(storeHost), commitLogOffset));
    }

    /**
     * A new dispatch view of the record at {@code pos} (the body is not copied, no msgId is built). The reput loop
     * reuses one {@link DispatchRecordView} instead.
     */
    public static DispatchRecordView toDispatchRequest(ByteBuffer buf, int pos) {
        return new DispatchRecordView().wrap(buf, pos);
    }

    /** The store timestamp of the record at {@code pos}. */
    public static long storeTimestamp(ByteBuffer buf, int pos) {
        int sysFlag = buf.getInt(pos + CommitLogRecordFormat.SYS_FLAG_OFFSET);
        return buf.getLong(pos + CommitLogRecordFormat.storeTimestampOffset(sysFlag));
    }

    private static byte[] bytes(ByteBuffer buf, int pos, int len) {
        byte[] out = new byte[len];
        buf.get(pos, out, 0, len);
        return out;
    }

    private static InetSocketAddress host(ByteBuffer buf, int pos, int len) {
        byte[] addr = bytes(buf, pos, len - 4);
        int port = buf.getInt(pos + len - 4);
        try {
            return new InetSocketAddress(InetAddress.getByAddress(addr), port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("impossible: address of " + addr.length + " bytes", e);
        }
    }

    /** The topic of the record at {@code pos}, without decoding the rest. */
    public static String topic(ByteBuffer buf, int pos) {
        int sysFlag = buf.getInt(pos + CommitLogRecordFormat.SYS_FLAG_OFFSET);
        int bodyLenAt = CommitLogRecordFormat.bodyLengthOffset(sysFlag);
        int topicLenAt = bodyLenAt + 4 + buf.getInt(pos + bodyLenAt);
        int topicLen = buf.get(pos + topicLenAt);
        return new String(bytes(buf, pos + topicLenAt + 1, topicLen), StandardCharsets.UTF_8);
    }
}
