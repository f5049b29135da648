package dev.hangar.launcher.http;

import dev.hangar.launcher.consumer.TopicCatalog;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.MessageStore;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code GET /v1/groups/{group}/topics/{topic}/queues/{q}/messages?max=&wait=&tag=}: reads a queue from the group's
 * committed offset (the queue's min offset when the group has none, or when retention deleted past it), long polling
 * and filtering as the queue read does. Reading commits nothing: the consumer commits {@code nextOffset} once it has
 * processed the messages. The answer is the queue read's plus {@code group}, {@code committed} (null when none) and
 * {@code offset} (where this read started). An unknown topic or queue is a 404. Thread-safe.
 */
final class GroupMessagesHandler implements Router.Handler {
    static final Set<String> QUERY = Set.of("max", "wait", "tag");

    private final MessageStore store;
    private final TopicCatalog catalog;
    private final QueueReads reads;

    GroupMessagesHandler(MessageStore store, TopicCatalog catalog, LongPollRegistry longPolls) {
        this.store = store;
        this.catalog = catalog;
        this.reads = new QueueReads(store, longPolls);
    }

    @Override
    public void handle(ApiExchange exchange) {
        String group = RequestChecks.group(exchange.pathParameter("group"));
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        int queueId = RequestChecks.queueId("queue id", exchange.pathParameter("q"));
        QueryParameters query = exchange.query();
        int max = query.intValue("max", GetMessagesHandler.DEFAULT_MAX, 1, GetMessagesHandler.MAX_MAX);
        long wait = query.longValue("wait", 0, 0, HttpSettings.MAX_WAIT_MILLIS);
        MessageFilter filter = RequestChecks.tagFilter(query.single("tag"));
        TopicHandler.requireQueue(catalog, topic, queueId);
        OptionalLong committed = store.consumerOffsets().committed(group, topic, queueId);
        long offset = Math.max(committed.orElse(0), store.getMinOffsetInQueue(topic, queueId));
        reads.answer(exchange, new QueueReads.Read(group, topic, queueId, max, filter, json -> {
            json.put("group", group);
            json.put("committed", committed.isPresent() ? committed.getAsLong() : null);
            json.put("offset", offset);
            return json;
        }), offset, wait);
    }
}
