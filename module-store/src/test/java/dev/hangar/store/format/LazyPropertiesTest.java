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
}
