package dev.hangar.launcher.http;

import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.store.format.MessageIdCodec;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A message's body as it was put, byte for byte ({@code application/octet-stream}), with what describes it as response
 * headers:
 * <pre>
 *   GET /v1/messages/{msgId}/body
 *   GET /v1/topics/{topic}/queues/{q}/messages/{offset}/body
 * </pre>
 * Headers: {@code X-Hangar-Msg-Id}, {@code X-Hangar-Topic}, {@code X-Hangar-Queue-Id}, {@code X-Hangar-Queue-Offset},
 * {@code X-Hangar-Commit-Log-Offset}, {@code X-Hangar-Store-Timestamp}, {@code X-Hangar-Born-Timestamp}, and every
 * property in {@code X-Hangar-Properties} as percent-encoded {@code Name=value} pairs joined by {@code &} (the put's
 * own header format; it also carries the store's properties such as {@code KEYS}, {@code TAGS}, {@code UNIQ_KEY}).
 * 404 when there is no such message (naming the queue's range for a queue offset), 400 for a bad id, topic or number.
 * Thread-safe.
 */
final class MessageBodyHandler {
    private static final String OCTETS = "application/octet-stream";

    private final MessageStore store;

    MessageBodyHandler(MessageStore store) {
        this.store = store;
    }

    void byId(ApiExchange exchange) {
        String msgId = exchange.pathParameter("msgId");
        try {
            MessageIdCodec.decode(msgId);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("bad message id '" + UriCodec.shorten(msgId) + "': " + e.getMessage());
        }
        StoredMessage m = store.lookMessageByMsgId(msgId);
        if (m == null) {
            throw new ApiException(HttpStatus.NOT_FOUND, "no message has the id " + msgId);
        }
        exchange.respond(HttpStatus.OK, OCTETS, m.body(), headers(m));
    }

    void byQueueOffset(ApiExchange exchange) {
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        int queueId = RequestChecks.queueId("queue id", exchange.pathParameter("q"));
        long offset = QueryParameters.parseLong("offset", exchange.pathParameter("offset"), 0, Long.MAX_VALUE);
        GetMessageResult r = store.getMessage("hangar-http", topic, queueId, offset, 1, MessageFilter.ALL);
        if (r.messages().isEmpty() || r.messages().get(0).queueOffset() != offset) {
            throw new ApiException(HttpStatus.NOT_FOUND, "no message at offset " + offset + " of topic " + topic
                    + " queue " + queueId + " (it holds offsets " + r.minOffset() + " to " + r.maxOffset()
                    + ", the max excluded)");
        }
        StoredMessage m = r.messages().get(0);
        exchange.respond(HttpStatus.OK, OCTETS, m.body(), headers(m));
    }

    static Map<String, String> headers(StoredMessage m) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("X-Hangar-Msg-Id", m.msgId());
        h.put("X-Hangar-Topic", m.topic());
        h.put("X-Hangar-Queue-Id", Integer.toString(m.queueId()));
        h.put("X-Hangar-Queue-Offset", Long.toString(m.queueOffset()));
        h.put("X-Hangar-Commit-Log-Offset", Long.toString(m.commitLogOffset()));
        h.put("X-Hangar-Store-Timestamp", Long.toString(m.storeTimestamp()));
        h.put("X-Hangar-Born-Timestamp", Long.toString(m.bornTimestamp()));
        StringJoiner pairs = new StringJoiner("&");
        m.properties().forEach((k, v) -> pairs.add(encode(k) + "=" + encode(v)));
        h.put(MessageProperties.PAIRS_HEADER, pairs.toString());
        return h;
    }

    /** Percent-encoding with %20 for a space (a header value is not a form: + would read back as a plus). */
    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
