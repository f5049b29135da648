package dev.hangar.launcher.http;

import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.MessageStore;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * One read of a queue answered over HTTP, with long polling and a filter: what the queue read and the group read
 * share. A read that finds nothing at the end of the queue - or, filtered, finds no match up to the end - may wait
 * ({@code wait}) in the {@link LongPollRegistry}; woken by an arrival it reads again from where the last read ended,
 * and when that read matches nothing either (a filtered read: the new message has another tag) it parks again for
 * what is left of the wait. So a filtered long poll is answered by a matching message or by its timeout, never by a
 * message it filters out. Thread-safe.
 */
final class QueueReads {
    /** The statuses of a read at the end of a queue (or of a queue not created yet): worth waiting on. */
    private static final Set<GetMessageStatus> AT_END = Set.of(GetMessageStatus.OFFSET_OVERFLOW_ONE,
            GetMessageStatus.NO_MESSAGE_IN_QUEUE, GetMessageStatus.NO_MATCHED_LOGIC_QUEUE);

    /** A read: {@code decorate} adds to the answer's JSON (the group read adds the group). */
    record Read(String group, String topic, int queueId, int max, MessageFilter filter,
                UnaryOperator<Map<String, Object>> decorate) {
    }

    private final MessageStore store;
    private final LongPollRegistry longPolls;

    QueueReads(MessageStore store, LongPollRegistry longPolls) {
        this.store = store;
        this.longPolls = longPolls;
    }

    /** Reads from {@code offset}, waiting up to {@code waitMillis} for a (matching) message; answers exactly once. */
    void answer(ApiExchange exchange, Read read, long offset, long waitMillis) {
        GetMessageResult result = get(read, offset);
        long waitFrom = waitOffset(offset, result);
        if (waitMillis > 0 && waitFrom >= 0
                && park(exchange, read, waitFrom, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis))) {
            return;
        }
        exchange.respondJson(HttpStatus.OK, json(read, result));
    }

    /**
     * Where a read that found nothing may wait: at the end of the queue, or - a filtered read that scanned to the
     * end without a match - past what it scanned; -1 when it is to be answered now (messages found, or a filtered
     * scan that stopped before the end: the consumer goes on from {@code nextOffset}).
     */
    private static long waitOffset(long offset, GetMessageResult r) {
        if (!r.messages().isEmpty()) {
            return -1;
        }
        if (AT_END.contains(r.status())) {
            return offset;
        }
        if (r.status() == GetMessageStatus.NO_MATCHED_MESSAGE && r.nextBeginOffset() >= r.maxOffset()) {
            return r.nextBeginOffset();
        }
        return -1;
    }

    private boolean park(ApiExchange exchange, Read read, long from, long deadlineNanos) {
        long remaining = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
        if (remaining <= 0) {
            return false;
        }
        return longPolls.park(exchange, read.topic(), read.queueId(), from, remaining,
                arrived -> {
                    GetMessageResult r = get(read, from);
                    long again = waitOffset(from, r);
                    if (again >= 0 && park(arrived, read, again, deadlineNanos)) {
                        return;
                    }
                    arrived.respondJson(HttpStatus.OK, json(read, r));
                },
                givenUp -> givenUp.respondJson(HttpStatus.OK, rereadOrEmpty(read, from)));
    }

    /**
     * When a wait ends the queue is read again: its bounds may have moved. When the store can no longer be read
     * (shutdown), the empty answer at {@code from}.
     */
    private Map<String, Object> rereadOrEmpty(Read read, long from) {
        try {
            return json(read, get(read, from));
        } catch (RuntimeException e) {
            return read.decorate().apply(GetMessagesHandler.toJson(new GetMessageResult(GetMessageStatus.NO_MATCHED_MESSAGE,
                    from, 0, 0, java.util.List.of()), read.max()));
        }
    }

    private GetMessageResult get(Read read, long offset) {
        return store.getMessage(read.group(), read.topic(), read.queueId(), offset, read.max(), read.filter());
    }

    private static Map<String, Object> json(Read read, GetMessageResult r) {
        return read.decorate().apply(GetMessagesHandler.toJson(r, read.max()));
    }
}
