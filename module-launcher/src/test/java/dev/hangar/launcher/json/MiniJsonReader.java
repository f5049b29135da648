package dev.hangar.launcher.json;

import java.util.Map;

/**
 * Tests' view of what the launcher prints: parsed by the launcher's own strict reader ({@link JsonReader}, RFC 8259,
 * itself tested against malformed input in {@code JsonReaderTest}), so a test that reads a field also proves the
 * output is JSON. Integral numbers are Long, others BigDecimal.
 */
public final class MiniJsonReader {
    private MiniJsonReader() {
    }

    public static Object parse(String text) {
        return JsonReader.parse(text);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(String text) {
        return (Map<String, Object>) JsonReader.parse(text);
    }
}
