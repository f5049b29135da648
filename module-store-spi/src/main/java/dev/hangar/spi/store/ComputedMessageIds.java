package dev.hangar.spi.store;

import java.util.AbstractList;
import java.util.Objects;
import java.util.RandomAccess;

/** The ids of an append computed from its offsets when read. Immutable. */
final class ComputedMessageIds extends AbstractList<String> implements RandomAccess {
    private final MessageIdSource source;
    private final long firstOffset;
    private final int[] relativeStarts;

    ComputedMessageIds(MessageIdSource source, long firstOffset, int[] relativeStarts) {
        this.source = source;
        this.firstOffset = firstOffset;
        this.relativeStarts = relativeStarts;
    }

    @Override
    public String get(int index) {
        Objects.checkIndex(index, size());
        return source.idAt(relativeStarts == null ? firstOffset : firstOffset + relativeStarts[index]);
    }

    @Override
    public int size() {
        return relativeStarts == null ? 1 : relativeStarts.length;
    }
}
