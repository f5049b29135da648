package dev.hangar.store.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageStatus;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The encoder writes ASCII property and topic chars straight into its buffer's array and moves the position once
 * per string. What it writes must stay RocketMQ's properties string ({@code name\u0001value} joined by
 * {@code \u0002}) in UTF-8, wherever the string starts in the buffer: after a non-ASCII head, after the buffer grew
 * in the middle of a record, and in the second record of a batch.
 */
class PropertyEncodingTest {
    private static final InetSocketAddress STORE = new InetSocketAddress("127.0.0.1", 10911);
    private static final int MAX = 4 * 1024 * 1024;

    /**
     * The properties bytes of record {@code i}: the record's tail past its fixed part, body, topic and the
     * properties' 2-byte length, which must hold their length.
     */
    private static byte[] propertiesOf(MessageEncoder e, int i) {
        ByteBuffer all = bytes(e);
        int start = e.recordStart(i);
        int total = all.getInt(start);
        dev.hangar.spi.message.StoredMessage decoded = RecordDecoder.decode(all, start);
        int before = CommitLogRecordFormat.recordLength(e.sysFlag(i), decoded.body().length,
                decoded.topic().getBytes(StandardCharsets.UTF_8).length, 0);
        int propsLength = all.getShort(start + before - 2);
        assertEquals(total, before + propsLength, "the properties end the record");
        return Arrays.copyOfRange(all.array(), start + before, start + total);
    }

    private static byte[] expected(String... nameValues) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < nameValues.length; i += 2) {
            if (i > 0) {
                s.append('\u0002');
            }
            s.append(nameValues[i]).append('\u0001').append(nameValues[i + 1]);
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aValueWithAnAsciiHeadAndANonAsciiRestIsWrittenAsUtf8() {
        MessageEncoder e = new MessageEncoder(MAX);
        Message m = new Message("Orders", new byte[] {1, 2, 3}).tags("TagA").keys("order-42");
        m.property("note", "paid ✓ in 东京");
        m.property("ünï", "plain");
        assertEquals(PutMessageStatus.PUT_OK, e.encode(m, STORE));
        assertArrayEquals(expected("TAGS", "TagA", "KEYS", "order-42", "note", "paid ✓ in 东京", "ünï", "plain"),
                propertiesOf(e, 0));
        assertEquals("Orders", RecordDecoder.decode(bytes(e), 0).topic());
    }

    @Test
    void propertiesThatOutgrowTheBufferMidRecordAreWrittenWhole() {
        MessageEncoder e = new MessageEncoder(MAX);
        String big = "v".repeat(9_000); // the encoder starts with 4 KiB: the buffer grows inside putUtf8
        Message m = new Message("Orders", new byte[1024]).tags("TagA");
        m.property("big", big);
        m.property("after", "tail-ü");
        assertEquals(PutMessageStatus.PUT_OK, e.encode(m, STORE));
        assertArrayEquals(expected("TAGS", "TagA", "big", big, "after", "tail-ü"), propertiesOf(e, 0));
    }

    @Test
    void theSecondRecordOfABatchHasItsOwnTopicAndProperties() {
        MessageEncoder e = new MessageEncoder(MAX);
        Message first = new Message("BatchTopic", new byte[700]).keys("k-1");
        Message second = new Message("BatchTopic", new byte[300]).keys("k-2 k-3");
        second.property("x", "ÿ-tail");
        assertEquals(PutMessageStatus.PUT_OK, e.encodeBatch(List.of(first, second), STORE));
        assertEquals(2, e.recordCount());
        assertArrayEquals(expected("KEYS", "k-1"), propertiesOf(e, 0));
        assertArrayEquals(expected("KEYS", "k-2 k-3", "x", "ÿ-tail"), propertiesOf(e, 1));
        e.stamp(0, 0, 0, 1L);
        e.stamp(1, 1, 0, 1L);
        ByteBuffer b = bytes(e);
        assertEquals("BatchTopic", RecordDecoder.decode(b, e.recordStart(1)).topic());
        assertEquals("k-2 k-3", RecordDecoder.decode(b, e.recordStart(1)).properties().get("KEYS"));
    }

    private static ByteBuffer bytes(MessageEncoder e) {
        ByteBuffer b = ByteBuffer.allocate(e.encodedLength());
        e.copyTo(b);
        return b;
    }
}
