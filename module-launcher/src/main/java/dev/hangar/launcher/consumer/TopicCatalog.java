package dev.hangar.launcher.consumer;

import dev.hangar.spi.dispatch.ConsumeQueueView;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.store.ConsumerOffsets;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.store.DefaultMessageStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The topics a consumer can read, as the ConsumeQueues know them (what {@code GET /v1/topics} and {@code topics}
 * list). The store's own topics are left out: the consumer-offset records ({@link ConsumerOffsets#TOPIC}) and the
 * delayed messages waiting for their time ({@link MessageConst#SCHEDULE_TOPIC}); {@code stat} still shows them.
 * Thread-safe; reads the store on each call.
 */
public final class TopicCatalog {
    /**
     * One queue: its offsets, the messages it holds ({@code maxOffset - minOffset}) and the store times of its first
     * and last message (-1 when it holds none).
     */
    public record QueueInfo(int queueId, long minOffset, long maxOffset, long firstStoreTime, long lastStoreTime) {
        public long messages() {
            return Math.max(0, maxOffset - minOffset);
        }

        public Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("queueId", queueId);
            m.put("minOffset", minOffset);
            m.put("maxOffset", maxOffset);
            m.put("messages", messages());
            m.put("firstStoreTime", firstStoreTime);
            m.put("lastStoreTime", lastStoreTime);
            return m;
        }
    }

    private final DefaultMessageStore store;

    public TopicCatalog(DefaultMessageStore store) {
        this.store = store;
    }

    /** Whether consumers see {@code topic} in listings. */
    public static boolean isUserTopic(String topic) {
        return !ConsumerOffsets.TOPIC.equals(topic) && !MessageConst.SCHEDULE_TOPIC.equals(topic);
    }

    /** Every user topic with its queue ids and offsets (store times not read: -1), sorted by name and queue. */
    public SortedMap<String, List<QueueInfo>> topics() {
        SortedMap<String, List<QueueInfo>> out = new TreeMap<>();
        store.dispatcherView(ConsumeQueueView.class).ifPresent(view -> view.forEachQueue((topic, q, min, max) -> {
            if (isUserTopic(topic)) {
                out.computeIfAbsent(topic, t -> new ArrayList<>()).add(new QueueInfo(q, min, max, -1, -1));
            }
        }));
        out.values().forEach(list -> list.sort(Comparator.comparingInt(QueueInfo::queueId)));
        return out;
    }

    /** The queues of one topic with their first and last store times; empty when the topic has none. */
    public List<QueueInfo> queues(String topic) {
        List<Integer> ids = new ArrayList<>();
        store.dispatcherView(ConsumeQueueView.class).ifPresent(view -> view.forEachQueue((t, q, min, max) -> {
            if (t.equals(topic)) {
                ids.add(q);
            }
        }));
        ids.sort(null);
        List<QueueInfo> out = new ArrayList<>();
        for (int q : ids) {
            out.add(withTimes(store, topic, q));
        }
        return out;
    }

    /** Whether the topic has the queue (false for an unknown topic). */
    public boolean exists(String topic, int queueId) {
        return store.dispatcherView(ConsumeQueueView.class).map(v -> v.exists(topic, queueId)).orElse(false);
    }

    static QueueInfo withTimes(MessageStore store, String topic, int q) {
        long min = store.getMinOffsetInQueue(topic, q);
        long max = store.getMaxOffsetInQueue(topic, q);
        long first = max > min ? store.getMessageStoreTimeStamp(topic, q, min) : -1;
        long last = max > min ? store.getMessageStoreTimeStamp(topic, q, max - 1) : -1;
        return new QueueInfo(q, min, max, first, last);
    }

    /** {@code {topics:[{topic, queues, messages}]}}: the listing. */
    public Map<String, Object> listingJson() {
        List<Map<String, Object>> topics = new ArrayList<>();
        topics().forEach((topic, queues) -> {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("topic", topic);
            t.put("queues", queues.size());
            t.put("messages", queues.stream().mapToLong(QueueInfo::messages).sum());
            topics.add(t);
        });
        return Map.of("topics", topics);
    }

    /** {@code {topic, messages, queues:[...]}}: one topic in detail. */
    public static Map<String, Object> topicJson(String topic, List<QueueInfo> queues) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("topic", topic);
        m.put("messages", queues.stream().mapToLong(QueueInfo::messages).sum());
        m.put("queues", queues.stream().map(QueueInfo::toJson).toList());
        return m;
    }
}
