package dev.hangar.store.offsets;

import dev.hangar.spi.dispatch.DispatchRequest;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.ConsumerOffsets;
import dev.hangar.store.format.DispatchRecordView;
import java.nio.charset.StandardCharsets;

/**
 * The CommitLog records that carry consumer-offset changes: ordinary messages of the internal topic
 * {@link ConsumerOffsets#TOPIC}, queue 0, whose properties say what changed. A RocketMQ broker reading the directory
 * sees them as messages of a topic nobody subscribes to; every replication provider copies them like any record.
 *
 * <pre>
 *   commit:       HANGAR_OFFSET_OP=commit  HANGAR_GROUP=g  HANGAR_TOPIC=t  HANGAR_QUEUE=q  HANGAR_OFFSET=n
 *   delete group: HANGAR_OFFSET_OP=delete  HANGAR_GROUP=g
 *   delete topic: HANGAR_OFFSET_OP=delete-topic  HANGAR_TOPIC=t   (its queues and every group's offsets of it)
 *   body:         the same, as one readable line (for people reading the topic; never parsed)
 * </pre>
 */
public final class OffsetRecordFormat {
    public static final byte[] TOPIC_BYTES = ConsumerOffsets.TOPIC.getBytes(StandardCharsets.US_ASCII);
    static final String OP = "HANGAR_OFFSET_OP";
    static final String GROUP = "HANGAR_GROUP";
    static final String TOPIC = "HANGAR_TOPIC";
    static final String QUEUE = "HANGAR_QUEUE";
    static final String OFFSET = "HANGAR_OFFSET";
    static final String COMMIT = "commit";
    static final String DELETE = "delete";
    static final String DELETE_TOPIC = "delete-topic";

    /** A decoded record; {@code position} is its CommitLog offset, which orders every change. */
    public record Change(boolean delete, String group, String topic, int queueId, long offset, long position) {
    }

    private OffsetRecordFormat() {
    }

    public static boolean isInternal(String topic) {
        return ConsumerOffsets.TOPIC.equals(topic);
    }

    static Message commit(String group, String topic, int queueId, long offset) {
        String line = COMMIT + " " + group + " " + topic + " " + queueId + " " + offset;
        return new Message(ConsumerOffsets.TOPIC, line.getBytes(StandardCharsets.UTF_8)).queueId(0)
                .property(OP, COMMIT).property(GROUP, group).property(TOPIC, topic)
                .property(QUEUE, Integer.toString(queueId)).property(OFFSET, Long.toString(offset));
    }

    static Message deleteGroup(String group) {
        return new Message(ConsumerOffsets.TOPIC, (DELETE + " " + group).getBytes(StandardCharsets.UTF_8)).queueId(0)
                .property(OP, DELETE).property(GROUP, group);
    }

    /** The record that deletes {@code topic}'s queues; appended through {@code CommitLog.appendTopicDeletion}. */
    public static Message deleteTopic(String topic) {
        return new Message(ConsumerOffsets.TOPIC, (DELETE_TOPIC + " " + topic).getBytes(StandardCharsets.UTF_8))
                .queueId(0).property(OP, DELETE_TOPIC).property(TOPIC, topic);
    }

    /** The topic a record deletes, or null when it is no topic deletion. Cheap for records of other topics. */
    public static String deletedTopic(DispatchRecordView record) {
        if (!record.topicIs(TOPIC_BYTES) || !DELETE_TOPIC.equals(record.property(OP))) {
            return null;
        }
        return record.property(TOPIC);
    }

    /** The change a record of the internal topic carries, or null when it carries none this version understands. */
    public static Change decode(DispatchRequest record) {
        String op = record.property(OP);
        String group = record.property(GROUP);
        if (op == null || group == null) {
            return null;
        }
        if (DELETE.equals(op)) {
            return new Change(true, group, null, -1, -1, record.commitLogOffset());
        }
        if (!COMMIT.equals(op)) {
            return null;
        }
        String topic = record.property(TOPIC);
        try {
            int queueId = Integer.parseInt(record.property(QUEUE));
            long offset = Long.parseLong(record.property(OFFSET));
            return topic == null || queueId < 0 || offset < 0 ? null
                    : new Change(false, group, topic, queueId, offset, record.commitLogOffset());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
