package dev.hangar.dispatch.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.spi.format.IndexFileFormat;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The in-place hash must equal RocketMQ's abs("topic#key".hashCode()), or keys written by one are lost to the other. */
class IndexKeyHashTest {

    private static void assertSameHash(String topic, String keys, int from, int to) {
        String key = keys.substring(from, to);
        int expected = IndexFileFormat.keyHash(IndexFileFormat.indexKey(topic, key));
        assertEquals(expected, IndexKeyHash.of(IndexKeyHash.prefix(topic), keys, from, to), topic + "#" + key);
        // the same key read in place from the record's UTF-8 bytes
        int byteFrom = keys.substring(0, from).getBytes(StandardCharsets.UTF_8).length;
        int byteLength = key.getBytes(StandardCharsets.UTF_8).length;
        assertEquals(expected, IndexKeyHash.of(IndexKeyHash.prefix(topic),
                ByteBuffer.wrap(keys.getBytes(StandardCharsets.UTF_8)), byteFrom, byteLength), "bytes of " + key);
    }

    @Test
    void theInPlaceHashEqualsTheHashOfTheJoinedString() {
        assertSameHash("TopicTest", "order-1", 0, 7);
        assertSameHash("T", "a b", 2, 3);
        assertSameHash("Bestellungen", "schlüssel-ä 中文", 0, 11);
        assertSameHash("x", "", 0, 0);
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            StringBuilder topic = new StringBuilder();
            StringBuilder key = new StringBuilder();
            for (int n = 1 + random.nextInt(20); n > 0; n--) {
                topic.append((char) ('A' + random.nextInt(26)));
            }
            for (int n = random.nextInt(40); n > 0; n--) {
                key.append((char) (random.nextBoolean() ? 32 + random.nextInt(95) : random.nextInt(0xD7FF)));
            }
            String keys = "pre " + key + " post";
            assertSameHash(topic.toString(), keys, 4, 4 + key.length());
        }
    }
}
