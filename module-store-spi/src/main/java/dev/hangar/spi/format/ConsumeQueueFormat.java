package dev.hangar.spi.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The byte layout of a ConsumeQueue file, identical to RocketMQ 4.x ({@code ConsumeQueue.CQ_STORE_UNIT_SIZE}).
 *
 * <p>A ConsumeQueue is a {@code MappedFileQueue} under {@code consumequeue/<topic>/<queueId>/}; each file is named
 * by the 20-digit logical byte offset of its first unit and holds whole 20-byte units, big-endian:
 * <pre>
 *   0                   8           12                  20
 *   +-------------------+-----------+-------------------+
 *   | commitLogOffset   | size      | tagsCode          |
 *   | long              | int       | long              |
 *   +-------------------+-----------+-------------------+
 * </pre>
 * The unit of queue offset {@code n} lives at logical byte offset {@code n * 20}.
 *
 * <p>Special units:
 * <ul>
 *   <li>Blank (written by RocketMQ's {@code fillPreBlank} in front of the first unit of a queue that does not
 *       start at offset 0): {@code [0L][Integer.MAX_VALUE][0L]}. It reads as valid during recovery but points at
 *       nothing; it never counts as a message.</li>
 *   <li>End: any unit with {@code commitLogOffset < 0} or {@code size <= 0} (an all-zero unit in particular)
 *       marks the end of the written data.</li>
 * </ul>
 *
 * <p>Thread-safety: stateless, all methods are pure.
 */
public final class ConsumeQueueFormat {

    /** Bytes per unit. */
    public static final int UNIT_SIZE = 20;
    /** Offset of the commit-log offset (long) within a unit. */
    public static final int COMMIT_LOG_OFFSET_OFFSET = 0;
    /** Offset of the record size (int) within a unit. */
    public static final int SIZE_OFFSET = 8;
    /** Offset of the tags code (long) within a unit. */
    public static final int TAGS_CODE_OFFSET = 12;

    /** Size field of a blank (pre-fill) unit. */
    public static final int BLANK_UNIT_SIZE_FIELD = Integer.MAX_VALUE;

    // big-endian views of a byte[]: encoding a unit per dispatched record must not allocate a ByteBuffer
    private static final VarHandle LONG_AT = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_AT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private ConsumeQueueFormat() {
    }

    /** Encodes one unit into {@code target} (length {@link #UNIT_SIZE}). */
    public static void encode(byte[] target, long commitLogOffset, int size, long tagsCode) {
        LONG_AT.set(target, COMMIT_LOG_OFFSET_OFFSET, commitLogOffset);
        INT_AT.set(target, SIZE_OFFSET, size);
        LONG_AT.set(target, TAGS_CODE_OFFSET, tagsCode);
    }

    /** A new blank (pre-fill) unit. */
    public static byte[] blankUnit() {
        byte[] unit = new byte[UNIT_SIZE];
        encode(unit, 0L, BLANK_UNIT_SIZE_FIELD, 0L);
        return unit;
    }

    /** Commit-log offset of the unit at absolute {@code position} of {@code buffer}. */
    public static long commitLogOffset(ByteBuffer buffer, int position) {
        return buffer.getLong(position + COMMIT_LOG_OFFSET_OFFSET);
    }

    /** Record size of the unit at absolute {@code position} of {@code buffer}. */
    public static int size(ByteBuffer buffer, int position) {
        return buffer.getInt(position + SIZE_OFFSET);
    }

    /** Tags code of the unit at absolute {@code position} of {@code buffer}. */
    public static long tagsCode(ByteBuffer buffer, int position) {
        return buffer.getLong(position + TAGS_CODE_OFFSET);
    }

    /** True when the unit marks the end of written data (RocketMQ's recovery stop condition). */
    public static boolean isEnd(long commitLogOffset, int size) {
        return commitLogOffset < 0 || size <= 0;
    }

    /** True for a {@code fillPreBlank} unit. */
    public static boolean isBlank(long commitLogOffset, int size) {
        return commitLogOffset == 0L && size == BLANK_UNIT_SIZE_FIELD;
    }

    /** Logical byte offset of queue offset {@code queueOffset}. */
    public static long logicalOffset(long queueOffset) {
        return queueOffset * UNIT_SIZE;
    }

    /** Queue offset of logical byte offset {@code logicalOffset}. */
    public static long queueOffset(long logicalOffset) {
        return logicalOffset / UNIT_SIZE;
    }
}
