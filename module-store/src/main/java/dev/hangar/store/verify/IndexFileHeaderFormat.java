package dev.hangar.store.verify;

/**
 * The layout of an index file as RocketMQ 4.x writes it ({@code IndexFile}, {@code IndexHeader}), read here by the
 * verifier only. The dispatch module owns the writing side ({@code dev.hangar.dispatch.index.IndexFileFormat}); the
 * engine may not require that module, so the offsets are repeated here (both are fixed by RocketMQ's format).
 *
 * <pre>
 *  header (40 B)
 *   0               8               16              24              32      36      40
 *   +---------------+---------------+---------------+---------------+-------+-------+
 *   | beginTimestamp| endTimestamp  | beginPhyOffset| endPhyOffset  | slots | index |
 *   | long          | long          | long          | long          | used  | count |
 *   +---------------+---------------+---------------+---------------+-------+-------+
 *  hash slots: maxHashSlotNum x int at 40
 *  entries:    maxIndexNum x 20 B at 40 + maxHashSlotNum * 4; entry 0 is never used (index count starts at 1)
 *   0       4               12      16      20
 *   +-------+---------------+-------+-------+
 *   |keyHash| phyOffset     |timeDif|prevIdx|
 *   +-------+---------------+-------+-------+
 * </pre>
 * Files are {@code index/<yyyyMMddHHmmssSSS>} (17 digits, creation time).
 *
 * <p>Thread-safety: constants and pure functions only.
 */
public final class IndexFileHeaderFormat {
    public static final int HEADER_SIZE = 40;
    public static final int BEGIN_TIMESTAMP_OFFSET = 0;
    public static final int END_TIMESTAMP_OFFSET = 8;
    public static final int BEGIN_PHY_OFFSET_OFFSET = 16;
    public static final int END_PHY_OFFSET_OFFSET = 24;
    public static final int HASH_SLOT_COUNT_OFFSET = 32;
    public static final int INDEX_COUNT_OFFSET = 36;

    public static final int SLOT_SIZE = 4;
    public static final int ENTRY_SIZE = 20;
    public static final int ENTRY_KEY_HASH_OFFSET = 0;
    public static final int ENTRY_PHY_OFFSET_OFFSET = 4;
    public static final int ENTRY_TIME_DIFF_OFFSET = 12;
    public static final int ENTRY_PREV_INDEX_OFFSET = 16;

    public static final int FILE_NAME_LENGTH = 17;

    private IndexFileHeaderFormat() {
    }

    /** Bytes of a file with {@code slots} hash slots and room for {@code entries} entries. */
    public static long fileSize(int slots, int entries) {
        return HEADER_SIZE + (long) slots * SLOT_SIZE + (long) entries * ENTRY_SIZE;
    }

    /** Position of entry {@code index} in a file with {@code slots} hash slots. */
    public static long entryPosition(int slots, int index) {
        return HEADER_SIZE + (long) slots * SLOT_SIZE + (long) index * ENTRY_SIZE;
    }
}
