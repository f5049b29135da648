package dev.hangar.store.format;

import static dev.hangar.store.format.CommitLogRecordFormat.BLANK_MAGIC_CODE;
import static dev.hangar.store.format.CommitLogRecordFormat.MESSAGE_MAGIC_CODE;

import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.message.MessageConst;
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
    private static final byte[] TAGS_NAME = MessageConst.TAGS.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEYS_NAME = MessageConst.KEYS.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UNIQ_KEY_NAME = MessageConst.UNIQ_KEY.getBytes(StandardCharsets.US_ASCII);

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
        if (available < 8) {
            return available <= 0 || allZero(buf, pos, available) ? Check.END : Check.invalid("a record header is cut short");
        }
        int total = buf.getInt(pos);
        int magic = buf.getInt(pos + 4);
        if (magic == BLANK_MAGIC_CODE) {
            return new Check(Kind.BLANK, total, null);
        }
        if (magic != MESSAGE_MAGIC_CODE) {
            if (total == 0 && magic == 0) {
                return Check.END;
            }
            return Check.invalid(String.format("bad magic code 0x%08X", magic));
        }
        if (total < CommitLogRecordFormat.recordLength(0, 0, 0, 0) || total > available) {
            return Check.invalid("record length " + total + " does not fit the " + available + " bytes left");
        }
        int sysFlag = buf.getInt(pos + CommitLogRecordFormat.SYS_FLAG_OFFSET);
        int bodyLenAt = CommitLogRecordFormat.bodyLengthOffset(sysFlag);
        if (bodyLenAt + 4 > total) {
            return Check.invalid("record of " + total + " bytes is shorter than its header");
        }
        int bodyLen = buf.getInt(pos + bodyLenAt);
        int topicLenAt = bodyLenAt + 4 + bodyLen;
        if (bodyLen < 0 || topicLenAt + 1 > total) {
            return Check.invalid("body length " + bodyLen + " overruns the record");
        }
        int topicLen = buf.get(pos + topicLenAt);
        int propsLenAt = topicLenAt + 1 + topicLen;
        if (topicLen <= 0 || propsLenAt + 2 > total) {
            return Check.invalid("topic length " + topicLen + " overruns the record");
        }
        int propsLen = buf.getShort(pos + propsLenAt);
        if (propsLen < 0 || CommitLogRecordFormat.recordLength(sysFlag, bodyLen, topicLen, propsLen) != total) {
            return Check.invalid("field lengths do not add up to the record length " + total);
        }
        if (checkCrc) {
            int stored = buf.getInt(pos + CommitLogRecordFormat.BODY_CRC_OFFSET);
            int actual = crc(buf, pos + bodyLenAt + 4, bodyLen);
            if (stored != actual) {
                return Check.invalid(String.format("body CRC 0x%08X does not match the stored 0x%08X", actual, stored));
            }
        }
        return new Check(Kind.MESSAGE, total, null);
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
     * The dispatch view of the record at {@code pos}, decoded without copying the body or building the msgId;
     * the tags code is the tag's hash.
     */
    public static DispatchRequest toDispatchRequest(ByteBuffer buf, int pos) {
        int total = buf.getInt(pos);
        int sysFlag = buf.getInt(pos + CommitLogRecordFormat.SYS_FLAG_OFFSET);
        int bodyLenAt = CommitLogRecordFormat.bodyLengthOffset(sysFlag);
        int topicLenAt = bodyLenAt + 4 + buf.getInt(pos + bodyLenAt);
        int topicLen = buf.get(pos + topicLenAt);
        String topic = TopicNames.decode(buf, pos + topicLenAt + 1, topicLen);
        int propsLenAt = topicLenAt + 1 + topicLen;
        int propsLen = buf.getShort(pos + propsLenAt);
        byte[] encodedProperties = bytes(buf, pos + propsLenAt + 2, propsLen);
        // one pass over the properties for the three values dispatch needs
        int tagsCode = 0;
        String keys = null;
        String uniqKey = null;
        for (int start = 0, n = encodedProperties.length; start < n; ) {
            int sep = start;
            while (sep < n && encodedProperties[sep] != LazyProperties.NAME_VALUE_SEPARATOR
                    && encodedProperties[sep] != LazyProperties.PROPERTY_SEPARATOR) {
                sep++;
            }
            int end = sep;
            while (end < n && encodedProperties[end] != LazyProperties.PROPERTY_SEPARATOR) {
                end++;
            }
            if (sep < end) {
                if (LazyProperties.nameIs(encodedProperties, start, sep, TAGS_NAME)) {
                    tagsCode = LazyProperties.stringHash(encodedProperties, sep + 1, end);
                } else if (LazyProperties.nameIs(encodedProperties, start, sep, KEYS_NAME)) {
                    keys = new String(encodedProperties, sep + 1, end - sep - 1, StandardCharsets.UTF_8);
                } else if (LazyProperties.nameIs(encodedProperties, start, sep, UNIQ_KEY_NAME)) {
                    uniqKey = new String(encodedProperties, sep + 1, end - sep - 1, StandardCharsets.UTF_8);
                }
            }
            start = end + 1;
        }
        return new DispatchRequest(topic,
                buf.getInt(pos + CommitLogRecordFormat.QUEUE_ID_OFFSET),
                buf.getLong(pos + CommitLogRecordFormat.PHYSICAL_OFFSET_OFFSET),
                total,
                tagsCode,
                buf.getLong(pos + CommitLogRecordFormat.storeTimestampOffset(sysFlag)),
                buf.getLong(pos + CommitLogRecordFormat.QUEUE_OFFSET_OFFSET),
                keys,
                uniqKey,
                sysFlag,
                buf.getLong(pos + CommitLogRecordFormat.preparedTransactionOffsetOffset(sysFlag)),
                new LazyProperties(encodedProperties),
                buf.getLong(pos + CommitLogRecordFormat.BORN_TIMESTAMP_OFFSET));
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
