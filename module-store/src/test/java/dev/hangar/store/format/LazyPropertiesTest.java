package dev.hangar.store.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LazyPropertiesTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void findsAValueWithoutDecodingTheRestAndTellsLookalikeNamesApart() {
        byte[] encoded = bytes("TAGSX\u0001no\u0002KEYS\u0001k1 k2\u0002TAGS\u0001ünï\u0002UNIQ_KEY\u0001U1");
        assertEquals("ünï", LazyProperties.find(encoded, bytes("TAGS")));
        assertEquals("k1 k2", LazyProperties.find(encoded, bytes("KEYS")));
        assertEquals("U1", LazyProperties.find(encoded, bytes("UNIQ_KEY")));
        assertNull(LazyProperties.find(encoded, bytes("DELAY")));
        assertNull(LazyProperties.find(new byte[0], bytes("TAGS")));
        assertEquals("v", LazyProperties.find(bytes("a\u0001v\u0002"), bytes("a")), "a trailing separator is fine");
    }

    @Test
    void theWholeMapIsDecodedOnDemandAndEqualsTheEagerDecode() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("KEYS", "a b");
        props.put("TAGS", "t");
        props.put("ünï", "✓");
        byte[] encoded = MessagePropertiesCodec.encode(props);
        LazyProperties lazy = new LazyProperties(encoded);
        assertEquals(props, lazy);
        assertEquals("✓", lazy.get("ünï"));
    }

    @Test
    void theTagsCodeFromBytesEqualsTheStringHashForAsciiAndNonAsciiTags() {
        for (String tag : new String[] {"TagA", "bench", "a", "ünï", "中文-tag", "x y z"}) {
            byte[] encoded = bytes("KEYS\u0001k\u0002TAGS\u0001" + tag + "\u0002UNIQ_KEY\u0001U");
            assertEquals(tag.hashCode(), LazyProperties.hashOf(encoded, bytes("TAGS")), tag);
            assertEquals(tag.hashCode(), LazyProperties.hashOf(bytes("TAGS\u0001" + tag), bytes("TAGS")), tag);
        }
        assertEquals(0, LazyProperties.hashOf(bytes("KEYS\u0001k"), bytes("TAGS")), "absent");
        assertEquals(0, LazyProperties.hashOf(bytes("TAGS\u0001\u0002KEYS\u0001k"), bytes("TAGS")), "empty");
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
