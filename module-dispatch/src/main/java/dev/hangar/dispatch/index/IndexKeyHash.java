package dev.hangar.dispatch.index;

import dev.hangar.spi.format.IndexFileFormat;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The hash of an index key {@code topic#key} (see {@link IndexFileFormat#keyHash}) computed without building the
 * string: {@link String#hashCode()} is {@code h = 31 * h + c} over the characters, so the hash of
 * {@code topic + "#" + key} continues the topic's (cached) hash over {@code '#'} and then the key's characters,
 * which are read in place from the record's bytes (an ASCII byte is its char; a key with other bytes is decoded
 * first, the rare case). Stateless.
 */
final class IndexKeyHash {
    private IndexKeyHash() {
    }

    /** The running hash of {@code topic#}, to continue with a key. */
    static int prefix(String topic) {
        int h = topic.hashCode();
        for (int i = 0; i < IndexFileFormat.KEY_SEPARATOR.length(); i++) {
            h = 31 * h + IndexFileFormat.KEY_SEPARATOR.charAt(i);
        }
        return h;
    }

    /** The index-key hash of {@code keys[from, to)} after {@code prefix}; equals keyHash(indexKey(topic, key)). */
    static int of(int prefix, String keys, int from, int to) {
        int h = prefix;
        for (int i = from; i < to; i++) {
            h = 31 * h + keys.charAt(i);
        }
        int hash = Math.abs(h);
        return hash < 0 ? 0 : hash;
    }

    /**
     * The index-key hash of the UTF-8 key {@code bytes[from, from + length)} after {@code prefix}, read in place when
     * ASCII; equals keyHash(indexKey(topic, key)).
     */
    static int of(int prefix, ByteBuffer bytes, int from, int length) {
        int h = prefix;
        for (int i = from, to = from + length; i < to; i++) {
            byte b = bytes.get(i);
            if (b < 0) {
                byte[] utf8 = new byte[length];
                bytes.get(from, utf8, 0, length);
                String key = new String(utf8, StandardCharsets.UTF_8);
                return of(prefix, key, 0, key.length());
            }
            h = 31 * h + b;
        }
        int hash = Math.abs(h);
        return hash < 0 ? 0 : hash;
    }
}
