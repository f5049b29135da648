package dev.hangar.store.format;

import dev.hangar.spi.message.MessageSysFlag;

/**
 * The byte layout of one CommitLog record, RocketMQ 4.x message version V1 (byte-compatible). Big-endian.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |                      TOTALSIZE (int)                          |  0
 * |                      MAGICCODE (int) 0xDAA320A7               |  4
 * |                      BODYCRC (int, CRC32 & 0x7FFFFFFF)        |  8
 * |                      QUEUEID (int)                            | 12
 * |                      FLAG (int)                               | 16
 * |                      QUEUEOFFSET (long)                       | 20
 * |                      PHYSICALOFFSET (long)                    | 28
 * |                      SYSFLAG (int)                            | 36
 * |                      BORNTIMESTAMP (long)                     | 40
 * |     BORNHOST: IPv4 4 + port 4 = 8   (IPv6 16 + 4 = 20)        | 48
 * |                      STORETIMESTAMP (long)                    | 56 (IPv4)
 * |     STOREHOST: IPv4 8 / IPv6 20                               | 64
 * |                      RECONSUMETIMES (int)                     | 72
 * |                      PREPARED TRANSACTION OFFSET (long)       | 76
 * |                      BODY LENGTH (int)                        | 84
 * |                      BODY ...                                 | 88
 * |  TOPIC LENGTH (byte) |  TOPIC ...                             |
 * |  PROPERTIES LENGTH (short)  |  PROPERTIES k\u0001v\u0002...   |
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The end of a file that cannot hold the next record is marked by a BLANK record: {@code [int length of the
 * rest of the file][int BLANK_MAGIC_CODE]}. Sysflag bits {@link MessageSysFlag#BORNHOST_V6_FLAG} and
 * {@link MessageSysFlag#STOREHOST_V6_FLAG} widen the host fields to 20 bytes and shift what follows.
 */
public final class CommitLogRecordFormat {
    public static final int MESSAGE_MAGIC_CODE = 0xDAA320A7;
    public static final int BLANK_MAGIC_CODE = 0xCBD43194;
    /** A file keeps at least this many bytes for the BLANK record. */
    public static final int END_FILE_MIN_BLANK_LENGTH = 4 + 4;

    public static final int TOTAL_SIZE_OFFSET = 0;
    public static final int MAGIC_CODE_OFFSET = 4;
    public static final int BODY_CRC_OFFSET = 8;
    public static final int QUEUE_ID_OFFSET = 12;
    public static final int FLAG_OFFSET = 16;
    public static final int QUEUE_OFFSET_OFFSET = 20;
    public static final int PHYSICAL_OFFSET_OFFSET = 28;
    public static final int SYS_FLAG_OFFSET = 36;
    public static final int BORN_TIMESTAMP_OFFSET = 40;
    public static final int BORN_HOST_OFFSET = 48;

    public static final int IPV4_HOST_LENGTH = 8;
    public static final int IPV6_HOST_LENGTH = 20;

    /** Largest topic in bytes for V1 (1-byte length). */
    public static final int MAX_TOPIC_LENGTH = 127;
    /** Largest encoded properties (2-byte signed length). */
    public static final int MAX_PROPERTIES_LENGTH = Short.MAX_VALUE;

    private CommitLogRecordFormat() {
    }

    public static int bornHostLength(int sysFlag) {
        return (sysFlag & MessageSysFlag.BORNHOST_V6_FLAG) == 0 ? IPV4_HOST_LENGTH : IPV6_HOST_LENGTH;
    }

    public static int storeHostLength(int sysFlag) {
        return (sysFlag & MessageSysFlag.STOREHOST_V6_FLAG) == 0 ? IPV4_HOST_LENGTH : IPV6_HOST_LENGTH;
    }

    public static int storeTimestampOffset(int sysFlag) {
        return BORN_HOST_OFFSET + bornHostLength(sysFlag);
    }

    public static int storeHostOffset(int sysFlag) {
        return storeTimestampOffset(sysFlag) + 8;
    }

    public static int reconsumeTimesOffset(int sysFlag) {
        return storeHostOffset(sysFlag) + storeHostLength(sysFlag);
    }

    public static int preparedTransactionOffsetOffset(int sysFlag) {
        return reconsumeTimesOffset(sysFlag) + 4;
    }

    public static int bodyLengthOffset(int sysFlag) {
        return preparedTransactionOffsetOffset(sysFlag) + 8;
    }

    /** Where the body starts. */
    public static int bodyOffset(int sysFlag) {
        return bodyLengthOffset(sysFlag) + 4;
    }

    /** Where the one-byte topic length lies, after a body of {@code bodyLength} bytes. */
    public static int topicLengthOffset(int sysFlag, int bodyLength) {
        return bodyOffset(sysFlag) + bodyLength;
    }

    /** Where the two-byte properties length lies, after the body and a topic of {@code topicLength} bytes. */
    public static int propertiesLengthOffset(int sysFlag, int bodyLength, int topicLength) {
        return topicLengthOffset(sysFlag, bodyLength) + 1 + topicLength;
    }

    /** Total record length for the given variable parts. */
    public static int recordLength(int sysFlag, int bodyLength, int topicLength, int propertiesLength) {
        return propertiesLengthOffset(sysFlag, bodyLength, topicLength) + 2 + propertiesLength;
    }
}
