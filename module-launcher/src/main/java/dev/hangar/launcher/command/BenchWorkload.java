package dev.hangar.launcher.command;

import dev.hangar.spi.flush.LatencyHistogram;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.MessageConst;
import dev.hangar.spi.store.MessageStore;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>The put loop does as little of its own as it can, so that it measures the store: the keys are built before
 * the clock ({@link BenchKeys}), each thread reuses its messages and changes only topic, queue, key and born time
 * per call, and its tallies are its own (latencies, statuses, messages per queue, sampled chunks), merged after the
 * joins; only the live total the progress line reads is shared. What is left of the bench's own time is measured
 * and reported ({@link ThreadTime}). Run once per instance from one thread, after {@link #prepare()}.
 */
final class BenchWorkload {
    static final String TAG = "bench";
    static final String TOPIC_PREFIX = "BenchTopic";
    /** Chunks each thread keeps (reservoir-sampled) for the check that their keys are indexed. */
    static final int KEY_SAMPLES = 64;
    /** A deadline this far ahead is never reached (over 70 years). */
    private static final long NEVER_NANOS = Long.MAX_VALUE / 4;
    /** Chunks a put thread claims at a time. */
    static final int CLAIM = 16;

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

        /** Message n's key is this plus n. */
        static final String KEY_PREFIX = "key-";

        static String key(long message) {
            return KEY_PREFIX + message;
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
     * @param time              where the put threads' time went
     */
    record Outcome(long putNanos, long attemptedMessages, long okMessages, Map<PutMessageStatus, Long> statuses,
                   LatencyHistogram latencies, long[] okPerSlot, List<Long> sampleChunks, String firstError,
                   ThreadTime time) {
        long failedMessages() {
            return attemptedMessages - okMessages;
        }
    }

    /**
     * The put threads' time, summed over them: wall time from each thread's start to its end, the part of it spent
     * waiting for a message's due time ({@code --rate}), the bench's own part (preparing the next message, counting
     * the last answer, waiting for a key: everything between the end of one store call and the start of the next),
     * and the CPU time the threads used. The rest of the wall time is in the store's put calls and their answers.
     */
    record ThreadTime(long wallNanos, long pacingNanos, long ownNanos, long cpuNanos) {
        /** The bench's own share of the time the put threads were not waiting for a due time, in percent. */
        double ownPercent() {
            long busy = wallNanos - pacingNanos;
            return busy <= 0 ? 0 : 100.0 * ownNanos / busy;
        }
    }

    /** One thread's tallies; written by that thread only. */
    private static final class Tally {
        final LatencyHistogram latencies = new LatencyHistogram();
        final long[] messagesByStatus = new long[PutMessageStatus.values().length];
        final long[] reservoir = new long[KEY_SAMPLES];
        final long[] okPerSlot;
        long okChunks;
        long lastOkChunk = -1;
        long wallNanos;
        long pacingNanos;
        long ownNanos;
        long cpuNanos;

        Tally(int slots) {
            okPerSlot = new long[slots];
        }

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
    private final String[] topicNames;
    private final BenchKeys keys;
    private final long limitNanos;
    private final AtomicLong nextChunk = new AtomicLong();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final LongAdder okMessagesLive = new LongAdder();
    private volatile long startNanos;
    private volatile long startMillis;
    private volatile long deadlineNanos;

    /**
     * The timed run: topics {@code BenchTopic<i>}, keys {@code key-<n>}.
     *
     * @param putBound how long one put may go unanswered before it counts as failed
     */
    BenchWorkload(MessageStore store, Plan plan, Duration putBound) {
        this(store, plan, putBound, TOPIC_PREFIX, Plan.KEY_PREFIX, 0,
                BenchKeys.capacityFor(Runtime.getRuntime().maxMemory()));
    }

    /**
     * @param topicPrefix  the topics are this plus their index
     * @param keyPrefix    message n's key is this plus n
     * @param limitNanos   > 0: the run also ends after this long (a warm-up round)
     * @param keyCapacity  the most keys built ahead ({@link BenchKeys})
     */
    BenchWorkload(MessageStore store, Plan plan, Duration putBound, String topicPrefix, String keyPrefix,
                  long limitNanos, int keyCapacity) {
        this.store = store;
        this.plan = plan;
        this.putBound = putBound;
        this.limitNanos = limitNanos;
        this.body = new byte[plan.size()];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        this.topicNames = new String[plan.topics()];
        for (int t = 0; t < topicNames.length; t++) {
            topicNames[t] = topicPrefix + t;
        }
        this.keys = new BenchKeys(keyPrefix, plan.bounded() ? plan.messages() : Long.MAX_VALUE, keyCapacity,
                plan.threads());
    }

    /** Messages put with PUT_OK so far; read by the progress line while the run goes on. */
    long okMessagesSoFar() {
        return okMessagesLive.sum();
    }

    /** Builds the run's keys that fit in memory; call before {@link #run()}, outside the clock. */
    void prepare() {
        keys.prefill();
    }

    /** Keys built so far (before the clock, and since on the producer thread). */
    long keysBuilt() {
        return keys.built();
    }

    /** CPU time the key producer thread used during the run (0 when every key was built before the clock). */
    long keyProducerCpuNanos() {
        return keys.producerCpuNanos();
    }

    Outcome run() throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Tally> tallies = new ArrayList<>();
        startMillis = System.currentTimeMillis();
        startNanos = System.nanoTime();
        long bound = plan.bounded() ? 0 : plan.durationSeconds() * 1_000_000_000L;
        if (limitNanos > 0) {
            bound = bound == 0 ? limitNanos : Math.min(bound, limitNanos);
        }
        // with no time bound, a deadline that never comes: the loop takes the same branch as in a warm-up round
        // (bounded by time), so the JIT's code from the warm-up is not thrown away at the timed run's first put
        deadlineNanos = startNanos + (bound == 0 ? NEVER_NANOS : bound);
        try {
            for (int t = 0; t < plan.threads(); t++) {
                Tally tally = new Tally(plan.topics() * plan.queues());
                tallies.add(tally);
                int index = t;
                Thread thread = new Thread(() -> putChunks(index, tally), "bench-put-" + t);
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
        } finally {
            keys.close();
        }
        return outcome(System.nanoTime() - startNanos, tallies);
    }

    /** A put whose answer is still to come. */
    private record Pending(long chunk, long due, int messages, CompletableFuture<PutMessageResult> answer) {
    }

    /**
     * One put thread. Its clock marks split its time: {@code mark} is the end of the last store call (or of the
     * wait for its answer), {@code ready} the moment the next call is about to start; {@code ready - mark} is the
     * bench's own time. Reusing one set of messages per thread is safe: the store encodes a message within the call.
     */
    private void putChunks(int thread, Tally tally) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpuTime = mx.isCurrentThreadCpuTimeSupported();
        long cpu0 = cpuTime ? mx.getCurrentThreadCpuTime() : 0;
        long deadline = deadlineNanos;
        Outbox outbox = new Outbox(plan.batch(), body);
        ArrayDeque<Pending> pending = new ArrayDeque<>(plan.inflight());
        long begin = System.nanoTime();
        long mark = begin;
        try {
            long claimEnd = 0;
            for (long chunk = claim(0, 0); chunk < plan.chunks(); chunk = claim(chunk + 1, claimEnd)) {
                if (chunk >= claimEnd) {
                    claimEnd = chunk + CLAIM;
                }
                long first = plan.firstMessage(chunk);
                keys.taking(thread, first);
                int count = plan.messagesIn(chunk);
                // the born time from the last clock read: a clock read costs ~70-140 ns on this project's VMs
                long born = startMillis + (mark - startNanos) / 1_000_000;
                List<Message> messages = outbox.fill(topicNames[plan.topicIndex(chunk)], plan.queueId(chunk), keys,
                        first, count, born);
                long ready = System.nanoTime();
                tally.ownNanos += ready - mark;
                long due;
                if (plan.rate() > 0) {
                    due = startNanos + plan.dueNanos(chunk);
                    if (due - deadline >= 0) {
                        break;
                    }
                    long woke = waitUntil(due, ready);
                    tally.pacingNanos += woke - ready;
                } else {
                    due = ready;
                    if (due - deadline >= 0) {
                        break;
                    }
                }
                CompletableFuture<PutMessageResult> answer;
                try {
                    answer = count == 1 ? store.asyncPutMessage(messages.get(0)) : store.asyncPutMessages(messages);
                } catch (RuntimeException e) {
                    answer = CompletableFuture.failedFuture(e);
                }
                if (plan.inflight() == 1) {
                    mark = settle(chunk, due, count, answer, tally);
                } else {
                    pending.addLast(new Pending(chunk, due, count, answer));
                    mark = pending.size() >= plan.inflight() ? settle(pending.removeFirst(), tally) : System.nanoTime();
                }
            }
            while (!pending.isEmpty()) {
                settle(pending.removeFirst(), tally);
            }
        } finally {
            keys.done(thread);
        }
        tally.wallNanos = System.nanoTime() - begin;
        tally.cpuNanos = cpuTime ? mx.getCurrentThreadCpuTime() - cpu0 : 0;
    }

    /**
     * The next chunk for a thread whose next one in its claim would be {@code next}: that one while the claim lasts,
     * else the first of a fresh claim of {@link #CLAIM} chunks. Claims are taken in increasing order ({@link BenchKeys}
     * relies on it), and few: one contended increment per claim instead of one per put.
     */
    private long claim(long next, long claimEnd) {
        return next < claimEnd ? next : nextChunk.getAndAdd(CLAIM);
    }

    /**
     * One put thread's messages, reused for every call: one per message of a batch, each with its key and the tag
     * set ({@code KEYS} first, as a producer's message has them), so a call changes a few fields and no map grows.
     */
    private static final class Outbox {
        private final List<Message> messages = new ArrayList<>();

        Outbox(int batch, byte[] body) {
            for (int i = 0; i < batch; i++) {
                messages.add(new Message(TOPIC_PREFIX, body).keys("-").tags(TAG));
            }
        }

        List<Message> fill(String topic, int queueId, BenchKeys keys, long first, int count, long born) {
            for (int i = 0; i < count; i++) {
                messages.get(i).topic(topic).queueId(queueId).bornTimestamp(born)
                        .property(MessageConst.KEYS, keys.key(first + i));
            }
            return count == messages.size() ? messages : messages.subList(0, count);
        }
    }

    private long settle(Pending put, Tally tally) {
        return settle(put.chunk(), put.due(), put.messages(), put.answer(), tally);
    }

    /** Waits for one put's answer and counts it; returns the clock when the answer was there. */
    private long settle(long chunk, long due, int messages, CompletableFuture<PutMessageResult> answer, Tally tally) {
        PutMessageResult result = StoreSession.answer(answer, putBound);
        long answered = System.nanoTime();
        PutMessageStatus status = result.status();
        if (!result.isOk() && result.reason() != null) {
            firstError.compareAndSet(null, status + ": " + result.reason());
        }
        tally.latencies.record((answered - due) / 1000);
        tally.messagesByStatus[status.ordinal()] += messages;
        if (status == PutMessageStatus.PUT_OK) {
            tally.okPerSlot[plan.slot(plan.topicIndex(chunk), plan.queueId(chunk))] += messages;
            okMessagesLive.add(messages);
            tally.sampleOk(chunk);
        }
        return answered;
    }

    /** Parks until {@code due}; returns the clock when it is due ({@code now} when it already was). */
    private static long waitUntil(long due, long now) {
        for (long wait = due - now; wait > 0; wait = due - now) {
            LockSupport.parkNanos(wait);
            now = System.nanoTime();
        }
        return now;
    }

    private Outcome outcome(long putNanos, List<Tally> tallies) {
        // the joins in run() publish every thread's tallies to this thread
        LatencyHistogram latencies = new LatencyHistogram();
        long[] byStatus = new long[PutMessageStatus.values().length];
        List<Long> samples = new ArrayList<>();
        long[] perSlot = new long[plan.topics() * plan.queues()];
        long wall = 0;
        long pacing = 0;
        long own = 0;
        long cpu = 0;
        for (Tally t : tallies) {
            for (int i = 0; i < perSlot.length; i++) {
                perSlot[i] += t.okPerSlot[i];
            }
            wall += t.wallNanos;
            pacing += t.pacingNanos;
            own += t.ownNanos;
            cpu += t.cpuNanos;
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
        long ok = statuses.getOrDefault(PutMessageStatus.PUT_OK, 0L);
        return new Outcome(putNanos, attempted, ok, statuses, latencies, perSlot, samples, firstError.get(),
                new ThreadTime(wall, pacing, own, cpu));
    }
}
