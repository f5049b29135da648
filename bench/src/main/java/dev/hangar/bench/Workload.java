package dev.hangar.bench;

import java.util.List;

/**
 * One benchmark workload, run the same way on both engines: {@code messages} puts of {@code messageSize}-byte
 * bodies from {@code threads} writer threads, each message with one unique key and one tag, on 8 queues of one
 * topic; {@code batchSize} > 1 puts that many messages per call; {@code inflight} > 1 keeps that many async puts
 * outstanding per thread. Immutable.
 *
 * @param lock          which put lock: the engine's default, or spin / reentrant on both engines
 * @param transientPool write into a pooled direct buffer committed to the file (both engines' transient pool)
 */
public record Workload(String name, String title, int messageSize, int threads, int messages, int batchSize,
                       boolean syncFlush, Lock lock, boolean transientPool, int topics, int inflight) {

    /**
     * The put lock a workload asks for. SPIN is a pure spin lock on both engines; ADAPTIVE is Hangar's
     * spin-then-park lock (RocketMQ has none and runs its pure spin lock in that row).
     */
    public enum Lock { DEFAULT, SPIN, ADAPTIVE, REENTRANT }

    /** A workload on the 8 queues of one topic. */
    public Workload(String name, String title, int messageSize, int threads, int messages, int batchSize,
                    boolean syncFlush, Lock lock, boolean transientPool) {
        this(name, title, messageSize, threads, messages, batchSize, syncFlush, lock, transientPool, 1, 1);
    }

    /** A workload on {@code topics} topics of 8 queues each. */
    public Workload(String name, String title, int messageSize, int threads, int messages, int batchSize,
                    boolean syncFlush, Lock lock, boolean transientPool, int topics) {
        this(name, title, messageSize, threads, messages, batchSize, syncFlush, lock, transientPool, topics, 1);
    }

    /** The same workload with another name and message count (the warm-up). */
    public Workload resized(String newName, int newMessages) {
        return new Workload(newName, title, messageSize, threads, newMessages, batchSize, syncFlush, lock,
                transientPool, topics, inflight);
    }

    public static final String TOPIC = "BenchTopic";
    public static final int QUEUES = 8;
    public static final String TAG = "TagA";

    /** Every workload; {@code quick} shrinks the counts for a smoke run. */
    public static List<Workload> all(boolean quick) {
        int k = quick ? 200 : 1;
        return List.of(
                new Workload("async-1k-4t", "async flush, 1 KiB, 4 threads", 1024, 4, 2_000_000 / k, 1, false,
                        Lock.DEFAULT, false),
                new Workload("async-128b-4t", "async flush, 128 B, 4 threads", 128, 4, 5_000_000 / k, 1, false,
                        Lock.DEFAULT, false),
                new Workload("async-1k-16t-spin", "async flush, 1 KiB, 16 threads, pure spin lock", 1024, 16,
                        1_000_000 / k, 1, false, Lock.SPIN, false),
                new Workload("async-1k-16t-adaptive",
                        "async flush, 1 KiB, 16 threads, Hangar's adaptive lock (RocketMQ: pure spin)", 1024, 16,
                        1_000_000 / k, 1, false, Lock.ADAPTIVE, false),
                new Workload("async-1k-16t-reentrant", "async flush, 1 KiB, 16 threads, reentrant lock", 1024, 16,
                        1_000_000 / k, 1, false, Lock.REENTRANT, false),
                new Workload("transient-pool-1k-4t", "async flush, transient store pool, 1 KiB, 4 threads", 1024, 4,
                        3_000_000 / k, 1, false, Lock.DEFAULT, true),
                new Workload("sync-1k-16t", "sync flush, 1 KiB, 16 threads", 1024, 16, 150_000 / k, 1, true,
                        Lock.DEFAULT, false),
                new Workload("sync-1k-64t", "sync flush, 1 KiB, 64 threads", 1024, 64, 400_000 / k, 1, true,
                        Lock.DEFAULT, false),
                new Workload("sync-1k-4t-inflight256", "sync flush, 1 KiB, 4 threads x 256 async puts in flight",
                        1024, 4, 400_000 / k, 1, true, Lock.DEFAULT, false, 1, 256),
                new Workload("async-1k-1t", "async flush, 1 KiB, 1 thread", 1024, 1, 1_000_000 / k, 1, false,
                        Lock.DEFAULT, false),
                new Workload("batch32-256b-4t", "async flush, batches of 32 x 256 B, 4 threads", 256, 4,
                        8_000_000 / k, 32, false, Lock.DEFAULT, false),
                new Workload("many-queues-256b-4t", "async flush, 256 B, 4 threads, 1,000 topics x 8 queues", 256, 4,
                        200_000 / k, 1, false, Lock.DEFAULT, false, 1000));
    }

    /** Puts (calls) each thread makes. */
    public int callsPerThread() {
        return messages / batchSize / threads;
    }

    /** Messages actually put: rounded down to whole batches per thread. */
    public int effectiveMessages() {
        return callsPerThread() * batchSize * threads;
    }

    /** Index of the first message of writer {@code thread}'s {@code call}-th put. */
    public int first(int thread, int call) {
        return (thread * callsPerThread() + call) * batchSize;
    }

    /** The queue of the message (or batch) starting at message index {@code first}. */
    public int queueOf(int first) {
        return (first / batchSize) % QUEUES;
    }

    /** The topic of the message (or batch) starting at message index {@code first}. */
    public String topicOf(int first) {
        return topics == 1 ? TOPIC : TOPIC + ((first / batchSize / QUEUES) % topics);
    }

    /** Every topic the workload writes. */
    public List<String> topicNames() {
        if (topics == 1) {
            return List.of(TOPIC);
        }
        List<String> names = new java.util.ArrayList<>(topics);
        for (int t = 0; t < topics; t++) {
            names.add(TOPIC + t);
        }
        return names;
    }

    /** The unique key of message {@code i}. */
    public static String key(int i) {
        return "bk-" + i;
    }
}
