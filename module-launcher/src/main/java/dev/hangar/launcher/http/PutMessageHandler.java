package dev.hangar.launcher.http;

import dev.hangar.launcher.ErrorMessages;
import dev.hangar.launcher.MessageRequest;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST /v1/topics/{topic}/messages?queue=Q&key=K&key=K2&tag=T&property=Name=value&delayLevel=N&wait=B}: the
 * body is the message body. User properties come from the carriers of {@link MessageProperties} (the query
 * parameter and {@code X-Hangar-Properties} keep the name's case). {@code delayLevel} (1 to the number of
 * {@code messageDelayLevel} levels; 0 = none) delays delivery as RocketMQ's {@code DELAY} property does;
 * {@code wait=false} (RocketMQ's {@code WAIT} property) answers a SYNC_FLUSH put without waiting for its fsync.
 * A body of type {@code application/x-ndjson} is a batch, handed to {@link BatchPutHandler}.
 *
 * <p>Answers {@link MessageRequest#resultJson} ({@code error} with the store's reason when refused) with the HTTP status of {@link #httpStatus}.
 *
 * <p>The worker only reads, checks and hands the message to {@link MessageStore#asyncPutMessage}; when the put is
 * not complete at once (a sync flush), the answer is written by the responder executor when the future completes,
 * so no worker waits on a flush. Puts awaiting their future count against the server's pending limit (503 beyond).
 * Thread-safe.
 */
final class PutMessageHandler implements Router.Handler {
    static final Set<String> QUERY = Set.of("queue", "key", "tag", MessageProperties.PROPERTY_PARAMETER,
            "delayLevel", "wait");

    private final MessageStore store;
    private final Executor responder;
    private final Semaphore pending;
    private final int maxBodyBytes;
    private final Duration putBound;
    private final int delayLevels;
    private final BatchPutHandler batches;

    /**
     * @param responder answers puts whose future completes later
     * @param pending   permits for puts awaiting their future (shared with parked long polls)
     * @param putBound  how long a put may go unanswered by the store before it is answered UNKNOWN_ERROR
     * @param delayLevels how many delay levels the store has ({@code messageDelayLevel})
     * @param batches   serves NDJSON bodies
     */
    PutMessageHandler(MessageStore store, Executor responder, Semaphore pending, int maxBodyBytes, Duration putBound,
                      int delayLevels, BatchPutHandler batches) {
        this.store = store;
        this.responder = responder;
        this.pending = pending;
        this.maxBodyBytes = maxBodyBytes;
        this.putBound = putBound;
        this.delayLevels = delayLevels;
        this.batches = batches;
    }

    @Override
    public void handle(ApiExchange exchange) throws IOException {
        if (BatchPutHandler.isBatch(exchange)) {
            batches.handle(exchange);
            return;
        }
        String topic = RequestChecks.topic(exchange.pathParameter("topic"));
        QueryParameters query = exchange.query();
        String queueText = query.single("queue");
        int queueId = queueText == null ? 0 : RequestChecks.queueId("queue", queueText);
        List<String> keys = query.all("key");
        String tag = query.single("tag");
        MessageProperties properties = MessageProperties.of(exchange);
        int delayLevel = query.intValue("delayLevel", 0, 0, delayLevels);
        if (delayLevel > 0) {
            properties.setFromParameter(MessageConst.DELAY_TIME_LEVEL, Integer.toString(delayLevel), "delayLevel");
        }
        Boolean wait = booleanParameter(query, "wait");
        if (wait != null && !wait) {
            properties.setFromParameter(MessageConst.WAIT_STORE_MSG_OK, "false", "wait");
        }
        byte[] body = exchange.readBody(maxBodyBytes);

        Message message = new MessageRequest(topic, queueId, keys, tag, properties.asMap()).toMessage(body);
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
            answer(exchange, topic, queueId, put.getNow(null), null);
            return;
        }
        PutMessageResult late = PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR,
                "the store did not answer the put within " + putBound.toSeconds() + " s");
        put.copy().completeOnTimeout(late, putBound.toMillis(), TimeUnit.MILLISECONDS)
                .whenCompleteAsync((result, failure) -> answer(exchange, topic, queueId, result, failure), responder);
    }

    private void answer(ApiExchange exchange, String topic, int queueId, PutMessageResult result, Throwable failure) {
        try {
            PutMessageResult r = failure == null ? result
                    : PutMessageResult.refused(PutMessageStatus.UNKNOWN_ERROR, ErrorMessages.oneLine(failure));
            Router.answerSafely(exchange, () -> exchange.respondJson(httpStatus(r.status()), MessageRequest.resultJson(r, topic, queueId, 0)));
        } finally {
            pending.release();
        }
    }

    /** {@code true} or {@code false}, or null when absent; anything else is a 400. */
    static Boolean booleanParameter(QueryParameters query, String name) {
        String text = query.single(name);
        if (text == null) {
            return null;
        }
        return switch (text) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw ApiException.badRequest(name + " must be true or false, not '" + UriCodec.shorten(text) + "'");
        };
    }

    /**
     * The HTTP status a put status is answered with. Every status is named (no default branch), so a status added
     * to {@link PutMessageStatus} does not compile until it is given its answer here.
     */
    static int httpStatus(PutMessageStatus status) {
        return switch (status) {
            case PUT_OK -> HttpStatus.CREATED;
            case MESSAGE_ILLEGAL, PROPERTIES_SIZE_EXCEEDED, LMQ_CONSUME_QUEUE_NUM_EXCEEDED -> HttpStatus.BAD_REQUEST;
            // SLAVE_NOT_AVAILABLE and FLUSH_SLAVE_TIMEOUT: stored on the master (the body says where), not replicated
            case SERVICE_NOT_AVAILABLE, OS_PAGE_CACHE_BUSY, SLAVE_NOT_AVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
            case FLUSH_DISK_TIMEOUT, FLUSH_SLAVE_TIMEOUT -> HttpStatus.GATEWAY_TIMEOUT;
            case CREATE_MAPPED_FILE_FAILED, UNKNOWN_ERROR -> HttpStatus.INTERNAL_ERROR;
        };
    }
}
