package dev.hangar.store.offsets;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.CommittedOffset;
import dev.hangar.spi.store.ConsumerOffsets;
import dev.hangar.spi.store.OffsetCommitResult;
import dev.hangar.spi.store.OffsetCommitResult.Outcome;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.put.MessageValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * {@link ConsumerOffsets} of the engine: checks the request, puts the commit records through the store's put path
 * (so the put waits for the flush and the slave as a message would), and once the put is {@code PUT_OK} applies the
 * change to the table on the calling thread, so the committer reads its own commit at once; the dispatch thread
 * applies the same record again (in log order, on a slave too).
 *
 * <p>Thread-safe. Commits of one queue by concurrent callers end in log order: the last appended wins everywhere.
 */
public final class ConsumerOffsetService implements ConsumerOffsets {
    private final ConsumerOffsetTable table;
    private final QueueBounds queues;
    private final Function<List<Message>, PutMessageResult> put;

    /** The queue facts a commit is checked against. */
    public interface QueueBounds {
        boolean exists(String topic, int queueId);

        /** The queue ids of {@code topic} in the ConsumeQueue, sorted; empty for an unknown topic. */
        List<Integer> queuesOf(String topic);

        long minOffset(String topic, int queueId);

        long maxOffset(String topic, int queueId);

        long offsetByTime(String topic, int queueId, long timestamp);
    }

    /**
     * @param put appends records of {@link ConsumerOffsets#TOPIC} (one put, or one batch for several) and waits as a
     *            put with {@code waitStoreMsgOk} does
     */
    public ConsumerOffsetService(ConsumerOffsetTable table, QueueBounds queues,
                                 Function<List<Message>, PutMessageResult> put) {
        this.table = table;
        this.queues = queues;
        this.put = put;
    }

    /** Null when {@code group} may name a group (the topic rules), else why not. */
    public static String checkGroup(String group) {
        String problem = MessageValidator.checkTopic(group);
        return problem == null ? null : problem.replaceFirst("^topic", "group");
    }

    @Override
    public OffsetCommitResult commit(String group, String topic, int queueId, long offset) {
        OffsetCommitResult bad = checkNames(group, topic);
        if (bad == null) {
            bad = checkQueue(topic, queueId);
        }
        if (bad != null) {
            return bad;
        }
        long min = queues.minOffset(topic, queueId);
        long max = queues.maxOffset(topic, queueId);
        if (offset < min || offset > max) {
            return OffsetCommitResult.refused(Outcome.OUT_OF_RANGE, "offset " + offset + " is outside [" + min + ", "
                    + max + "] of topic " + topic + " queue " + queueId);
        }
        return store(List.of(new CommittedOffset(group, topic, queueId, offset)));
    }

    @Override
    public OptionalLong committed(String group, String topic, int queueId) {
        return table.committed(group, topic, queueId);
    }

    @Override
    public List<CommittedOffset> offsetsOf(String group) {
        return table.offsetsOf(group);
    }

    @Override
    public Set<String> groups() {
        return table.groups();
    }

    @Override
    public OffsetCommitResult deleteGroup(String group) {
        String problem = checkGroup(group);
        if (problem != null) {
            return OffsetCommitResult.refused(Outcome.INVALID_ARGUMENT, problem);
        }
        if (!table.groups().contains(group)) {
            return OffsetCommitResult.refused(Outcome.UNKNOWN_GROUP, "unknown group " + group);
        }
        PutMessageResult r = put.apply(List.of(OffsetRecordFormat.deleteGroup(group)));
        if (!r.isOk()) {
            return notStored(r);
        }
        table.apply(new OffsetRecordFormat.Change(true, group, null, -1, -1, r.wroteOffset()));
        return new OffsetCommitResult(Outcome.COMMITTED, r.status(), null, List.of());
    }

    @Override
    public OffsetCommitResult reset(String group, String topic, ResetPoint point) {
        OffsetCommitResult bad = checkNames(group, topic);
        if (bad != null) {
            return bad;
        }
        if (point == null || (point.kind() == ResetPoint.Kind.TIMESTAMP && point.timestamp() < 0)) {
            return OffsetCommitResult.refused(Outcome.INVALID_ARGUMENT, "a reset needs earliest, latest or a "
                    + "timestamp >= 0");
        }
        List<Integer> ids = queues.queuesOf(topic);
        if (ids.isEmpty()) {
            return OffsetCommitResult.refused(Outcome.UNKNOWN_TOPIC, "unknown topic " + topic);
        }
        List<CommittedOffset> target = new ArrayList<>();
        for (int q : ids) {
            long offset = switch (point.kind()) {
                case EARLIEST -> queues.minOffset(topic, q);
                case LATEST -> queues.maxOffset(topic, q);
                case TIMESTAMP -> queues.offsetByTime(topic, q, point.timestamp());
            };
            target.add(new CommittedOffset(group, topic, q, offset));
        }
        return store(target);
    }

    private OffsetCommitResult checkNames(String group, String topic) {
        String problem = checkGroup(group);
        if (problem == null) {
            problem = MessageValidator.checkTopic(topic);
        }
        if (problem == null && OffsetRecordFormat.isInternal(topic)) {
            problem = "topic " + topic + " is internal: it holds the commits themselves";
        }
        return problem == null ? null : OffsetCommitResult.refused(Outcome.INVALID_ARGUMENT, problem);
    }

    private OffsetCommitResult checkQueue(String topic, int queueId) {
        if (queueId < 0) {
            return OffsetCommitResult.refused(Outcome.INVALID_ARGUMENT, "queue id " + queueId + " is negative");
        }
        if (queues.exists(topic, queueId)) {
            return null;
        }
        List<Integer> ids = queues.queuesOf(topic);
        if (ids.isEmpty()) {
            return OffsetCommitResult.refused(Outcome.UNKNOWN_TOPIC, "unknown topic " + topic);
        }
        if (!ids.contains(queueId)) {
            return OffsetCommitResult.refused(Outcome.UNKNOWN_QUEUE, "topic " + topic + " has no queue " + queueId
                    + " (its queues: " + ids + ")");
        }
        return null;
    }

    /** Puts the records (one batch: all or none) and, once acknowledged, applies them here. */
    private OffsetCommitResult store(List<CommittedOffset> offsets) {
        List<Message> records = new ArrayList<>(offsets.size());
        for (CommittedOffset o : offsets) {
            records.add(OffsetRecordFormat.commit(o.group(), o.topic(), o.queueId(), o.offset()));
        }
        PutMessageResult r = put.apply(records);
        if (!r.isOk()) {
            return notStored(r);
        }
        // the batch's records lie one after another from wroteOffset: each gets a position of its own, in order
        long position = r.wroteOffset();
        for (CommittedOffset o : offsets) {
            table.apply(new OffsetRecordFormat.Change(false, o.group(), o.topic(), o.queueId(), o.offset(), position++));
        }
        return new OffsetCommitResult(Outcome.COMMITTED, r.status(), null, offsets);
    }

    private static OffsetCommitResult notStored(PutMessageResult r) {
        PutMessageStatus s = r.status();
        return new OffsetCommitResult(Outcome.NOT_STORED, s, "the commit record was not stored as durably as asked: "
                + s + (r.reason() == null ? "" : " (" + r.reason() + ")"), List.of());
    }
}
