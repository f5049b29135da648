package dev.hangar.launcher.http;

import dev.hangar.launcher.ErrorMessages;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST /v1/topics/{topic}/messages?queue=Q&key=K&key=K2&tag=T}: the body is the message body; user properties
 * come from headers, either {@code X-Hangar-Property-<name>: value} (HTTP header names are case-insensitive, so the
 * name is taken in lower case) or {@code X-Hangar-Property: Name=value} (repeatable; keeps the name's case).
 *
 * <p>Answers {@code {status, msgId, queueId, queueOffset, commitLogOffset}} (plus {@code error} with the store's
 * reason when refused) with 201 for PUT_OK, 400 MESSAGE_ILLEGAL / PROPERTIES_SIZE_EXCEEDED, 503
 * SERVICE_NOT_AVAILABLE / OS_PAGE_CACHE_BUSY / SLAVE_NOT_AVAILABLE (also a put to a slave), 504 FLUSH_DISK_TIMEOUT /
 * FLUSH_SLAVE_TIMEOUT, 500 otherwise.
 *
 * <p>The worker only reads, checks and hands the message to {@link MessageStore#asyncPutMessage}; when the put is
 * not complete at once (a sync flush), the answer is written by the responder executor when the future completes,
 * so no worker waits on a flush. Puts awaiting their future count against the server's pending limit (503 beyond).
 * Thread-safe.
 */
final class PutMessageHandler implements Router.Handler {
    static final Set<String> QUERY = Set.of("queue", "key", "tag");
    static final String PROPERTY_HEADER = "X-Hangar-Property";
    private static final String PROPERTY_PREFIX = PROPERTY_HEADER.toLowerCase(Locale.ROOT) + "-";
    /** Set through parameters ({@code key}, {@code tag}) or by the store itself, never through a property header. */
    private static final Set<String> RESERVED = Set.of(MessageConst.KEYS, MessageConst.TAGS, MessageConst.REAL_TOPIC,
            MessageConst.REAL_QUEUE_ID, MessageConst.TRANSACTION_PREPARED, MessageConst.MSG_REGION);

    private final MessageStore store;
    private final Executor responder;
    private final Semaphore pending;
    private final int maxBodyBytes;
    private final Duration putBound;

    /**
     * @param responder answers puts whose future completes later
     * @param pending   permits for puts awaiting their future (shared with parked long polls)
     * @param putBound  how long a put may go unanswered by the store before it is answered UNKNOWN_ERROR
     */
    PutMessageHandler(MessageStore store, Executor responder, Semaphore pending, int maxBodyBytes, Duration putBound) {
        this.store = store;
        this.responder = responder;
        this.pending = pending;
        this.maxBodyBytes = maxBodyBytes;
        this.putBound = putBound;
    }

    @Override
    public void handle(ApiExchange exchange) throws IOException {
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        QueryParameters query = exchange.query();
        String queueText = query.single("queue");
        int queueId = queueText == null ? 0 : RequestChecks.queueId("queue", queueText);
        List<String> keys = query.all("key").stream().map(RequestChecks::key).toList();
        String tag = query.single("tag");
        if (tag != null && (tag.isEmpty() || RequestChecks.hasSeparator(tag))) {
            throw ApiException.badRequest("a tag cannot be empty or contain U+0001/U+0002");
        }
        Map<String, String> properties = properties(exchange);
        byte[] body = exchange.readBody(maxBodyBytes);

        Message message = new Message(topic, body).queueId(queueId);
        properties.forEach(message::property);
        if (!keys.isEmpty()) {
            message.keys(keys.toArray(String[]::new));
        }
        if (tag != null) {
            message.tags(tag);
        }
        if (!pending.tryAcquire()) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "too many puts are waiting for their flush; retry later");
        }
        CompletableFuture<PutMessageResult> put;
        try {
            put = store.asyncPutMessage(message);
        } catch (RuntimeException e) {
            pending.release();
            throw e;
        }
        if (put.isDone()) {
            answer(exchange, queueId, put.getNow(null), null);
            return;
        }
        PutMessageResult late = PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR,
                "the store did not answer the put within " + putBound.toSeconds() + " s");
        put.copy().completeOnTimeout(late, putBound.toMillis(), TimeUnit.MILLISECONDS)
                .whenCompleteAsync((result, failure) -> answer(exchange, queueId, result, failure), responder);
    }

    private void answer(ApiExchange exchange, int queueId, PutMessageResult result, Throwable failure) {
        try {
            PutMessageResult r = failure == null ? result
                    : PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR, ErrorMessages.oneLine(failure));
            Router.answerSafely(exchange, () -> exchange.respondJson(httpStatus(r.status()), toJson(r, queueId)));
        } finally {
            pending.release();
        }
    }

    static Map<String, Object> toJson(PutMessageResult r, int queueId) {
        AppendMessageResult append = r.appendResult();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("status", r.status());
        json.put("msgId", append == null ? null : append.msgId());
        json.put("queueId", queueId);
        json.put("queueOffset", append == null ? null : append.logicsOffset());
        json.put("commitLogOffset", append == null ? null : append.wroteOffset());
        if (!r.isOk()) {
            json.put("error", r.reason() != null ? r.reason() : r.status().name());
        }
        return json;
    }

    /** The HTTP status a put status is answered with. */
    static int httpStatus(PutMessageStatus status) {
        return switch (status) {
            case PUT_OK -> HttpStatus.CREATED;
            case MESSAGE_ILLEGAL, PROPERTIES_SIZE_EXCEEDED -> HttpStatus.BAD_REQUEST;
            // SLAVE_NOT_AVAILABLE and FLUSH_SLAVE_TIMEOUT: stored on the master (the body says where), not replicated
            case SERVICE_NOT_AVAILABLE, OS_PAGE_CACHE_BUSY, SLAVE_NOT_AVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
            case FLUSH_DISK_TIMEOUT, FLUSH_SLAVE_TIMEOUT -> HttpStatus.GATEWAY_TIMEOUT;
            default -> HttpStatus.INTERNAL_ERROR;
        };
    }

    /** User properties from the property headers; a reserved or malformed one is a 400. */
    static Map<String, String> properties(ApiExchange exchange) {
        Map<String, String> properties = new LinkedHashMap<>();
        exchange.requestHeaders().forEach((header, values) -> {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith(PROPERTY_PREFIX)) {
                String name = lower.substring(PROPERTY_PREFIX.length());
                values.forEach(v -> addProperty(properties, name, v));
            } else if (lower.equals(PROPERTY_HEADER.toLowerCase(Locale.ROOT))) {
                for (String v : values) {
                    int eq = v.indexOf('=');
                    if (eq <= 0) {
                        throw ApiException.badRequest(PROPERTY_HEADER + " takes name=value, not '" + UriCodec.shorten(v) + "'");
                    }
                    addProperty(properties, v.substring(0, eq).trim(), v.substring(eq + 1).trim());
                }
            }
        });
        return properties;
    }

    private static void addProperty(Map<String, String> properties, String name, String value) {
        if (name.isEmpty() || RequestChecks.hasSeparator(name) || RequestChecks.hasSeparator(value)) {
            throw ApiException.badRequest("property '" + UriCodec.shorten(name) + "': a name must not be empty and "
                    + "names and values must not contain U+0001 or U+0002");
        }
        if (RESERVED.contains(name)) {
            throw ApiException.badRequest("property " + name + " is set by the store or through the key/tag parameters");
        }
        if (properties.put(name, value) != null) {
            throw ApiException.badRequest("property '" + UriCodec.shorten(name) + "' is given twice");
        }
    }
}
