package dev.hangar.launcher.http;

import dev.hangar.launcher.consumer.GroupReport;
import dev.hangar.launcher.json.JsonReader;
import dev.hangar.spi.store.ConsumerOffsets.ResetPoint;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.OffsetCommitResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The consumer-offset table over HTTP ({@link dev.hangar.spi.store.ConsumerOffsets}):
 * <pre>
 *   POST   /v1/groups/{group}/topics/{topic}/queues/{q}/offset    commit: body {"offset":N} or ?offset=N
 *   GET    /v1/groups                                            the groups, with their total lag
 *   GET    /v1/groups/{group}                                    per topic and queue: committed, min, max, lag
 *   DELETE /v1/groups/{group}                                    forget the group
 *   POST   /v1/groups/{group}/topics/{topic}/reset?to=earliest|latest   or ?timestamp=MS: every queue of the topic
 * </pre>
 * A commit answers once it is as durable as a put (it is one: see the README's "Consumer groups"), so the worker
 * waits for the flush. Bad names and numbers are 400, an unknown group, topic or queue 404 naming it, an offset
 * outside the queue's {@code [min, max]} 400 naming the range; none of them changes anything. A commit the store did
 * not acknowledge answers as a put with that status would (503, 504). Thread-safe.
 */
final class GroupOffsetHandler {
    static final Set<String> COMMIT_QUERY = Set.of("offset");
    static final Set<String> RESET_QUERY = Set.of("to", "timestamp");
    /** A commit's JSON body is tiny; anything larger is not one. */
    private static final int MAX_COMMIT_BODY = 4096;

    private final MessageStore store;

    GroupOffsetHandler(MessageStore store) {
        this.store = store;
    }

    void commit(ApiExchange exchange) throws IOException {
        String group = RequestChecks.group(exchange.pathParameter("group"));
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        int queueId = RequestChecks.queueId("queue id", exchange.pathParameter("q"));
        String inQuery = exchange.query().single("offset");
        byte[] body = exchange.readBody(MAX_COMMIT_BODY);
        long offset;
        if (inQuery != null) {
            if (body.length > 0) {
                throw ApiException.badRequest("give the offset once: as ?offset=N or as the body {\"offset\":N}, not both");
            }
            offset = QueryParameters.parseLong("offset", inQuery, 0, Long.MAX_VALUE);
        } else {
            offset = offsetFromBody(body);
        }
        OffsetCommitResult r = store.consumerOffsets().commit(group, topic, queueId, offset);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("group", group);
        json.put("topic", topic);
        json.put("queueId", queueId);
        json.put("offset", offset);
        answer(exchange, r, json);
    }

    private static long offsetFromBody(byte[] body) {
        if (body.length == 0) {
            throw ApiException.badRequest("no offset: send the body {\"offset\":N} or ?offset=N");
        }
        Object parsed;
        try {
            parsed = JsonReader.parse(new String(body, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("the body is not JSON: " + e.getMessage());
        }
        if (!(parsed instanceof Map<?, ?> map) || !map.containsKey("offset") || map.size() != 1) {
            throw ApiException.badRequest("the body must be {\"offset\":N} and nothing else");
        }
        Object value = map.get("offset");
        if (!(value instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.longValue() < 0) {
            throw ApiException.badRequest("offset must be a whole number from 0, not " + value);
        }
        return n.longValue();
    }

    void list(ApiExchange exchange) {
        List<Map<String, Object>> groups = new ArrayList<>();
        for (String group : store.consumerOffsets().groups()) {
            List<GroupReport.QueueLag> lags = GroupReport.lags(store, group);
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("group", group);
            g.put("topics", lags.stream().map(GroupReport.QueueLag::topic).distinct().count());
            g.put("lag", lags.stream().mapToLong(GroupReport.QueueLag::lag).sum());
            groups.add(g);
        }
        exchange.respondJson(HttpStatus.OK, Map.of("groups", groups));
    }

    void show(ApiExchange exchange) {
        String group = knownGroup(exchange);
        exchange.respondJson(HttpStatus.OK, GroupReport.json(group, GroupReport.lags(store, group)));
    }

    void delete(ApiExchange exchange) {
        String group = knownGroup(exchange);
        OffsetCommitResult r = store.consumerOffsets().deleteGroup(group);
        answer(exchange, r, Map.of("group", group, "deleted", true));
    }

    void reset(ApiExchange exchange) {
        String group = RequestChecks.group(exchange.pathParameter("group"));
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        QueryParameters query = exchange.query();
        String to = query.single("to");
        String timestamp = query.single("timestamp");
        ResetPoint point;
        if ((to == null) == (timestamp == null)) {
            throw ApiException.badRequest("say where to: ?to=earliest, ?to=latest or ?timestamp=MS (one of them)");
        } else if (timestamp != null) {
            point = ResetPoint.at(QueryParameters.parseLong("timestamp", timestamp, 0, Long.MAX_VALUE));
        } else if (to.equals("earliest")) {
            point = ResetPoint.earliest();
        } else if (to.equals("latest")) {
            point = ResetPoint.latest();
        } else {
            throw ApiException.badRequest("to must be earliest or latest, not '" + UriCodec.shorten(to) + "'");
        }
        OffsetCommitResult r = store.consumerOffsets().reset(group, topic, point);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("group", group);
        json.put("topic", topic);
        json.put("queues", r.offsets().stream().map(o -> Map.of("queueId", o.queueId(), "offset", o.offset())).toList());
        answer(exchange, r, json);
    }

    private String knownGroup(ApiExchange exchange) {
        String group = RequestChecks.group(exchange.pathParameter("group"));
        if (!store.consumerOffsets().groups().contains(group)) {
            throw new ApiException(HttpStatus.NOT_FOUND, "unknown group " + group);
        }
        return group;
    }

    /** 200 with {@code json} when committed; otherwise the refusal's status and reason. */
    static void answer(ApiExchange exchange, OffsetCommitResult r, Map<String, Object> json) {
        switch (r.outcome()) {
            case COMMITTED -> exchange.respondJson(HttpStatus.OK, json);
            case INVALID_ARGUMENT, OUT_OF_RANGE -> throw ApiException.badRequest(r.reason());
            case UNKNOWN_TOPIC, UNKNOWN_QUEUE, UNKNOWN_GROUP -> throw new ApiException(HttpStatus.NOT_FOUND, r.reason());
            case NOT_STORED -> throw new ApiException(PutMessageHandler.httpStatus(r.putStatus()), r.reason());
            default -> throw new IllegalStateException("unexpected outcome " + r.outcome());
        }
    }
}
