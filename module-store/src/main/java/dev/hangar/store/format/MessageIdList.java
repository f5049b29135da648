package dev.hangar.store.format;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * The offset message ids of one append, computed when asked: a put whose caller never reads its msgId does not
 * pay for the hex string. Immutable.
 */
public final class MessageIdList extends AbstractList<String> implements RandomAccess {
    private final byte[] hostPrefix;
    private final long firstOffset;
    private final int[] relativeStarts;

    /**
     * @param relativeStarts start of each record relative to {@code firstOffset}, or null for a single record
     */
    public MessageIdList(byte[] hostPrefix, long firstOffset, int[] relativeStarts) {
        this.hostPrefix = hostPrefix;
        this.firstOffset = firstOffset;
        this.relativeStarts = relativeStarts;
    }

    @Override
    public String get(int index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException(index);
        }
        long offset = relativeStarts == null ? firstOffset : firstOffset + relativeStarts[index];
        return MessageIdCodec.create(hostPrefix, offset);
    }

    @Override
    public int size() {
        return relativeStarts == null ? 1 : relativeStarts.length;
    }
}
