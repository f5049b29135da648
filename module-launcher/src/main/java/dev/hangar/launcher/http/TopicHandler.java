package dev.hangar.launcher.http;

import dev.hangar.launcher.consumer.TopicCatalog;
import dev.hangar.spi.store.MessageStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Discovery and seek:
 * <pre>
 *   GET /v1/topics                                            topics with their queue and message counts
 *   GET /v1/topics/{topic}                                    its queues: min/max offsets, messages, first/last store time
 *   GET /v1/topics/{topic}/queues/{q}/offset?timestamp=MS     RocketMQ's getOffsetInQueueByTime
 *   GET /v1/topics/{topic}/queues/{q}/offset?at=earliest|latest
 * </pre>
 * By time: the offset of the message stored at {@code MS} (the first of them when several share the millisecond);
 * otherwise of the stored message nearest in time, the earlier one on a tie (so a time before the first message
 * gives the min offset, a time after the last gives the last message's offset, not the max); 0 for an empty queue.
 * An unknown topic or queue is a 404. Thread-safe.
 */
final class TopicHandler {
    static final Set<String> OFFSET_QUERY = Set.of("timestamp", "at");

    private final MessageStore store;
    private final TopicCatalog catalog;

    TopicHandler(MessageStore store, TopicCatalog catalog) {
        this.store = store;
        this.catalog = catalog;
    }

    void list(ApiExchange exchange) {
        exchange.respondJson(HttpStatus.OK, catalog.listingJson());
    }

    void show(ApiExchange exchange) {
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        List<TopicCatalog.QueueInfo> queues = TopicCatalog.isUserTopic(topic) ? catalog.queues(topic) : List.of();
        if (queues.isEmpty()) {
            throw new ApiException(HttpStatus.NOT_FOUND, "unknown topic " + topic);
        }
        exchange.respondJson(HttpStatus.OK, TopicCatalog.topicJson(topic, queues));
    }

    void offset(ApiExchange exchange) {
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        int queueId = RequestChecks.queueId("queue id", exchange.pathParameter("q"));
        QueryParameters query = exchange.query();
        String timestamp = query.single("timestamp");
        String at = query.single("at");
        if ((timestamp == null) == (at == null)) {
            throw ApiException.badRequest("say which offset: ?timestamp=MS, ?at=earliest or ?at=latest (one of them)");
        }
        long ms = timestamp == null ? -1 : QueryParameters.parseLong("timestamp", timestamp, 0, Long.MAX_VALUE);
        if (at != null && !at.equals("earliest") && !at.equals("latest")) {
            throw ApiException.badRequest("at must be earliest or latest, not '" + UriCodec.shorten(at) + "'");
        }
        requireQueue(catalog, topic, queueId);
        long min = store.getMinOffsetInQueue(topic, queueId);
        long max = store.getMaxOffsetInQueue(topic, queueId);
        long offset = at == null ? store.getOffsetInQueueByTime(topic, queueId, ms) : at.equals("earliest") ? min : max;
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("topic", topic);
        json.put("queueId", queueId);
        json.put("offset", offset);
        json.put("minOffset", min);
        json.put("maxOffset", max);
        if (timestamp != null) {
            json.put("timestamp", ms);
            json.put("storeTime", offset < max ? store.getMessageStoreTimeStamp(topic, queueId, offset) : -1);
        }
        exchange.respondJson(HttpStatus.OK, json);
    }

    /** A 404 naming the topic (unknown) or the queue (the topic has no such queue). */
    static void requireQueue(TopicCatalog catalog, String topic, int queueId) {
        if (catalog.exists(topic, queueId) && TopicCatalog.isUserTopic(topic)) {
            return;
        }
        if (!TopicCatalog.isUserTopic(topic) || catalog.topics().get(topic) == null) {
            throw new ApiException(HttpStatus.NOT_FOUND, "unknown topic " + topic);
        }
        throw new ApiException(HttpStatus.NOT_FOUND, "topic " + topic + " has no queue " + queueId);
    }
}
