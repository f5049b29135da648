package dev.hangar.store.format;

import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * The properties of a dispatched record, decoded only if someone asks for the whole map. The built-in
 * dispatchers need three values (tags, keys, unique key), which {@link #find} pulls straight out of the encoded
 * bytes; building a map of every property for each record was the largest cost of dispatch.
 * Not thread-safe: a dispatch request is used on the reput thread.
 */
final class LazyProperties extends AbstractMap<String, String> {
    private final byte[] encoded;
    private Map<String, String> decoded;

    LazyProperties(byte[] encoded) {
        this.encoded = encoded;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return decoded().entrySet();
    }

    @Override
    public String get(Object key) {
        return decoded().get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return decoded().containsKey(key);
    }

    private Map<String, String> decoded() {
        if (decoded == null) {
            decoded = MessagePropertiesCodec.decode(encoded, 0, encoded.length);
        }
        return decoded;
    }

    static final byte NAME_VALUE_SEPARATOR = 0x01;
    static final byte PROPERTY_SEPARATOR = 0x02;

    /**
     * {@code String.hashCode()} of property {@code name}'s value, 0 when absent or empty (the tags code), computed
     * from the bytes when they are ASCII (where a char is its byte), so no String is built.
     */
    static int hashOf(byte[] encoded, byte[] name) {
        int start = 0;
        int n = encoded.length;
        while (start < n) {
            int end = start;
            while (end < n && encoded[end] != PROPERTY_SEPARATOR) {
                end++;
            }
            int sep = start;
            while (sep < end && encoded[sep] != NAME_VALUE_SEPARATOR) {
                sep++;
            }
            if (sep < end && nameIs(encoded, start, sep, name)) {
                return stringHash(encoded, sep + 1, end);
            }
            start = end + 1;
        }
        return 0;
    }

    /** True when bytes {@code [from, to)} are {@code name}. */
    static boolean nameIs(byte[] encoded, int from, int to, byte[] name) {
        return to - from == name.length && regionMatches(encoded, from, name);
    }

    /** {@code String.hashCode()} of the UTF-8 value in {@code [from, to)}; from the bytes when they are ASCII. */
    static int stringHash(byte[] encoded, int from, int to) {
        int hash = 0;
        for (int i = from; i < to; i++) {
            if (encoded[i] < 0) {
                return new String(encoded, from, to - from, StandardCharsets.UTF_8).hashCode();
            }
            hash = 31 * hash + encoded[i];
        }
        return hash;
    }

    /** The value of property {@code name} (ASCII) in encoded properties, or null; no map is built. */
    static String find(byte[] encoded, byte[] name) {
        int start = 0;
        int n = encoded.length;
        while (start < n) {
            int end = start;
            while (end < n && encoded[end] != 0x02) {
                end++;
            }
            int sep = start;
            while (sep < end && encoded[sep] != 0x01) {
                sep++;
            }
            if (sep < end && sep - start == name.length && regionMatches(encoded, start, name)) {
                return new String(encoded, sep + 1, end - sep - 1, StandardCharsets.UTF_8);
            }
            start = end + 1;
        }
        return null;
    }

    private static boolean regionMatches(byte[] bytes, int from, byte[] name) {
        for (int i = 0; i < name.length; i++) {
            if (bytes[from + i] != name[i]) {
                return false;
            }
        }
        return true;
    }
}
