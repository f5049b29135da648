package dev.hangar.launcher.http;

import dev.hangar.launcher.ErrorMessages;
import dev.hangar.launcher.MessageRequest;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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
 * {@code POST /v1/topics/{topic}/messages} with {@code Content-Type: application/x-ndjson}: one message per line
 * (see {@link BatchLine}), answered with one JSON result per line, in the order of the lines, as NDJSON.
 *
 * <p>Every line is parsed and checked before anything is stored: a bad line fails the whole request (400 naming
 * its line number) and nothing is stored. Then the messages are stored with the store's batch put where
 * RocketMQ's batch rules allow it - messages of one queue without a delay level, in chunks whose bodies add up to
 * at most {@code maxMessageSize} - and one put per message otherwise (delayed messages). Messages of one queue
 * keep the order of their lines.
 *
 * <p>The answer is 201 when every message was stored; otherwise it has the HTTP status of the first refusal
 * (as for a single put), and each line's result says whether that message was stored. Query parameters:
 * {@code queue} (the queue of lines that name none; default 0) and {@code wait} (as for a single put).
 * Limits: at most {@code maxBatchMessages} lines and {@code maxBatchBytes} bytes (413 beyond). Thread-safe.
 */
final class BatchPutHandler implements Router.Handler {
    static final String NDJSON = "application/x-ndjson";
    /** Parameters of a single put that an NDJSON line carries itself instead. */
    private static final Set<String> PER_LINE = Set.of("key", "tag", MessageProperties.PROPERTY_PARAMETER, "delayLevel");

    private final MessageStore store;
    private final Executor responder;
    private final Semaphore pending;
    private final Duration putBound;
    private final int maxBatchBytes;
    private final int maxBatchMessages;
    private final int maxMessageSize;
    private final int delayLevels;

    /**
     * @param maxMessageSize the store's {@code maxMessageSize}: the most body bytes one batch put carries
     */
    BatchPutHandler(MessageStore store, Executor responder, Semaphore pending, Duration putBound, int maxBatchBytes,
                    int maxBatchMessages, int maxMessageSize, int delayLevels) {
        this.store = store;
        this.responder = responder;
        this.pending = pending;
        this.putBound = putBound;
        this.maxBatchBytes = maxBatchBytes;
        this.maxBatchMessages = maxBatchMessages;
        this.maxMessageSize = maxMessageSize;
        this.delayLevels = delayLevels;
    }

    /** True when the request's body is NDJSON. */
    static boolean isBatch(ApiExchange exchange) {
        String type = exchange.requestHeaders().getFirst("Content-Type");
        if (type == null) {
            return false;
        }
        int semicolon = type.indexOf(';');
        String mediaType = (semicolon < 0 ? type : type.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
        return mediaType.equals(NDJSON);
    }

    @Override
    public void handle(ApiExchange exchange) throws IOException {
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        QueryParameters query = exchange.query();
        for (String name : PER_LINE) {
            if (!query.all(name).isEmpty()) {
                throw ApiException.badRequest("query parameter '" + name + "' is not taken with an NDJSON body: "
                        + "each line carries its own (queue, key/keys, tag, properties, delayLevel)");
            }
        }
        String queueText = query.single("queue");
        int defaultQueue = queueText == null ? 0 : RequestChecks.queueId("queue", queueText);
        Boolean wait = PutMessageHandler.booleanParameter(query, "wait");
        byte[] body = exchange.readBody(maxBatchBytes);
        List<Message> messages = parse(body, topic, defaultQueue, wait != null && !wait);
        if (!pending.tryAcquire()) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "too many puts are waiting for their flush; retry later");
        }
        CompletableFuture<List<Map<String, Object>>> results;
        try {
            results = store(messages);
        } catch (RuntimeException e) {
            pending.release();
            throw e;
        }
        if (results.isDone()) {
            answer(exchange, results.getNow(null), null);
            return;
        }
        results.orTimeout(putBound.toMillis(), TimeUnit.MILLISECONDS)
                .whenCompleteAsync((r, failure) -> answer(exchange, r, failure), responder);
    }

    private List<Message> parse(byte[] body, String topic, int defaultQueue, boolean noWait) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw ApiException.badRequest("the NDJSON body is not valid UTF-8");
        }
        List<Message> messages = new ArrayList<>();
        int lineNumber = 0;
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = text.length();
            }
            lineNumber++;
            String line = text.substring(start, end);
            start = end + 1;
            if (line.isBlank()) {
                continue;
            }
            if (messages.size() == maxBatchMessages) {
                throw new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, "more than " + maxBatchMessages
                        + " messages in one NDJSON request (serve --batch-max-messages)");
            }
            try {
                Message m = BatchLine.parse(line, topic, defaultQueue, delayLevels);
                if (noWait) {
                    m.waitStoreMsgOk(false);
                }
                messages.add(m);
            } catch (ApiException | IllegalArgumentException e) {
                throw ApiException.badRequest("line " + lineNumber + ": " + e.getMessage() + "; nothing was stored");
            }
        }
        if (messages.isEmpty()) {
            throw ApiException.badRequest("the NDJSON body holds no message (one JSON object per line)");
        }
        return messages;
    }

    /** Stores every message; completes with one result per message, in their order. */
    private CompletableFuture<List<Map<String, Object>>> store(List<Message> messages) {
        List<Map<String, Object>> results = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            results.add(null);
        }
        List<CompletableFuture<Void>> puts = new ArrayList<>();
        for (List<Integer> chunk : chunks(messages)) {
            if (chunk.size() == 1) {
                int i = chunk.get(0);
                puts.add(store.asyncPutMessage(messages.get(i)).thenAccept(r -> results.set(i, result(r, messages.get(i), 0))));
            } else {
                List<Message> batch = chunk.stream().map(messages::get).toList();
                puts.add(store.asyncPutMessages(batch).thenAccept(r -> {
                    for (int k = 0; k < chunk.size(); k++) {
                        results.set(chunk.get(k), result(r, batch.get(k), k));
                    }
                }));
            }
        }
        return CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).thenApply(done -> results);
    }

    /**
     * Groups the messages into puts: per queue, in line order, runs of messages without a delay level whose bodies
     * add up to at most {@code maxMessageSize} become one batch put; a delayed message is a put of its own.
     */
    private List<List<Integer>> chunks(List<Message> messages) {
        Map<Integer, List<Integer>> open = new LinkedHashMap<>();
        Map<Integer, Long> openBytes = new LinkedHashMap<>();
        List<List<Integer>> chunks = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m.delayLevel() > 0) {
                chunks.add(List.of(i));
                continue;
            }
            int queue = m.queueId();
            long bytes = m.body().length;
            List<Integer> chunk = open.get(queue);
            if (chunk != null && openBytes.get(queue) + bytes > maxMessageSize) {
                chunks.add(chunk);
                chunk = null;
            }
            if (chunk == null) {
                chunk = new ArrayList<>();
                open.put(queue, chunk);
                openBytes.put(queue, 0L);
            }
            chunk.add(i);
            openBytes.merge(queue, bytes, Long::sum);
        }
        chunks.addAll(open.values());
        return chunks;
    }

    /** The result of the {@code index}-th message of a put. */
    private static Map<String, Object> result(PutMessageResult r, Message m, int index) {
        return MessageRequest.resultJson(r, m.topic(), m.queueId(), index);
    }

    private void answer(ApiExchange exchange, List<Map<String, Object>> results, Throwable failure) {
        try {
            Router.answerSafely(exchange, () -> {
                if (failure != null) {
                    exchange.respondError(HttpStatus.INTERNAL_ERROR, "the store did not answer the batch: "
                            + ErrorMessages.oneLine(failure));
                    return;
                }
                int status = HttpStatus.CREATED;
                StringBuilder out = new StringBuilder(results.size() * 128);
                for (Map<String, Object> r : results) {
                    PutMessageStatus s = (PutMessageStatus) r.get("status");
                    if (status == HttpStatus.CREATED && s != PutMessageStatus.PUT_OK) {
                        status = PutMessageHandler.httpStatus(s);
                    }
                    out.append(JsonWriter.write(r)).append('\n');
                }
                exchange.respond(status, NDJSON + "; charset=utf-8", out.toString().getBytes(StandardCharsets.UTF_8));
            });
        } finally {
            pending.release();
        }
    }
}
