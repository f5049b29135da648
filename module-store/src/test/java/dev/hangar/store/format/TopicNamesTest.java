package dev.hangar.store.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Topic names read eight bytes at a time: every length, every position, names that share a cache slot. */
class TopicNamesTest {

    @Test
    void everyLengthDecodesExactlyAtAnyPositionAndIsCached() {
        StringBuilder name = new StringBuilder();
        for (int length = 0; length <= 127; length++) {
            String expected = name.toString();
            for (int pos = 0; pos < 9; pos++) {
                ByteBuffer direct = placed(expected, pos, ByteOrder.BIG_ENDIAN);
                String decoded = TopicNames.decode(direct, pos, length);
                assertEquals(expected, decoded, "length " + length + " at " + pos);
                assertSame(decoded, TopicNames.decode(direct, pos, length), "cached: length " + length);
            }
            name.append((char) ('a' + length % 26));
        }
    }

    @Test
    void namesThatDifferOnlyInAMiddleWordAreToldApart() {
        // same length, same first and last whole word, same tail: the same slot, told apart by the middle word
        String a = "AAAAAAAA" + "BBBBBBBB" + "CCCCCCCC" + "xyz";
        String b = "AAAAAAAA" + "QQQQQQQQ" + "CCCCCCCC" + "xyz";
        for (int round = 0; round < 3; round++) {
            assertEquals(a, TopicNames.decode(placed(a, 3, ByteOrder.BIG_ENDIAN), 3, a.length()));
            assertEquals(b, TopicNames.decode(placed(b, 3, ByteOrder.BIG_ENDIAN), 3, b.length()));
        }
        // and names that differ only in the tail, or only in the length (a zero byte is not the end of a name)
        assertEquals("TopicAB", TopicNames.decode(placed("TopicAB", 0, ByteOrder.BIG_ENDIAN), 0, 7));
        assertEquals("TopicAC", TopicNames.decode(placed("TopicAC", 0, ByteOrder.BIG_ENDIAN), 0, 7));
        assertEquals("Topic\0", TopicNames.decode(placed("Topic\0", 0, ByteOrder.BIG_ENDIAN), 0, 6));
        assertEquals("Topic", TopicNames.decode(placed("Topic\0", 0, ByteOrder.BIG_ENDIAN), 0, 5));
    }

    @Test
    void bufferByteOrderAndNonAsciiNamesDecodeTheSame() {
        String name = "Thémen-中文-topic";
        int length = name.getBytes(StandardCharsets.UTF_8).length;
        assertEquals(name, TopicNames.decode(placed(name, 5, ByteOrder.BIG_ENDIAN), 5, length));
        assertEquals(name, TopicNames.decode(placed(name, 5, ByteOrder.LITTLE_ENDIAN), 5, length));
        assertEquals(name, TopicNames.decode(placed(name, 5, ByteOrder.BIG_ENDIAN), 5, length));
    }

    /** A direct buffer with {@code name}'s UTF-8 bytes at {@code pos}, other bytes set (not zero). */
    private static ByteBuffer placed(String name, int pos, ByteOrder order) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer buf = ByteBuffer.allocateDirect(pos + bytes.length + 16).order(order);
        for (int i = 0; i < buf.capacity(); i++) {
            buf.put(i, (byte) '#');
        }
        buf.put(pos, bytes);
        return buf;
    }
}
