package dev.hangar.launcher.command;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The put phase of {@code bench}: {@code threads} threads put {@code messages} messages, in calls of
 * {@code batch} messages ("chunks"), spread round-robin over {@code topics} x {@code queues}. Message
 * {@code n} carries the one key {@code key-<n>} and the tag {@link #TAG}.
 *
 * <p>Each chunk is taken by exactly one thread and writes only its own slots of the result arrays, so the
 * latencies are exact (one per put call) without locking. Run once per instance from one thread.
 */
final class BenchWorkload {
    static final String TAG = "bench";
    static final String TOPIC_PREFIX = "BenchTopic";

    /** What to write. */
    record Plan(int messages, int size, int threads, int topics, int queues, int batch) {
        int chunks() {
            return (messages + batch - 1) / batch;
        }

        int firstMessage(int chunk) {
            return chunk * batch;
        }

        int messagesIn(int chunk) {
            return Math.min(batch, messages - chunk * batch);
        }

        int topicIndex(int chunk) {
            return chunk % topics;
        }

        int queueId(int chunk) {
            return (chunk / topics) % queues;
        }

        /** Index of a (topic, queue) pair in per-queue arrays. */
        int slot(int topicIndex, int queueId) {
            return topicIndex * queues + queueId;
        }

        static String topic(int topicIndex) {
            return TOPIC_PREFIX + topicIndex;
        }

        static String key(int message) {
            return "key-" + message;
        }
    }

    /**
     * What happened.
     *
     * @param putNanos         from the first put to the end of the last
     * @param okMessages       messages put with PUT_OK
     * @param statuses         messages by put status (exceptions count as UNKNOWN_ERROR)
     * @param latenciesMicros  one per put call, sorted ascending
     * @param okPerSlot        PUT_OK messages per (topic, queue) slot
     * @param chunkOk          per chunk: put with PUT_OK
     * @param firstError       the first exception or refusal reason, or null
     */
    record Outcome(long putNanos, long okMessages, Map<PutMessageStatus, Long> statuses, long[] latenciesMicros,
                   long[] okPerSlot, boolean[] chunkOk, String firstError) {
        long failedMessages(int total) {
            return total - okMessages;
        }

        /** Exact percentile of the put-call latencies, q in [0, 1]. */
        long percentileMicros(double q) {
            if (latenciesMicros.length == 0) {
                return 0;
            }
            int rank = (int) Math.ceil(q * latenciesMicros.length);
            return latenciesMicros[Math.max(0, Math.min(latenciesMicros.length - 1, rank - 1))];
        }
    }

    private final MessageStore store;
    private final Plan plan;
    private final Duration putBound;
    private final byte[] body;
    private final long[] latencies;
    private final PutMessageStatus[] chunkStatus;
    private final AtomicLongArray okPerSlot;
    private final AtomicInteger nextChunk = new AtomicInteger();
    private final AtomicReference<String> firstError = new AtomicReference<>();

    /** @param putBound how long one put may go unanswered before it counts as failed */
    BenchWorkload(MessageStore store, Plan plan, Duration putBound) {
        this.store = store;
        this.plan = plan;
        this.putBound = putBound;
        this.body = new byte[plan.size()];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        this.latencies = new long[plan.chunks()];
        this.chunkStatus = new PutMessageStatus[plan.chunks()];
        this.okPerSlot = new AtomicLongArray(plan.topics() * plan.queues());
    }

    Outcome run() throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < plan.threads(); t++) {
            Thread thread = new Thread(this::putChunks, "bench-put-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        long putNanos = System.nanoTime() - start;
        return outcome(putNanos);
    }

    private void putChunks() {
        for (int chunk = nextChunk.getAndIncrement(); chunk < plan.chunks(); chunk = nextChunk.getAndIncrement()) {
            List<Message> messages = messages(chunk);
            PutMessageStatus status;
            long began = System.nanoTime();
            try {
                PutMessageResult result = StoreSession.answer(messages.size() == 1
                        ? store.asyncPutMessage(messages.get(0)) : store.asyncPutMessages(messages), putBound);
                status = result.status();
                if (!result.isOk() && result.reason() != null) {
                    firstError.compareAndSet(null, status + ": " + result.reason());
                }
            } catch (RuntimeException e) {
                status = PutMessageStatus.UNKNOWN_ERROR;
                firstError.compareAndSet(null, e.toString());
            }
            latencies[chunk] = (System.nanoTime() - began) / 1000;
            chunkStatus[chunk] = status;
            if (status == PutMessageStatus.PUT_OK) {
                okPerSlot.addAndGet(plan.slot(plan.topicIndex(chunk), plan.queueId(chunk)), messages.size());
            }
        }
    }

    private List<Message> messages(int chunk) {
        String topic = Plan.topic(plan.topicIndex(chunk));
        int queueId = plan.queueId(chunk);
        int first = plan.firstMessage(chunk);
        List<Message> messages = new ArrayList<>(plan.messagesIn(chunk));
        for (int n = first; n < first + plan.messagesIn(chunk); n++) {
            messages.add(new Message(topic, body).queueId(queueId).keys(Plan.key(n)).tags(TAG));
        }
        return messages;
    }

    private Outcome outcome(long putNanos) {
        Map<PutMessageStatus, Long> statuses = new EnumMap<>(PutMessageStatus.class);
        boolean[] chunkOk = new boolean[plan.chunks()];
        long ok = 0;
        for (int chunk = 0; chunk < plan.chunks(); chunk++) {
            // the joins above publish every chunk's slots to this thread
            statuses.merge(chunkStatus[chunk], (long) plan.messagesIn(chunk), Long::sum);
            chunkOk[chunk] = chunkStatus[chunk] == PutMessageStatus.PUT_OK;
            if (chunkOk[chunk]) {
                ok += plan.messagesIn(chunk);
            }
        }
        long[] perSlot = new long[okPerSlot.length()];
        for (int i = 0; i < perSlot.length; i++) {
            perSlot[i] = okPerSlot.get(i);
        }
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        return new Outcome(putNanos, ok, statuses, sorted, perSlot, chunkOk, firstError.get());
    }
}
