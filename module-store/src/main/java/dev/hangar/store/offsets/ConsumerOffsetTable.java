package dev.hangar.store.offsets;

import dev.hangar.spi.store.CommittedOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * The committed offsets in memory. Every change carries the CommitLog position of its record, and a queue's offset
 * only takes a change from a later position: so changes may arrive twice and out of order (the committing thread
 * applies its own commit once acknowledged, the dispatch thread applies every record in log order, the replay at
 * start applies again what the snapshot already holds) and the table still ends where the log says.
 *
 * <p>A group deletion is kept as the position it happened at: commits of that group from earlier positions are
 * ignored when they come again. The {@link #floor()} is the position the loaded snapshot covers: nothing below it is
 * applied again (the snapshot holds its effect, and a deleted group's tombstone is not in the snapshot).
 *
 * <p>Thread-safe: every method holds this table's monitor; commits are rare next to messages.
 */
public final class ConsumerOffsetTable {
    /** One group's offset for one queue. */
    public record Key(String group, String topic, int queueId) {
    }

    private static final Comparator<Key> ORDER = Comparator.comparing(Key::group).thenComparing(Key::topic)
            .thenComparingInt(Key::queueId);

    private final Map<Key, long[]> offsets = new HashMap<>();
    private final Map<String, Long> deletedAt = new HashMap<>();
    /** Topic deletions by position, as {@link #deletedAt} for groups. */
    private final Map<String, Long> topicDeletedAt = new HashMap<>();
    private long floor;
    private long version;

    /** Replaces the content with a snapshot that covers every record below {@code coveredPosition}. */
    public synchronized void load(Map<Key, Long> snapshot, long coveredPosition) {
        offsets.clear();
        deletedAt.clear();
        topicDeletedAt.clear();
        floor = coveredPosition;
        // a loaded offset stands for the records below the covered position: the record at it is newer
        snapshot.forEach((k, v) -> offsets.put(k, new long[] {v, coveredPosition - 1}));
        version++;
    }

    /** Applies a change unless a later one of the same queue (or group deletion) is already in. */
    public synchronized void apply(OffsetRecordFormat.Change c) {
        if (c.position() < floor) {
            return;
        }
        Long deleted = deletedAt.get(c.group());
        if (c.delete()) {
            if (deleted == null || deleted < c.position()) {
                deletedAt.put(c.group(), c.position());
                offsets.entrySet().removeIf(e -> e.getKey().group().equals(c.group()) && e.getValue()[1] < c.position());
                version++;
            }
            return;
        }
        if (deleted != null && deleted > c.position()) {
            return;
        }
        Long topicDeleted = topicDeletedAt.get(c.topic());
        if (topicDeleted != null && topicDeleted > c.position()) {
            return;
        }
        Key key = new Key(c.group(), c.topic(), c.queueId());
        long[] slot = offsets.get(key);
        if (slot == null) {
            offsets.put(key, new long[] {c.offset(), c.position()});
            version++;
        } else if (slot[1] < c.position()) {
            slot[0] = c.offset();
            slot[1] = c.position();
            version++;
        }
    }

    /**
     * Drops every group's offsets of {@code topic} committed before {@code position} (the topic's deletion record);
     * commits of it from earlier positions are ignored when they come again.
     */
    public synchronized void deleteTopic(String topic, long position) {
        if (position < floor) {
            return;
        }
        Long deleted = topicDeletedAt.get(topic);
        if (deleted == null || deleted < position) {
            topicDeletedAt.put(topic, position);
            offsets.entrySet().removeIf(e -> e.getKey().topic().equals(topic) && e.getValue()[1] < position);
            version++;
        }
    }

    public synchronized OptionalLong committed(String group, String topic, int queueId) {
        long[] slot = offsets.get(new Key(group, topic, queueId));
        return slot == null ? OptionalLong.empty() : OptionalLong.of(slot[0]);
    }

    /** A group's offsets sorted by topic and queue; empty for an unknown group. */
    public synchronized List<CommittedOffset> offsetsOf(String group) {
        List<CommittedOffset> out = new ArrayList<>();
        offsets.forEach((k, v) -> {
            if (k.group().equals(group)) {
                out.add(new CommittedOffset(k.group(), k.topic(), k.queueId(), v[0]));
            }
        });
        out.sort(Comparator.comparing(CommittedOffset::topic).thenComparingInt(CommittedOffset::queueId));
        return out;
    }

    public synchronized Set<String> groups() {
        Set<String> out = new TreeSet<>();
        offsets.keySet().forEach(k -> out.add(k.group()));
        return out;
    }

    /** Every offset, sorted by group, topic, queue. */
    public synchronized Map<Key, Long> copy() {
        Map<Key, Long> out = new java.util.TreeMap<>(ORDER);
        offsets.forEach((k, v) -> out.put(k, v[0]));
        return out;
    }

    /** Grows with every change that took effect: a snapshot is written only when it moved (or the floor did). */
    public synchronized long version() {
        return version;
    }

    public synchronized long floor() {
        return floor;
    }

    /** Test and diagnostics: the entry of one queue, if any. */
    synchronized Optional<long[]> slot(Key key) {
        return Optional.ofNullable(offsets.get(key)).map(long[]::clone);
    }
}
