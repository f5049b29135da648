package dev.hangar.launcher.command;

import dev.hangar.spi.flush.LatencyHistogram;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The put phase of {@code bench}: {@code threads} threads put messages in calls of {@code batch} messages
 * ("chunks", numbered from 0), spread round-robin over {@code topics} x {@code queues}, until {@code messages} are
 * put or {@code durationSeconds} have passed. Message {@code n} carries the one key {@code key-<n>} and the tag
 * {@link #TAG}.
 *
 * <p>With a {@code rate} (messages per second across all threads) chunk {@code c} is due at
 * {@code start + c * batch / rate}; a thread waits for that time, and its latency is measured from it, not from
 * when the call began. So when the store stalls, the messages that should have been sent meanwhile count their
 * wait too (no coordinated omission). Without a rate, latency is from the call.
 *
 * <p>With {@code inflight} N > 1 each thread keeps N {@code asyncPutMessage(s)} calls outstanding: it issues puts
 * until N are unanswered, then waits for the oldest; a put's latency runs from its call (or due time) to its answer.
 *
 * <p>Each thread keeps its own tallies (latencies, statuses, sampled chunks), merged after the joins; only the
 * live totals the progress line reads are shared. Run once per instance from one thread.
 */
final class BenchWorkload {
    static final String TAG = "bench";
    static final String TOPIC_PREFIX = "BenchTopic";
    /** Chunks each thread keeps (reservoir-sampled) for the check that their keys are indexed. */
    static final int KEY_SAMPLES = 64;

    /**
     * What to write.
     *
     * @param messages        messages to put, or 0 to put until {@code durationSeconds} have passed
     * @param durationSeconds how long to put when {@code messages} is 0
     * @param rate            messages per second across all threads, or 0 for as fast as possible
     */
    record Plan(int messages, int durationSeconds, int size, int threads, int topics, int queues, int batch, int rate,
                int inflight) {
        /** One put outstanding per thread (a closed loop). */
        Plan(int messages, int durationSeconds, int size, int threads, int topics, int queues, int batch, int rate) {
            this(messages, durationSeconds, size, threads, topics, queues, batch, rate, 1);
        }

        boolean bounded() {
            return messages > 0;
        }

        long chunks() {
            return bounded() ? (messages + batch - 1) / batch : Long.MAX_VALUE;
        }

        long firstMessage(long chunk) {
            return chunk * batch;
        }

        int messagesIn(long chunk) {
            return bounded() ? (int) Math.min(batch, messages - chunk * batch) : batch;
        }

        int topicIndex(long chunk) {
            return (int) (chunk % topics);
        }

        int queueId(long chunk) {
            return (int) ((chunk / topics) % queues);
        }

        /** Index of a (topic, queue) pair in per-queue arrays. */
        int slot(int topicIndex, int queueId) {
            return topicIndex * queues + queueId;
        }

        /** With a rate: when chunk {@code chunk} is due, in nanoseconds after the start. */
        long dueNanos(long chunk) {
            return (long) (chunk * (double) batch * 1e9 / rate);
        }

        static String topic(int topicIndex) {
            return TOPIC_PREFIX + topicIndex;
        }

        static String key(long message) {
            return "key-" + message;
        }
    }

    /**
     * What happened.
     *
     * @param putNanos          from the first put to the end of the last
     * @param attemptedMessages messages in every put call made
     * @param okMessages        messages put with PUT_OK
     * @param statuses          messages by put status (exceptions count as UNKNOWN_ERROR)
     * @param latencies         one value per put call, in microseconds
     * @param okPerSlot         PUT_OK messages per (topic, queue) slot
     * @param sampleChunks      chunks put with PUT_OK, sampled over the run, the last of each thread included
     * @param firstError        the first exception or refusal reason, or null
     */
    record Outcome(long putNanos, long attemptedMessages, long okMessages, Map<PutMessageStatus, Long> statuses,
                   LatencyHistogram latencies, long[] okPerSlot, List<Long> sampleChunks, String firstError) {
        long failedMessages() {
            return attemptedMessages - okMessages;
        }
    }

    /** One thread's tallies; written by that thread only. */
    private static final class Tally {
        final LatencyHistogram latencies = new LatencyHistogram();
        final long[] messagesByStatus = new long[PutMessageStatus.values().length];
        final long[] reservoir = new long[KEY_SAMPLES];
        long okChunks;
        long lastOkChunk = -1;

        void sampleOk(long chunk) {
            okChunks++;
            lastOkChunk = chunk;
            if (okChunks <= KEY_SAMPLES) {
                reservoir[(int) okChunks - 1] = chunk;
            } else {
                long slot = ThreadLocalRandom.current().nextLong(okChunks);
                if (slot < KEY_SAMPLES) {
                    reservoir[(int) slot] = chunk;
                }
            }
        }
    }

    private final MessageStore store;
    private final Plan plan;
    private final Duration putBound;
    private final byte[] body;
    private final AtomicLongArray okPerSlot;
    private final AtomicLong nextChunk = new AtomicLong();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final LongAdder okMessagesLive = new LongAdder();
    private volatile long startNanos;
    private volatile long deadlineNanos;

    /** @param putBound how long one put may go unanswered before it counts as failed */
    BenchWorkload(MessageStore store, Plan plan, Duration putBound) {
        this.store = store;
        this.plan = plan;
        this.putBound = putBound;
        this.body = new byte[plan.size()];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        this.okPerSlot = new AtomicLongArray(plan.topics() * plan.queues());
    }

    /** Messages put with PUT_OK so far; read by the progress line while the run goes on. */
    long okMessagesSoFar() {
        return okMessagesLive.sum();
    }

    Outcome run() throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Tally> tallies = new ArrayList<>();
        startNanos = System.nanoTime();
        deadlineNanos = plan.bounded() ? 0 : startNanos + plan.durationSeconds() * 1_000_000_000L;
        for (int t = 0; t < plan.threads(); t++) {
            Tally tally = new Tally();
            tallies.add(tally);
            Thread thread = new Thread(() -> putChunks(tally), "bench-put-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return outcome(System.nanoTime() - startNanos, tallies);
    }

    /** A put whose answer is still to come. */
    private record Pending(long chunk, long due, int messages, CompletableFuture<PutMessageResult> answer) {
    }

    private void putChunks(Tally tally) {
        long deadline = deadlineNanos;
        ArrayDeque<Pending> pending = new ArrayDeque<>(plan.inflight());
        for (long chunk = nextChunk.getAndIncrement(); chunk < plan.chunks(); chunk = nextChunk.getAndIncrement()) {
            long due;
            if (plan.rate() > 0) {
                due = startNanos + plan.dueNanos(chunk);
                if (deadline != 0 && due - deadline >= 0) {
                    break;
                }
                waitUntil(due);
            } else {
                due = System.nanoTime();
                if (deadline != 0 && due - deadline >= 0) {
                    break;
                }
            }
            List<Message> messages = messages(chunk);
            CompletableFuture<PutMessageResult> answer;
            try {
                answer = messages.size() == 1 ? store.asyncPutMessage(messages.get(0))
                        : store.asyncPutMessages(messages);
            } catch (RuntimeException e) {
                answer = CompletableFuture.failedFuture(e);
            }
            pending.addLast(new Pending(chunk, due, messages.size(), answer));
            if (pending.size() >= plan.inflight()) {
                settle(pending.removeFirst(), tally);
            }
        }
        while (!pending.isEmpty()) {
            settle(pending.removeFirst(), tally);
        }
    }

    /** Waits for one put's answer and counts it. */
    private void settle(Pending put, Tally tally) {
        PutMessageStatus status;
        PutMessageResult result = StoreSession.answer(put.answer(), putBound);
        status = result.status();
        if (!result.isOk() && result.reason() != null) {
            firstError.compareAndSet(null, status + ": " + result.reason());
        }
        tally.latencies.record((System.nanoTime() - put.due()) / 1000);
        tally.messagesByStatus[status.ordinal()] += put.messages();
        if (status == PutMessageStatus.PUT_OK) {
            okPerSlot.addAndGet(plan.slot(plan.topicIndex(put.chunk()), plan.queueId(put.chunk())), put.messages());
            okMessagesLive.add(put.messages());
            tally.sampleOk(put.chunk());
        }
    }

    private static void waitUntil(long due) {
        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
            LockSupport.parkNanos(wait);
        }
    }

    private List<Message> messages(long chunk) {
        String topic = Plan.topic(plan.topicIndex(chunk));
        int queueId = plan.queueId(chunk);
        long first = plan.firstMessage(chunk);
        List<Message> messages = new ArrayList<>(plan.messagesIn(chunk));
        for (long n = first; n < first + plan.messagesIn(chunk); n++) {
            messages.add(new Message(topic, body).queueId(queueId).keys(Plan.key(n)).tags(TAG));
        }
        return messages;
    }

    private Outcome outcome(long putNanos, List<Tally> tallies) {
        // the joins in run() publish every thread's tallies to this thread
        LatencyHistogram latencies = new LatencyHistogram();
        long[] byStatus = new long[PutMessageStatus.values().length];
        List<Long> samples = new ArrayList<>();
        for (Tally t : tallies) {
            latencies.add(t.latencies);
            for (int i = 0; i < byStatus.length; i++) {
                byStatus[i] += t.messagesByStatus[i];
            }
            for (int i = 0; i < Math.min(KEY_SAMPLES, t.okChunks); i++) {
                samples.add(t.reservoir[i]);
            }
            if (t.lastOkChunk >= 0) {
                samples.add(t.lastOkChunk);
            }
        }
        Map<PutMessageStatus, Long> statuses = new EnumMap<>(PutMessageStatus.class);
        long attempted = 0;
        for (PutMessageStatus s : PutMessageStatus.values()) {
            if (byStatus[s.ordinal()] > 0) {
                statuses.put(s, byStatus[s.ordinal()]);
                attempted += byStatus[s.ordinal()];
            }
        }
        long[] perSlot = new long[okPerSlot.length()];
        for (int i = 0; i < perSlot.length; i++) {
            perSlot[i] = okPerSlot.get(i);
        }
        long ok = statuses.getOrDefault(PutMessageStatus.PUT_OK, 0L);
        return new Outcome(putNanos, attempted, ok, statuses, latencies, perSlot, samples, firstError.get());
    }
}
