package dev.hangar.raft;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Where each Raft entry's CommitLog range ends, for the entries this process knows: those it wrote or applied, and
 * the snapshot's. Entries without bytes (configuration) are not in it; they end where the entry before them does.
 * Entries in the Raft log from before this process started are unknown until applied: the one writer, Ratis' log
 * worker, notes the lowest index it wrote, from which on every entry with bytes is known.
 *
 * <p>Thread-safety: a concurrent map and a volatile index; written by Ratis' log worker and state-machine updater, read
 * by any thread.
 */
final class EntryEnds {
    private final ConcurrentSkipListMap<Long, Long> endByIndex = new ConcurrentSkipListMap<>();
    private volatile long firstWrittenIndex = Long.MAX_VALUE;

    /** Entry {@code index}, written in this process, ends at {@code end}. */
    void written(long index, long end) {
        endByIndex.put(index, end);
        if (index < firstWrittenIndex) {
            firstWrittenIndex = index;
        }
    }

    /** Entry {@code index} (applied, or a snapshot's) ends at {@code end}. */
    void known(long index, long end) {
        endByIndex.put(index, end);
    }

    /** The end of the range of the entry at or below {@code index}, or -1 when unknown. */
    long atOrBefore(long index) {
        Map.Entry<Long, Long> e = endByIndex.floorEntry(index);
        return e == null ? -1 : e.getValue();
    }

    /**
     * Where the ranges of the entries before {@code index} end, or -1 when this process cannot know: exact when the
     * entry right before is known, or when every entry from the last known one to {@code index} was made in this
     * process (configuration entries between carry no bytes). Otherwise an entry from before the start lies between,
     * and the last known end is below its end.
     */
    long exactlyBefore(long index) {
        Map.Entry<Long, Long> before = endByIndex.floorEntry(index - 1);
        if (before == null) {
            return -1;
        }
        return before.getKey() == index - 1 || before.getKey() >= firstWrittenIndex ? before.getValue() : -1;
    }

    /** Entries from {@code index} on are gone from the Raft log. */
    void removeFrom(long index) {
        endByIndex.tailMap(index, true).clear();
    }

    /** Entries below {@code index} are no longer asked about (a snapshot covers them). */
    void forgetBelow(long index) {
        endByIndex.headMap(index, false).clear();
    }
}
