package dev.hangar.launcher.http;

import dev.hangar.spi.store.MessageArrivingListener;
import dev.hangar.spi.store.MessageStore;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Long polls waiting at the end of a queue. A parked request holds no thread: its exchange sits in the waiter set
 * of its queue until the store's {@link MessageArrivingListener} says the queue grew past the offset asked for -
 * then it is answered by re-reading the queue - or until its wait ends (a timer) or the server stops - then it is
 * given up: answered with the empty result it was parked with.
 *
 * <p>No wake-up is lost: a waiter is added to its set first and the queue's max offset read after, so a message
 * dispatched between the read that found nothing and the parking is seen by one or the other. Each waiter is
 * answered once: listener, timer and shutdown race for it with a compare-and-set.
 *
 * <p>{@link #arriving} runs on the store's dispatch thread and must not block: it only claims waiters and hands
 * the re-reads to the responder executor. Thread-safe.
 */
final class LongPollRegistry implements MessageArrivingListener {
    private record QueueKey(String topic, int queueId) {
    }

    /** One parked request. */
    private static final class Waiter {
        final QueueKey queue;
        final long offset;
        final ApiExchange exchange;
        final Consumer<ApiExchange> onArrival;
        final Consumer<ApiExchange> onGiveUp;
        final AtomicBoolean claimed = new AtomicBoolean();
        volatile ScheduledFuture<?> timeout;

        Waiter(QueueKey queue, long offset, ApiExchange exchange, Consumer<ApiExchange> onArrival,
               Consumer<ApiExchange> onGiveUp) {
            this.queue = queue;
            this.offset = offset;
            this.exchange = exchange;
            this.onArrival = onArrival;
            this.onGiveUp = onGiveUp;
        }
    }

    private final MessageStore store;
    private final ScheduledExecutorService timer;
    private final Executor responder;
    private final Semaphore pending;
    private final Map<QueueKey, Set<Waiter>> waiters = new ConcurrentHashMap<>();
    private final AtomicInteger parked = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param timer     ends waits
     * @param responder re-reads and answers woken requests
     * @param pending   permits for parked requests (shared with puts awaiting their flush)
     */
    LongPollRegistry(MessageStore store, ScheduledExecutorService timer, Executor responder, Semaphore pending) {
        this.store = store;
        this.timer = timer;
        this.responder = responder;
        this.pending = pending;
    }

    /**
     * Parks {@code exchange} until queue {@code topic}/{@code queueId} holds a message at {@code offset} or more -
     * then {@code onArrival} re-reads the queue and answers - or until {@code waitMillis} pass or the server stops -
     * then {@code onGiveUp} answers.
     *
     * @return false when the request cannot be parked (too many are, or the server is stopping): the caller answers
     */
    boolean park(ApiExchange exchange, String topic, int queueId, long offset, long waitMillis,
                 Consumer<ApiExchange> onArrival, Consumer<ApiExchange> onGiveUp) {
        if (closed || !pending.tryAcquire()) {
            return false;
        }
        Waiter waiter = new Waiter(new QueueKey(topic, queueId), offset, exchange, onArrival, onGiveUp);
        waiters.compute(waiter.queue, (key, set) -> {
            Set<Waiter> s = set != null ? set : ConcurrentHashMap.newKeySet();
            s.add(waiter);
            return s;
        });
        parked.incrementAndGet();
        try {
            waiter.timeout = timer.schedule(() -> finish(waiter, false), waitMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            finish(waiter, false);
            return true;
        }
        // the message may have been dispatched after the read that found nothing and before the add above
        if (store.getMaxOffsetInQueue(topic, queueId) > offset) {
            finish(waiter, true);
        } else if (closed) {
            finish(waiter, false);
        }
        return true;
    }

    @Override
    public void arriving(String topic, int queueId, long maxOffset) {
        if (parked.get() == 0) {
            return;
        }
        Set<Waiter> set = waiters.get(new QueueKey(topic, queueId));
        if (set == null) {
            return;
        }
        for (Waiter w : set) {
            if (maxOffset > w.offset) {
                finish(w, true);
            }
        }
    }

    /**
     * Claims the waiter (once), forgets it and has it answered on the responder.
     *
     * @param arrived true when its message is there (re-read), false when it is given up (empty answer)
     */
    private void finish(Waiter w, boolean arrived) {
        if (!w.claimed.compareAndSet(false, true)) {
            return;
        }
        waiters.computeIfPresent(w.queue, (key, set) -> {
            set.remove(w);
            return set.isEmpty() ? null : set;
        });
        parked.decrementAndGet();
        ScheduledFuture<?> t = w.timeout;
        if (t != null) {
            t.cancel(false);
        }
        Runnable task = () -> {
            try {
                Router.answerSafely(w.exchange, () -> (arrived ? w.onArrival : w.onGiveUp).accept(w.exchange));
            } finally {
                pending.release();
            }
        };
        try {
            responder.execute(task);
        } catch (RejectedExecutionException e) {
            task.run();
        }
    }

    /** Requests parked now. */
    int parked() {
        return parked.get();
    }

    /** Stops parking and answers every parked request now (server shutdown). */
    void close() {
        closed = true;
        for (Set<Waiter> set : waiters.values()) {
            set.forEach(w -> finish(w, false));
        }
    }
}
