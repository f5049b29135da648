package dev.hangar.dispatch.consumequeue;

import static dev.hangar.spi.format.ConsumeQueueFormat.UNIT_SIZE;

import dev.hangar.spi.format.ConsumeQueueFormat;
import java.nio.ByteBuffer;

/**
 * Binary searches over the units of one ConsumeQueue file by commit-log offset. Blank units (a queue that does not
 * start at 0) sort first and real units ascend, so a binary search finds the first unit past an offset.
 *
 * <p>Thread-safety: stateless; the caller owns the buffer it passes.
 */
final class ConsumeQueueUnitSearch {
    private ConsumeQueueUnitSearch() {
    }

    /**
     * Index of the first real unit among {@code units} whose commit-log offset is at least {@code phyOffset};
     * {@code units} when none.
     */
    static int firstUnitAtOrPast(ByteBuffer buffer, int units, long phyOffset) {
        return firstUnitReaching(buffer, units, phyOffset, false);
    }

    /** Index of the first real unit among {@code units} whose record does not end by {@code phyOffset}. */
    static int firstUnitEndingPast(ByteBuffer buffer, int units, long phyOffset) {
        return firstUnitReaching(buffer, units, phyOffset, true);
    }

    /** Binary search for the first real unit whose start (or, with {@code byEnd}, end) lies past the offset. */
    private static int firstUnitReaching(ByteBuffer buffer, int units, long phyOffset, boolean byEnd) {
        int low = 0;
        int high = units;
        while (low < high) {
            int mid = (low + high) >>> 1;
            long offset = ConsumeQueueFormat.commitLogOffset(buffer, mid * UNIT_SIZE);
            int size = ConsumeQueueFormat.size(buffer, mid * UNIT_SIZE);
            boolean before = byEnd ? offset + size <= phyOffset : offset < phyOffset;
            if (ConsumeQueueFormat.isBlank(offset, size) || before) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
