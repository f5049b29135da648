package dev.hangar.spi.store;

import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Consumer groups and their committed offsets, kept by the store (RocketMQ's {@code ConsumerOffsetManager}, Kafka's
 * {@code __consumer_offsets}). A commit is a record of an internal topic appended to the CommitLog through the put
 * path, so it is exactly as durable as a message under the same flush and replication settings: a commit is
 * {@link OffsetCommitResult.Outcome#COMMITTED} when a put of that record would have been {@code PUT_OK}. The table is
 * kept in memory, rebuilt at start from {@code config/consumerOffset.json} (RocketMQ 4.x's file) and the commit
 * records written after it.
 *
 * <p>Bad input (a group or topic name outside the topic rules, an unknown topic or queue, an offset outside the
 * queue's {@code [min, max]}) is answered with an outcome and changes nothing; nothing here throws for it.
 * Thread-safe: any number of threads may commit and read.
 */
public interface ConsumerOffsets {

    /** The internal topic commits are written to; user puts to it are refused. */
    String TOPIC = "RMQ_SYS_HANGAR_CONSUMER_OFFSETS";

    /** Commits {@code offset} (the next queue offset the group will read) for one queue of a topic. */
    OffsetCommitResult commit(String group, String topic, int queueId, long offset);

    /** The committed offset of a group for one queue; empty when the group never committed it. */
    OptionalLong committed(String group, String topic, int queueId);

    /** Every committed offset of a group, by topic then queue; empty for an unknown group. */
    List<CommittedOffset> offsetsOf(String group);

    /** The groups that have at least one committed offset, sorted. */
    Set<String> groups();

    /** Forgets a group (a record too, so the deletion is as durable as a commit). UNKNOWN_GROUP when there is none. */
    OffsetCommitResult deleteGroup(String group);

    /**
     * Sets a group's offsets for every queue of a topic to the queue's min offset ({@link ResetPoint#earliest()}),
     * its max offset ({@link ResetPoint#latest()}) or the offset {@link MessageStore#getOffsetInQueueByTime} gives for
     * a timestamp. All queues are written in one batch record set: all or none. The group need not exist yet.
     */
    OffsetCommitResult reset(String group, String topic, ResetPoint point);

    /** Where a reset moves a group's offsets to. */
    record ResetPoint(Kind kind, long timestamp) {
        public enum Kind { EARLIEST, LATEST, TIMESTAMP }

        public static ResetPoint earliest() {
            return new ResetPoint(Kind.EARLIEST, 0);
        }

        public static ResetPoint latest() {
            return new ResetPoint(Kind.LATEST, 0);
        }

        public static ResetPoint at(long timestampMillis) {
            return new ResetPoint(Kind.TIMESTAMP, timestampMillis);
        }
    }
}
