package dev.hangar.store.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Zeroing after the log end touches the torn bytes and stops at the first clean page. */
class TornTailTest {
    private static final int FILE_TAIL = 1 << 20;

    /** Stands for the rest of a large file: zeroing must never reach it, so a marker there must survive. */
    private static ByteBuffer tailWithFarMarker() {
        ByteBuffer buf = ByteBuffer.allocate(FILE_TAIL);
        buf.put(FILE_TAIL - 1, (byte) 7);
        return buf;
    }

    private static void fill(ByteBuffer buf, int from, int to) {
        for (int i = from; i < to; i++) {
            buf.put(i, (byte) 0x5a);
        }
    }

    private static boolean zeroBetween(ByteBuffer buf, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aTornRecordIsZeroedAndTheScanStopsAtTheFirstCleanPage() {
        ByteBuffer buf = tailWithFarMarker();
        buf.putInt(0, 1000);
        fill(buf, 4, 600);
        long zeroed = TornTail.zero(buf, FILE_TAIL, 0);
        assertEquals(TornTail.PAGE, zeroed, "one page held the torn bytes");
        assertEquals(true, zeroBetween(buf, 0, TornTail.PAGE));
        assertEquals(7, buf.get(FILE_TAIL - 1), "the rest of the file was not walked");
    }

    @Test
    void aTornRecordWithAZeroPageInItsBodyIsZeroedToItsDeclaredLength() {
        ByteBuffer buf = tailWithFarMarker();
        int length = 5 * TornTail.PAGE;
        buf.putInt(0, length);
        fill(buf, 4, 100);
        fill(buf, 3 * TornTail.PAGE, 3 * TornTail.PAGE + 50);
        TornTail.zero(buf, FILE_TAIL, 0);
        assertEquals(true, zeroBetween(buf, 0, FILE_TAIL - 1));
        assertEquals(7, buf.get(FILE_TAIL - 1));
    }

    @Test
    void anEndInsideAPageStepsAlongPageBoundaries() {
        ByteBuffer buf = tailWithFarMarker();
        // the end is 100 bytes before a page boundary; garbage runs 200 bytes into the next page
        buf.putInt(0, 0xdeadbeef);
        fill(buf, 4, 300);
        long zeroed = TornTail.zero(buf, FILE_TAIL, TornTail.PAGE - 100);
        assertEquals(100 + TornTail.PAGE, zeroed);
        assertEquals(true, zeroBetween(buf, 0, 300));
        assertEquals(7, buf.get(FILE_TAIL - 1));
    }

    @Test
    void aCleanTailChangesNothing() {
        ByteBuffer buf = tailWithFarMarker();
        assertEquals(0, TornTail.zero(buf, FILE_TAIL, 0));
    }
}
