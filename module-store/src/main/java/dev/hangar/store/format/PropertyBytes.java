package dev.hangar.store.format;

import dev.hangar.spi.message.MessageConst;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Reads the encoded properties of a record ({@code name\u0001value}, joined by {@code \u0002}, see
 * {@link MessagePropertiesCodec}) in place, with absolute gets on the record's buffer: dispatch needs only the tags,
 * keys and unique key of each record, and building a map or Strings of every property per record was the largest
 * cost of dispatch. Stateless.
 */
final class PropertyBytes {
    static final byte NAME_VALUE_SEPARATOR = (byte) MessageConst.NAME_VALUE_SEPARATOR;
    static final byte PROPERTY_SEPARATOR = (byte) MessageConst.PROPERTY_SEPARATOR;

    private PropertyBytes() {
    }

    /** True when bytes {@code [from, to)} are {@code name}. */
    static boolean nameIs(ByteBuffer buf, int from, int to, byte[] name) {
        if (to - from != name.length) {
            return false;
        }
        for (int i = 0; i < name.length; i++) {
            if (buf.get(from + i) != name[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code String.hashCode()} of the UTF-8 value in {@code [from, to)}, computed from the bytes when they are ASCII
     * (where a char is its byte), so no String is built; otherwise from the decoded String.
     */
    static int stringHash(ByteBuffer buf, int from, int to) {
        int hash = 0;
        for (int i = from; i < to; i++) {
            byte b = buf.get(i);
            if (b < 0) {
                return string(buf, from, to - from).hashCode();
            }
            hash = 31 * hash + b;
        }
        return hash;
    }

    /** Index of the end of the property starting at {@code start}: its separator, or {@code to}. */
    static int propertyEnd(ByteBuffer buf, int start, int to) {
        int end = start;
        while (end < to && buf.get(end) != PROPERTY_SEPARATOR) {
            end++;
        }
        return end;
    }

    /** Index of the name/value separator in {@code [start, end)}, or {@code end} when there is none. */
    static int nameEnd(ByteBuffer buf, int start, int end) {
        int sep = start;
        while (sep < end && buf.get(sep) != NAME_VALUE_SEPARATOR) {
            sep++;
        }
        return sep;
    }

    /**
     * The value of property {@code name} (ASCII) in the properties at {@code [from, to)}, or null; the last one when
     * the name repeats, as the decoded map would hold it.
     */
    static String find(ByteBuffer buf, int from, int to, byte[] name) {
        int valueFrom = -1;
        int valueTo = -1;
        for (int start = from; start < to; ) {
            int end = propertyEnd(buf, start, to);
            int sep = nameEnd(buf, start, end);
            if (sep < end && nameIs(buf, start, sep, name)) {
                valueFrom = sep + 1;
                valueTo = end;
            }
            start = end + 1;
        }
        return valueFrom < 0 ? null : string(buf, valueFrom, valueTo - valueFrom);
    }

    /** {@code String.hashCode()} of property {@code name}'s value, 0 when absent or empty (the tags code). */
    static int hashOf(ByteBuffer buf, int from, int to, byte[] name) {
        int hash = 0;
        for (int start = from; start < to; ) {
            int end = propertyEnd(buf, start, to);
            int sep = nameEnd(buf, start, end);
            if (sep < end && nameIs(buf, start, sep, name)) {
                hash = stringHash(buf, sep + 1, end);
            }
            start = end + 1;
        }
        return hash;
    }

    /** Every property, decoded (a new map). */
    static Map<String, String> decode(ByteBuffer buf, int from, int length) {
        return MessagePropertiesCodec.decode(bytes(buf, from, length), 0, length);
    }

    /** The UTF-8 string of {@code length} bytes at {@code from} (a new String). */
    static String string(ByteBuffer buf, int from, int length) {
        return new String(bytes(buf, from, length), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer buf, int from, int length) {
        byte[] out = new byte[length];
        buf.get(from, out, 0, length);
        return out;
    }
}
