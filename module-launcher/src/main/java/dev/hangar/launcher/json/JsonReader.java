package dev.hangar.launcher.json;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, strict JSON reader (RFC 8259) for request bodies: one value per text, nothing after it but white
 * space. Objects become {@link LinkedHashMap}s in text order (a name given twice is an error, not "last wins"),
 * arrays {@link List}s, integral numbers {@link Long} (out of range: an error), other numbers {@link BigDecimal},
 * strings {@link String} (every escape checked, a raw control character refused), and {@code true},
 * {@code false}, {@code null}. Nesting deeper than {@link #MAX_DEPTH} is refused, so a hostile body cannot
 * exhaust the stack.
 *
 * <p>Errors are {@link JsonException}s naming the 1-based column. Stateless entry points; thread-safe.
 */
public final class JsonReader {
    /** The deepest nesting of objects and arrays accepted. */
    public static final int MAX_DEPTH = 32;

    /** Malformed JSON, with the column where it was found. */
    public static final class JsonException extends IllegalArgumentException {
        JsonException(String message) {
            super(message);
        }
    }

    private final String text;
    private int pos;
    private int depth;

    private JsonReader(String text) {
        this.text = text;
    }

    /** Parses one JSON value filling the whole text (white space around it allowed). */
    public static Object parse(String text) {
        JsonReader reader = new JsonReader(text);
        reader.skipWhitespace();
        Object value = reader.value();
        reader.skipWhitespace();
        if (reader.pos != text.length()) {
            throw reader.error("unexpected '" + text.charAt(reader.pos) + "' after the value");
        }
        return value;
    }

    private Object value() {
        if (pos >= text.length()) {
            throw error("the text ended where a value was expected");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("unexpected '" + c + "' where a value was expected");
            }
        };
    }

    private Map<String, Object> object() {
        enter();
        pos++;
        Map<String, Object> map = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            depth--;
            return map;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a quoted name");
            }
            int at = pos;
            String name = string();
            skipWhitespace();
            expect(':');
            skipWhitespace();
            Object v = value();
            if (map.containsKey(name)) {
                pos = at;
                throw error("the name \"" + name + "\" is given twice");
            }
            map.put(name, v);
            skipWhitespace();
            char c = next();
            if (c == '}') {
                depth--;
                return map;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() {
        enter();
        pos++;
        List<Object> list = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            depth--;
            return list;
        }
        while (true) {
            skipWhitespace();
            list.add(value());
            skipWhitespace();
            char c = next();
            if (c == ']') {
                depth--;
                return list;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or ']'");
            }
        }
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH + " levels");
        }
    }

    private String string() {
        pos++;
        // fast path: a string without escapes (message bodies of NDJSON batches) is one substring
        int plain = pos;
        while (plain < text.length()) {
            char c = text.charAt(plain);
            if (c == '"') {
                String s = text.substring(pos, plain);
                pos = plain + 1;
                return s;
            }
            if (c == '\\' || c < 0x20) {
                break;
            }
            plain++;
        }
        StringBuilder out = new StringBuilder(plain - pos + 16).append(text, pos, plain);
        pos = plain;
        while (true) {
            if (pos >= text.length()) {
                throw error("the text ended inside a string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                pos--;
                throw error("a raw control character (U+" + String.format("%04X", (int) c) + ") inside a string; "
                        + "escape it");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> out.append(hex4());
                default -> {
                    pos--;
                    throw error("unknown escape \\" + e);
                }
            }
        }
    }

    private char hex4() {
        if (pos + 4 > text.length()) {
            throw error("a \\u escape needs four hex digits");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(text.charAt(pos + i), 16);
            if (d < 0) {
                throw error("a \\u escape needs four hex digits");
            }
            v = v * 16 + d;
        }
        pos += 4;
        return (char) v;
    }

    private Object number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else if (isDigit(peek())) {
            digits();
        } else {
            throw error("a number needs digits");
        }
        boolean integral = true;
        if (peek() == '.') {
            integral = false;
            pos++;
            if (!isDigit(peek())) {
                throw error("a fraction needs digits");
            }
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!isDigit(peek())) {
                throw error("an exponent needs digits");
            }
            digits();
        }
        String literal = text.substring(start, pos);
        if (!integral) {
            return new BigDecimal(literal);
        }
        try {
            return Long.parseLong(literal);
        } catch (NumberFormatException e) {
            pos = start;
            throw error("the number " + literal + " is out of range");
        }
    }

    private void digits() {
        while (isDigit(peek())) {
            pos++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected '" + text.charAt(pos) + "' where a value was expected");
        }
        pos += word.length();
        return value;
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    /** The next character, or U+0000 at the end (never valid where it is looked at). */
    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private char next() {
        if (pos >= text.length()) {
            throw error("the text ended early");
        }
        return text.charAt(pos++);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private JsonException error(String what) {
        return new JsonException(what + " at column " + (pos + 1));
    }
}
