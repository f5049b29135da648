package dev.hangar.spi.store;

import java.util.List;

/**
 * Computes the offset message id of the record at a commit-log offset (store host + port + offset, in hex). The
 * engine shares one per store, so an append result can name its ids without holding them: a put whose caller never
 * reads its msgId does not pay for the String. Thread-safe.
 */
@FunctionalInterface
public interface MessageIdSource {

    String idAt(long commitLogOffset);

    /**
     * The ids of an append, computed from its offsets each time an element is read. Immutable.
     *
     * @param firstOffset    commit-log offset of the first record
     * @param relativeStarts each record's start relative to {@code firstOffset} (not copied: must not change), or
     *                       null for a single record
     */
    default List<String> idsAt(long firstOffset, int[] relativeStarts) {
        return new ComputedMessageIds(this, firstOffset, relativeStarts);
    }
}
