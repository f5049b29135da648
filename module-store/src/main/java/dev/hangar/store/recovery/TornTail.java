package dev.hangar.store.recovery;

import dev.hangar.store.format.CommitLogRecordFormat;
import java.nio.ByteBuffer;

/**
 * The bytes a crash left after the CommitLog's end: a record written in part, perhaps a few whole records after a
 * corrupt one. They are contiguous from the end (the log is written front to back), so they end at the first page
 * that is wholly zero, except inside one record whose body may hold zero pages: the record the end points at is
 * therefore zeroed up to its declared length when that length fits in the file.
 */
final class TornTail {
    /** The page size the scan steps by (the OS page, the unit a crash tears). */
    static final int PAGE = 4096;

    private TornTail() {
    }

    /**
     * Zeroes the torn bytes at the start of {@code buf}.
     *
     * @param buf          the file from the log end on (index 0 is the end)
     * @param size         bytes of {@code buf} up to the end of the file
     * @param offsetInPage where the end lies in its page, so the scan steps along page boundaries
     * @return the bytes zeroed (0 when the tail is already clean)
     */
    static long zero(ByteBuffer buf, int size, int offsetInPage) {
        int mustZero = 0;
        if (size >= Integer.BYTES) {
            int declared = buf.getInt(CommitLogRecordFormat.TOTAL_SIZE_OFFSET);
            if (declared > 0 && declared <= size) {
                mustZero = declared;
            }
        }
        int pos = 0;
        int zeroedUpTo = 0;
        while (pos < size) {
            int pageEnd = Math.min(size, pos == 0 ? PAGE - offsetInPage : pos + PAGE);
            boolean dirty = false;
            for (int i = pos; i < pageEnd; i++) {
                if (buf.get(i) != 0) {
                    dirty = true;
                    buf.put(i, (byte) 0);
                }
            }
            if (dirty || pageEnd <= mustZero) {
                zeroedUpTo = pageEnd;
            }
            if (!dirty && pageEnd >= mustZero) {
                break;
            }
            pos = pageEnd;
        }
        return zeroedUpTo;
    }
}
