package dev.hangar.launcher.http;

import dev.hangar.launcher.command.MessageJson;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.MessageStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /v1/topics/{topic}/queues/{q}/messages?offset=O&max=N&wait=MS}: one read of a queue, answered
 * {@code {status, nextOffset, minOffset, maxOffset, messages:[...]}} with messages shaped as {@code get --json}
 * prints them. At most {@code max} messages and at most what one store read returns
 * ({@code maxTransferCountOnMessageInMemory}); continue from {@code nextOffset}.
 *
 * <p>A message is readable once dispatched to its ConsumeQueue, normally within a millisecond of its put (as in
 * RocketMQ); a read right after a put may miss it unless it waits. With {@code wait} (up to
 * {@link HttpSettings#MAX_WAIT_MILLIS}) a read at the end of the queue is parked in the {@link LongPollRegistry}
 * instead of answered empty: a fresh read answers it when a message arrives; when the wait ends (or the server
 * stops) it gets the empty answer it would have had at once. {@code tag=TagA||TagB} filters ({@link QueueReads}:
 * a filtered long poll wakes only for a match). Thread-safe.
 */
final class GetMessagesHandler implements Router.Handler {
    static final Set<String> QUERY = Set.of("offset", "max", "wait", "tag");
    static final int DEFAULT_MAX = 32;
    static final int MAX_MAX = 1024;
    /** The consumer group named in reads; the store keeps no per-group state for it. */
    private static final String GROUP = "hangar-http";

    private final QueueReads reads;

    GetMessagesHandler(MessageStore store, LongPollRegistry longPolls) {
        this.reads = new QueueReads(store, longPolls);
    }

    @Override
    public void handle(ApiExchange exchange) {
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        int queueId = RequestChecks.queueId("queue id", exchange.pathParameter("q"));
        QueryParameters query = exchange.query();
        long offset = query.longValue("offset", 0, 0, Long.MAX_VALUE);
        int max = query.intValue("max", DEFAULT_MAX, 1, MAX_MAX);
        long wait = query.longValue("wait", 0, 0, HttpSettings.MAX_WAIT_MILLIS);
        MessageFilter filter = RequestChecks.tagFilter(query.single("tag"));
        reads.answer(exchange, new QueueReads.Read(GROUP, topic, queueId, max, filter, json -> json), offset, wait);
    }

    static Map<String, Object> toJson(GetMessageResult r, int max) {
        List<Map<String, Object>> messages = new ArrayList<>();
        long next = r.nextBeginOffset();
        for (StoredMessage m : r.messages()) {
            if (messages.size() == max) {
                // the store gave more than asked: resume after the last one answered
                next = m.queueOffset();
                break;
            }
            messages.add(MessageJson.toMap(m));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("status", r.status());
        json.put("nextOffset", next);
        json.put("minOffset", r.minOffset());
        json.put("maxOffset", r.maxOffset());
        json.put("messages", messages);
        return json;
    }
}
