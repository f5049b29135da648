package dev.hangar.store.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PropertyBytesTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The value of {@code name} in encoded properties placed at an offset of a larger buffer. */
    private static String find(byte[] encoded, String name) {
        ByteBuffer buf = ByteBuffer.allocate(encoded.length + 10);
        buf.put(5, encoded);
        return PropertyBytes.find(buf, 5, 5 + encoded.length, bytes(name));
    }

    private static int hashOf(byte[] encoded, String name) {
        return PropertyBytes.hashOf(ByteBuffer.wrap(encoded), 0, encoded.length, bytes(name));
    }

    @Test
    void findsAValueWithoutDecodingTheRestAndTellsLookalikeNamesApart() {
        byte[] encoded = bytes("TAGSX\u0001no\u0002KEYS\u0001k1 k2\u0002TAGS\u0001ünï\u0002UNIQ_KEY\u0001U1");
        assertEquals("ünï", find(encoded, "TAGS"));
        assertEquals("k1 k2", find(encoded, "KEYS"));
        assertEquals("U1", find(encoded, "UNIQ_KEY"));
        assertNull(find(encoded, "DELAY"));
        assertNull(find(new byte[0], "TAGS"));
        assertEquals("v", find(bytes("a\u0001v\u0002"), "a"), "a trailing separator is fine");
    }

    @Test
    void theWholeMapIsDecodedOnDemandAndEqualsTheEagerDecode() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("KEYS", "a b");
        props.put("TAGS", "t");
        props.put("ünï", "✓");
        byte[] encoded = MessagePropertiesCodec.encode(props);
        ByteBuffer buf = ByteBuffer.allocate(encoded.length + 3);
        buf.put(3, encoded);
        Map<String, String> decoded = PropertyBytes.decode(buf, 3, encoded.length);
        assertEquals(props, decoded);
        assertEquals("✓", decoded.get("ünï"));
    }

    @Test
    void theTagsCodeFromBytesEqualsTheStringHashForAsciiAndNonAsciiTags() {
        for (String tag : new String[] {"TagA", "bench", "a", "ünï", "中文-tag", "x y z"}) {
            byte[] encoded = bytes("KEYS\u0001k\u0002TAGS\u0001" + tag + "\u0002UNIQ_KEY\u0001U");
            assertEquals(tag.hashCode(), hashOf(encoded, "TAGS"), tag);
            assertEquals(tag.hashCode(), hashOf(bytes("TAGS\u0001" + tag), "TAGS"), tag);
        }
        assertEquals(0, hashOf(bytes("KEYS\u0001k"), "TAGS"), "absent");
        assertEquals(0, hashOf(bytes("TAGS\u0001\u0002KEYS\u0001k"), "TAGS"), "empty");
    }

    @Test
    void topicNamesAreDecodedOnceAndTellApartNamesThatShareASlot() {
        java.nio.ByteBuffer a = java.nio.ByteBuffer.wrap(bytes("..TopicA.."));
        String first = TopicNames.decode(a, 2, 6);
        assertEquals("TopicA", first);
        assertEquals(true, first == TopicNames.decode(a, 2, 6), "the cached String is returned");
        // "Aa" and "BB" have the same String hash: the cache must compare the bytes
        assertEquals("Aa", TopicNames.decode(java.nio.ByteBuffer.wrap(bytes("Aa")), 0, 2));
        assertEquals("BB", TopicNames.decode(java.nio.ByteBuffer.wrap(bytes("BB")), 0, 2));
        assertEquals("Aa", TopicNames.decode(java.nio.ByteBuffer.wrap(bytes("Aa")), 0, 2));
        assertEquals("Thémen", TopicNames.decode(java.nio.ByteBuffer.wrap(bytes("Thémen")), 0, 7));
    }
}
