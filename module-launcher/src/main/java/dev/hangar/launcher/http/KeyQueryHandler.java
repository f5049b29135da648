package dev.hangar.launcher.http;

import dev.hangar.launcher.command.MessageJson;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.QueryMessageResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /v1/topics/{topic}/keys/{key}?max=N&begin=MS&end=MS}: the messages of a topic with that key (or
 * unique key), oldest first, stored between {@code begin} and {@code end} (epoch milliseconds; default: all), at
 * most {@code max} (default {@code defaultQueryMaxNum}). Answers {@code {topic, key, messages:[...]}}; no match is
 * an empty list. Thread-safe.
 */
final class KeyQueryHandler implements Router.Handler {
    static final Set<String> QUERY = Set.of("max", "begin", "end");
    static final int MAX_MAX = 10_000;

    private final MessageStore store;
    private final int defaultMax;

    KeyQueryHandler(MessageStore store, int defaultMax) {
        this.store = store;
        this.defaultMax = defaultMax;
    }

    @Override
    public void handle(ApiExchange exchange) {
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        String key = RequestChecks.key(exchange.pathParameter("key"));
        QueryParameters query = exchange.query();
        int max = query.intValue("max", Math.min(defaultMax, MAX_MAX), 1, MAX_MAX);
        long begin = query.longValue("begin", 0, 0, Long.MAX_VALUE);
        long end = query.longValue("end", Long.MAX_VALUE, 0, Long.MAX_VALUE);
        if (end < begin) {
            throw ApiException.badRequest("end (" + end + ") is before begin (" + begin + ")");
        }
        QueryMessageResult result = store.queryMessage(topic, key, max, begin, end);
        List<Map<String, Object>> messages = new ArrayList<>();
        for (StoredMessage m : result.messages()) {
            messages.add(MessageJson.toMap(m));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("topic", topic);
        json.put("key", key);
        json.put("messages", messages);
        exchange.respondJson(HttpStatus.OK, json);
    }
}
