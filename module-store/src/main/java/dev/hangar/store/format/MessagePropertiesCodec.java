package dev.hangar.store.format;

import dev.hangar.spi.message.MessageConst;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Encodes properties as RocketMQ 4.9 does: {@code name\u0001value}, joined by {@code \u0002} (no separator after
 * the last), UTF-8. Decoding also accepts a trailing separator.
 */
public final class MessagePropertiesCodec {
    private MessagePropertiesCodec() {
    }

    public static String toText(Map<String, String> properties) {
        if (properties.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(properties.size() * 24);
        for (Map.Entry<String, String> e : properties.entrySet()) {
            if (sb.length() > 0) {
                sb.append(MessageConst.PROPERTY_SEPARATOR);
            }
            sb.append(e.getKey()).append(MessageConst.NAME_VALUE_SEPARATOR).append(e.getValue());
        }
        return sb.toString();
    }

    public static byte[] encode(Map<String, String> properties) {
        return toText(properties).getBytes(StandardCharsets.UTF_8);
    }

    public static Map<String, String> decode(byte[] bytes, int offset, int length) {
        Map<String, String> map = new LinkedHashMap<>();
        if (length <= 0) {
            return map;
        }
        String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf(MessageConst.PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = text.length();
            }
            int sep = text.indexOf(MessageConst.NAME_VALUE_SEPARATOR, start);
            if (sep > start && sep < end) {
                map.put(text.substring(start, sep), text.substring(sep + 1, end));
            }
            start = end + 1;
        }
        return map;
    }
}
