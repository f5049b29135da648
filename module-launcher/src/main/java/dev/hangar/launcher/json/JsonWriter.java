package dev.hangar.launcher.json;

import java.lang.reflect.Array;
import java.util.Map;

/**
 * Writes plain Java values as JSON text (RFC 8259): {@code null}, strings, booleans, numbers, enums (as their
 * name), maps (keys as strings, in iteration order), iterables and arrays. Anything else is written as its
 * {@code toString()} in quotes.
 *
 * <p>Strings escape {@code "}, {@code \} and every control character below U+0020, plus unpaired surrogates
 * (which have no UTF-8 form and would otherwise be replaced on output). Non-finite doubles have no JSON form
 * and are written as {@code null}. Output is one line: the launcher prints one JSON value per line.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonWriter {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonWriter() {
    }

    /** The JSON text of {@code value}. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder(128);
        append(out, value);
        return out.toString();
    }

    /** The JSON string literal of {@code text}, quotes included. */
    public static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2);
        appendString(out, text);
        return out.toString();
    }

    /** Appends the JSON text of {@code value} to {@code out}. */
    public static void append(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof CharSequence s) {
            appendString(out, s.toString());
        } else if (value instanceof Boolean b) {
            out.append(b.booleanValue());
        } else if (value instanceof Double || value instanceof Float) {
            appendFloating(out, ((Number) value).doubleValue());
        } else if (value instanceof Number n) {
            out.append(n);
        } else if (value instanceof Enum<?> e) {
            appendString(out, e.name());
        } else if (value instanceof Map<?, ?> map) {
            appendObject(out, map);
        } else if (value instanceof Iterable<?> items) {
            appendArray(out, items);
        } else if (value.getClass().isArray()) {
            appendArrayObject(out, value);
        } else {
            appendString(out, value.toString());
        }
    }

    private static void appendFloating(StringBuilder out, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            out.append("null");
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            // whole numbers without a trailing ".0" read better and parse the same
            out.append((long) d);
        } else {
            out.append(d);
        }
    }

    private static void appendObject(StringBuilder out, Map<?, ?> map) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            appendString(out, String.valueOf(e.getKey()));
            out.append(':');
            append(out, e.getValue());
        }
        out.append('}');
    }

    private static void appendArray(StringBuilder out, Iterable<?> items) {
        out.append('[');
        boolean first = true;
        for (Object item : items) {
            if (!first) {
                out.append(',');
            }
            first = false;
            append(out, item);
        }
        out.append(']');
    }

    private static void appendArrayObject(StringBuilder out, Object array) {
        out.append('[');
        int length = Array.getLength(array);
        for (int i = 0; i < length; i++) {
            if (i > 0) {
                out.append(',');
            }
            append(out, Array.get(array, i));
        }
        out.append(']');
    }

    private static void appendString(StringBuilder out, String s) {
        out.append('"');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        appendUnicodeEscape(out, c);
                    } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        appendUnicodeEscape(out, c);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void appendUnicodeEscape(StringBuilder out, char c) {
        out.append("\\u").append(HEX[(c >> 12) & 0xF]).append(HEX[(c >> 8) & 0xF])
                .append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
    }
}
