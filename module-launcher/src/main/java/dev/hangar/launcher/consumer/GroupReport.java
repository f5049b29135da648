package dev.hangar.launcher.consumer;

import dev.hangar.spi.store.CommittedOffset;
import dev.hangar.spi.store.MessageStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A consumer group's committed offsets beside its queues' ends: per topic and queue {@code committed}, {@code min},
 * {@code max} and {@code lag} ({@code max - committed}, never below 0), and the group's total lag. What
 * {@code GET /v1/groups/{group}}, {@code groups} and {@code /metrics} show. Stateless.
 */
public final class GroupReport {
    private GroupReport() {
    }

    /** One queue of a group. */
    public record QueueLag(String topic, int queueId, long committed, long minOffset, long maxOffset) {
        public long lag() {
            return Math.max(0, maxOffset - committed);
        }
    }

    public static List<QueueLag> lags(MessageStore store, String group) {
        List<QueueLag> out = new ArrayList<>();
        for (CommittedOffset o : store.consumerOffsets().offsetsOf(group)) {
            out.add(new QueueLag(o.topic(), o.queueId(), o.offset(), store.getMinOffsetInQueue(o.topic(), o.queueId()),
                    store.getMaxOffsetInQueue(o.topic(), o.queueId())));
        }
        return out;
    }

    /** {@code {group, lag, topics:[{topic, lag, queues:[{queueId, committed, minOffset, maxOffset, lag}]}]}}. */
    public static Map<String, Object> json(String group, List<QueueLag> lags) {
        Map<String, List<Map<String, Object>>> byTopic = new LinkedHashMap<>();
        Map<String, Long> topicLag = new LinkedHashMap<>();
        for (QueueLag l : lags) {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("queueId", l.queueId());
            q.put("committed", l.committed());
            q.put("minOffset", l.minOffset());
            q.put("maxOffset", l.maxOffset());
            q.put("lag", l.lag());
            byTopic.computeIfAbsent(l.topic(), t -> new ArrayList<>()).add(q);
            topicLag.merge(l.topic(), l.lag(), Long::sum);
        }
        List<Map<String, Object>> topics = new ArrayList<>();
        byTopic.forEach((topic, queues) -> {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("topic", topic);
            t.put("lag", topicLag.get(topic));
            t.put("queues", queues);
            topics.add(t);
        });
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("group", group);
        m.put("lag", lags.stream().mapToLong(QueueLag::lag).sum());
        m.put("topics", topics);
        return m;
    }
}
