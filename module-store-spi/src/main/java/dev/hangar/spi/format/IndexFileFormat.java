package dev.hangar.spi.format;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * The byte layout and naming of an index file, identical to RocketMQ 4.x ({@code IndexFile}, {@code IndexHeader}).
 *
 * <p>One fixed-size file {@code index/<yyyyMMddHHmmssSSS>} (creation time, local time zone), big-endian:
 * <pre>
 *  header (40 B)
 *   0               8               16              24              32      36      40
 *   +---------------+---------------+---------------+---------------+-------+-------+
 *   | beginTimestamp| endTimestamp  | beginPhyOffset| endPhyOffset  | slots | index |
 *   | long          | long          | long          | long          | used  | count |
 *   +---------------+---------------+---------------+---------------+-------+-------+
 *  hash slots (slotCount x 4 B) at 40
 *   +-------+-------+-----+
 *   | int   | int   | ... |   index of the newest entry whose key hashes to this slot; 0 = empty
 *   +-------+-------+-----+
 *  entries (entryCapacity x 20 B) at 40 + slotCount * 4; entry 0 is never used (index count starts at 1)
 *   0       4               12      16      20
 *   +-------+---------------+-------+-------+
 *   |keyHash| phyOffset     |timeDif|prevIdx|
 *   | int   | long          | int   | int   |
 *   +-------+---------------+-------+-------+
 * </pre>
 * keyHash = {@code abs("topic#key".hashCode())} (0 for {@code Integer.MIN_VALUE}); slot = keyHash % slotCount;
 * timeDiff = seconds from beginTimestamp to the record's store time; prevIdx chains entries of the same slot,
 * newest first, 0 ending the chain. "slots used" counts slots that are not empty; "index count" is the next entry
 * index, so a file holds at most {@code entryCapacity - 1} keys. endPhyOffset is the commit-log offset of the last
 * indexed record (its start, not one past it).
 *
 * <p>Thread-safety: stateless, all methods are pure.
 */
public final class IndexFileFormat {

    /** Header size in bytes. */
    public static final int HEADER_SIZE = 40;
    public static final int BEGIN_TIMESTAMP_OFFSET = 0;
    public static final int END_TIMESTAMP_OFFSET = 8;
    public static final int BEGIN_PHY_OFFSET_OFFSET = 16;
    public static final int END_PHY_OFFSET_OFFSET = 24;
    public static final int HASH_SLOT_COUNT_OFFSET = 32;
    public static final int INDEX_COUNT_OFFSET = 36;

    /** Bytes per hash slot. */
    public static final int SLOT_SIZE = 4;
    /** A slot (or a previous-entry link) holding this points nowhere. */
    public static final int NO_ENTRY = 0;

    /** Bytes per entry. */
    public static final int ENTRY_SIZE = 20;
    public static final int ENTRY_KEY_HASH_OFFSET = 0;
    public static final int ENTRY_PHY_OFFSET_OFFSET = 4;
    public static final int ENTRY_TIME_DIFF_OFFSET = 12;
    public static final int ENTRY_PREV_INDEX_OFFSET = 16;

    /** The index count of a new file: entry 0 is never written. */
    public static final int FIRST_ENTRY_INDEX = 1;

    /** Separates topic and key in the hashed key. */
    public static final String KEY_SEPARATOR = "#";

    /** File names: creation time, millisecond precision, local time zone (RocketMQ's timeMillisToHumanString). */
    public static final DateTimeFormatter FILE_NAME_FORMAT = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");
    /** Length of a file name. */
    public static final int FILE_NAME_LENGTH = 17;

    private IndexFileFormat() {
    }

    /** Bytes of a file with {@code slotCount} slots and {@code entryCapacity} entries. */
    public static long fileSize(int slotCount, int entryCapacity) {
        return HEADER_SIZE + (long) slotCount * SLOT_SIZE + (long) entryCapacity * ENTRY_SIZE;
    }

    /** Position of hash slot {@code slot}. */
    public static int slotPosition(int slot) {
        return HEADER_SIZE + slot * SLOT_SIZE;
    }

    /** Position of entry {@code index} in a file with {@code slotCount} slots. */
    public static int entryPosition(int slotCount, int index) {
        return HEADER_SIZE + slotCount * SLOT_SIZE + index * ENTRY_SIZE;
    }

    /** The string that is hashed: {@code topic#key}. */
    public static String indexKey(String topic, String key) {
        return topic + KEY_SEPARATOR + key;
    }

    /** Non-negative hash of an index key. */
    public static int keyHash(String indexKey) {
        int hash = Math.abs(indexKey.hashCode());
        return hash < 0 ? 0 : hash;
    }

    /** The slot a hash falls in. */
    public static int slotOf(int keyHash, int slotCount) {
        return keyHash % slotCount;
    }

    /** The file name for a file created at {@code epochMillis}. */
    public static String fileName(long epochMillis) {
        return FILE_NAME_FORMAT.format(LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneId.systemDefault()));
    }

    /** Epoch millis of a file name, or -1 when it is not one. */
    public static long fileNameMillis(String name) {
        if (name.length() != FILE_NAME_LENGTH || !name.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        try {
            return LocalDateTime.parse(name, FILE_NAME_FORMAT).atZone(ZoneId.systemDefault()).toInstant()
                    .toEpochMilli();
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
