package dev.hangar.launcher.http;

import dev.hangar.launcher.consumer.TopicCatalog;
import dev.hangar.store.DefaultMessageStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * {@code DELETE /v1/topics/{topic}?confirm={topic}}: deletes the topic's queues and its consumer groups' offsets
 * ({@link DefaultMessageStore#deleteTopic}); the CommitLog keeps the bytes until retention. The confirmation must
 * repeat the topic name, so a mistyped path or a replayed request without it changes nothing (400). The store's own
 * topics are refused (400), an unknown topic is a 404, a store that cannot write (a slave, read-only) a 503.
 * Thread-safe.
 */
final class TopicDeleteHandler {
    static final Set<String> QUERY = Set.of("confirm");

    private final DefaultMessageStore store;

    TopicDeleteHandler(DefaultMessageStore store) {
        this.store = store;
    }

    void delete(ApiExchange exchange) {
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        if (!TopicCatalog.isUserTopic(topic)) {
            throw ApiException.badRequest("topic " + topic + " is the store's own and cannot be deleted");
        }
        String confirm = exchange.query().single("confirm");
        if (!topic.equals(confirm)) {
            throw ApiException.badRequest("deleting topic " + topic + " needs ?confirm=" + topic
                    + " (the confirmation repeats the topic name)" + (confirm == null ? ""
                    : ", not '" + UriCodec.shorten(confirm) + "'"));
        }
        int queues;
        try {
            queues = store.deleteTopic(topic);
        } catch (NoSuchElementException e) {
            throw new ApiException(HttpStatus.NOT_FOUND, "unknown topic " + topic);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        } catch (IllegalStateException e) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("topic", topic);
        json.put("deleted", true);
        json.put("queues", queues);
        exchange.respondJson(HttpStatus.OK, json);
    }
}
