package dev.hangar.store.format;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Decodes topic names from records without a new String per record: the reput loop reads a topic for every
 * message, and a store has few topics, so a small direct-mapped cache keyed by the bytes' hash returns the String
 * decoded last time when the bytes (compared in place, ASCII only) are the same.
 *
 * <p>Thread-safe: entries are immutable and replaced whole; a race only costs a decode.
 */
final class TopicNames {
    private static final int SLOTS = 4096;
    private static final String[] CACHE = new String[SLOTS];

    private TopicNames() {
    }

    /** The topic of {@code length} UTF-8 bytes at {@code pos}. */
    static String decode(ByteBuffer buf, int pos, int length) {
        int hash = 0;
        for (int i = 0; i < length; i++) {
            byte b = buf.get(pos + i);
            if (b < 0) {
                return slowDecode(buf, pos, length);
            }
            hash = 31 * hash + b;
        }
        // an all-ASCII name: its String hash is the hash just computed
        int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
        String cached = CACHE[slot];
        if (cached != null && sameAscii(cached, buf, pos, length)) {
            return cached;
        }
        String decoded = slowDecode(buf, pos, length);
        CACHE[slot] = decoded;
        return decoded;
    }

    private static boolean sameAscii(String name, ByteBuffer buf, int pos, int length) {
        if (name.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (name.charAt(i) != buf.get(pos + i)) {
                return false;
            }
        }
        return true;
    }

    private static String slowDecode(ByteBuffer buf, int pos, int length) {
        byte[] bytes = new byte[length];
        buf.get(pos, bytes, 0, length);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
