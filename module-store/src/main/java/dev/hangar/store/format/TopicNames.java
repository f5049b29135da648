package dev.hangar.store.format;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Decodes topic names from records without a new String per record: the reput loop reads a topic for every
 * message, and a store has few topics, so a small direct-mapped cache returns the String decoded last time when
 * the bytes are the same.
 *
 * <p>The bytes are read eight at a time ({@link ByteBuffer#getLong}): a name of up to 15 bytes costs two or three
 * reads to look up, where a byte-by-byte hash and comparison cost one bounds-checked read per byte each (section
 * "The reput thread with one writer" of docs/PERFORMANCE.md). The slot comes from the length, the first and last
 * whole words and the tail; a hit compares every word. Any bytes are cached, UTF-8 or not: equal bytes decode to
 * equal Strings.
 *
 * <p>Thread-safe: entries are immutable and replaced whole; a race only costs a decode.
 */
final class TopicNames {
    private static final int SLOTS = 4096;
    private static final Entry[] CACHE = new Entry[SLOTS];

    private TopicNames() {
    }

    /**
     * A decoded name and its bytes as read: the whole eight-byte words in the reading buffer's byte order, then
     * the last {@code length % 8} bytes packed into {@code tail}.
     */
    private record Entry(String name, int length, long[] words, long tail) {
        boolean sameBytes(ByteBuffer buf, int pos, int length, long tail) {
            if (length != this.length || tail != this.tail) {
                return false;
            }
            long[] w = words;
            for (int i = 0; i < w.length; i++) {
                if (w[i] != buf.getLong(pos + (i << 3))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The topic of {@code length} UTF-8 bytes at {@code pos}. */
    static String decode(ByteBuffer buf, int pos, int length) {
        int wholeWords = length >>> 3;
        long tail = tail(buf, pos + (wholeWords << 3), length & 7);
        long first = wholeWords > 0 ? buf.getLong(pos) : 0;
        long last = wholeWords > 1 ? buf.getLong(pos + ((wholeWords - 1) << 3)) : 0;
        long h = ((first * 31 + last) * 31 + tail) * 31 + length;
        int slot = (int) (h ^ (h >>> 32) ^ (h >>> 16)) & (SLOTS - 1);
        Entry cached = CACHE[slot];
        if (cached != null && cached.sameBytes(buf, pos, length, tail)) {
            return cached.name;
        }
        long[] words = new long[wholeWords];
        for (int i = 0; i < wholeWords; i++) {
            words[i] = buf.getLong(pos + (i << 3));
        }
        byte[] bytes = new byte[length];
        buf.get(pos, bytes, 0, length);
        Entry decoded = new Entry(new String(bytes, StandardCharsets.UTF_8), length, words, tail);
        CACHE[slot] = decoded;
        return decoded.name;
    }

    /** The {@code count} (< 8) bytes at {@code pos} packed into a long, in at most three reads. */
    private static long tail(ByteBuffer buf, int pos, int count) {
        long t = 0;
        int at = pos;
        if ((count & 4) != 0) {
            t = buf.getInt(at) & 0xFFFF_FFFFL;
            at += 4;
        }
        if ((count & 2) != 0) {
            t = (t << 16) | (buf.getShort(at) & 0xFFFF);
            at += 2;
        }
        if ((count & 1) != 0) {
            t = (t << 8) | (buf.get(at) & 0xFF);
        }
        return t;
    }
}
