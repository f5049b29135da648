package dev.hangar.bench;

import java.util.List;

/**
 * One benchmark workload, run the same way on every engine it names: {@code messages} puts of
 * {@code messageSize}-byte bodies from {@code threads} writer threads, each message with one unique key and one
 * tag, on 8 queues of one topic (or of {@code topics} topics); {@code batchSize} > 1 puts that many messages per
 * call; {@code inflight} > 1 keeps that many async puts outstanding per thread. Immutable.
 *
 * @param lock          which put lock: the engine's default, or spin / reentrant on both engines
 * @param transientPool write into a pooled direct buffer committed to the file (both engines' transient pool)
 * @param engines       the engines that run it (see {@link #HANGAR} and the others), shuffled in every round
 * @param fixedRounds   rounds this workload runs whatever the run's rounds (0: the run's rounds)
 * @param intervalNanos > 0: each writer's puts are paced on an absolute schedule, one every that many
 *                      nanoseconds (see {@link PacedSchedule}); 0: as fast as possible
 */
public record Workload(String name, String title, int messageSize, int threads, int messages, int batchSize,
                       boolean syncFlush, Lock lock, boolean transientPool, int topics, int inflight,
                       List<String> engines, int fixedRounds, long intervalNanos) {

    /**
     * The put lock a workload asks for. SPIN is a pure spin lock on both engines; ADAPTIVE is Hangar's
     * spin-then-park lock (RocketMQ has none and runs its pure spin lock in that row).
     */
    public enum Lock { DEFAULT, SPIN, ADAPTIVE, REENTRANT }

    /** Hangar with its defaults (pretoucher on), or without the pretoucher in the put-stall row. */
    public static final String HANGAR = "hangar";
    /** Hangar with {@code warmMapedFileEnable=true}: its CommitLog pretoucher faults pages in ahead of the writer. */
    public static final String HANGAR_PRETOUCH = "hangar-pretouch";
    /** Apache RocketMQ 4.9.8's DefaultMessageStore. */
    public static final String ROCKETMQ = "rocketmq";
    /** Chronicle Queue, raw append without ConsumeQueue or index (raw-append rows only). */
    public static final String CHRONICLE = "chronicle";

    /** The name of the put-stall workload, whose rate comes from {@link #ONE_THREAD} of the same run. */
    public static final String PUT_STALL = "put-stall-1k-1t";
    /** The 1-thread raw-append workload. */
    public static final String ONE_THREAD = "async-1k-1t";

    public Workload {
        engines = List.copyOf(engines);
        if (engines.isEmpty()) {
            throw new IllegalArgumentException("workload " + name + " names no engine");
        }
    }

    /** A workload on the 8 queues of one topic, run by Hangar and RocketMQ. */
    public Workload(String name, String title, int messageSize, int threads, int messages, int batchSize,
                    boolean syncFlush, Lock lock, boolean transientPool) {
        this(name, title, messageSize, threads, messages, batchSize, syncFlush, lock, transientPool, 1, 1);
    }

    /** A workload on {@code topics} topics of 8 queues each, run by Hangar and RocketMQ. */
    public Workload(String name, String title, int messageSize, int threads, int messages, int batchSize,
                    boolean syncFlush, Lock lock, boolean transientPool, int topics) {
        this(name, title, messageSize, threads, messages, batchSize, syncFlush, lock, transientPool, topics, 1);
    }

    /** A workload with {@code inflight} async puts outstanding per thread, run by Hangar and RocketMQ. */
    public Workload(String name, String title, int messageSize, int threads, int messages, int batchSize,
                    boolean syncFlush, Lock lock, boolean transientPool, int topics, int inflight) {
        this(name, title, messageSize, threads, messages, batchSize, syncFlush, lock, transientPool, topics, inflight,
                List.of(HANGAR, ROCKETMQ), 0, 0);
    }

    /** The same workload with another name and message count (the warm-up, the calibration). */
    public Workload resized(String newName, int newMessages) {
        return new Workload(newName, title, messageSize, threads, newMessages, batchSize, syncFlush, lock,
                transientPool, topics, inflight, engines, fixedRounds, intervalNanos);
    }

    /** The same workload run by {@code newEngines}. */
    public Workload withEngines(String... newEngines) {
        return new Workload(name, title, messageSize, threads, messages, batchSize, syncFlush, lock, transientPool,
                topics, inflight, List.of(newEngines), fixedRounds, intervalNanos);
    }

    /** The same workload run {@code rounds} times whatever the run's rounds. */
    public Workload withFixedRounds(int rounds) {
        return new Workload(name, title, messageSize, threads, messages, batchSize, syncFlush, lock, transientPool,
                topics, inflight, engines, rounds, intervalNanos);
    }

    /**
     * The same workload paced at {@code perSecond} puts per second per thread for {@code seconds} seconds: as many
     * messages as that makes.
     */
    public Workload paced(double perSecond, int seconds) {
        if (!(perSecond > 0) || seconds <= 0) {
            throw new IllegalArgumentException("a paced workload needs a rate > 0 and seconds > 0, not " + perSecond
                    + "/s for " + seconds + " s");
        }
        long interval = Math.max(1, Math.round(1e9 / perSecond));
        long perThread = Math.max(1, (long) seconds * 1_000_000_000L / interval);
        int total = (int) Math.min(Integer.MAX_VALUE / 2, perThread * threads);
        return new Workload(name, title, messageSize, threads, total, batchSize, syncFlush, lock, transientPool,
                topics, inflight, engines, fixedRounds, interval);
    }

    /** Rounds this workload runs in a run of {@code runRounds}. */
    public int rounds(int runRounds) {
        return fixedRounds > 0 ? fixedRounds : runRounds;
    }

    public boolean isPaced() {
        return intervalNanos > 0;
    }

    public static final String TOPIC = "BenchTopic";
    public static final int QUEUES = 8;
    public static final String TAG = "TagA";

    /**
     * Every workload; {@code quick} shrinks the counts for a smoke run. The put-stall workload here is a template:
     * {@link BenchMain} paces it at half the 1-thread rate of the same run.
     */
    public static List<Workload> all(boolean quick) {
        int k = quick ? 200 : 1;
        return List.of(
                new Workload("async-1k-4t", "async flush, 1 KiB, 4 threads", 1024, 4, 2_000_000 / k, 1, false,
                        Lock.DEFAULT, false).withEngines(HANGAR, ROCKETMQ, CHRONICLE),
                new Workload("async-128b-4t", "async flush, 128 B, 4 threads", 128, 4, 3_000_000 / k, 1, false,
                        Lock.DEFAULT, false),
                new Workload("async-1k-16t-spin", "async flush, 1 KiB, 16 threads, pure spin lock", 1024, 16,
                        400_000 / k, 1, false, Lock.SPIN, false),
                new Workload("async-1k-16t-adaptive",
                        "async flush, 1 KiB, 16 threads, Hangar's adaptive lock (RocketMQ: pure spin)", 1024, 16,
                        400_000 / k, 1, false, Lock.ADAPTIVE, false),
                new Workload("async-1k-16t-reentrant", "async flush, 1 KiB, 16 threads, reentrant lock", 1024, 16,
                        1_000_000 / k, 1, false, Lock.REENTRANT, false),
                new Workload("transient-pool-1k-4t", "async flush, transient store pool, 1 KiB, 4 threads", 1024, 4,
                        2_000_000 / k, 1, false, Lock.DEFAULT, true),
                new Workload("sync-1k-16t", "sync flush, 1 KiB, 16 threads", 1024, 16, 100_000 / k, 1, true,
                        Lock.DEFAULT, false),
                new Workload("sync-1k-64t", "sync flush, 1 KiB, 64 threads", 1024, 64, 256_000 / k, 1, true,
                        Lock.DEFAULT, false),
                new Workload("sync-1k-4t-inflight256", "sync flush, 1 KiB, 4 threads x 256 async puts in flight",
                        1024, 4, 400_000 / k, 1, true, Lock.DEFAULT, false, 1, 256),
                // SYNC_FLUSH over Hangar's write buffer (group commit pwrites it, then forces): the write path whose
                // forces cost a fifth of those of stores through the mapping (docs/PERFORMANCE.md). RocketMQ 4.9.8
                // has no such mode: it ignores its transient pool under SYNC_FLUSH, so it runs the rows above only.
                new Workload("sync-1k-16t-pool", "sync flush over the transient pool's write buffer, 1 KiB, "
                        + "16 threads", 1024, 16, 100_000 / k, 1, true, Lock.DEFAULT, true).withEngines(HANGAR),
                new Workload("sync-1k-4t-inflight256-pool", "sync flush over the transient pool's write buffer, "
                        + "1 KiB, 4 threads x 256 async puts in flight", 1024, 4, 400_000 / k, 1, true, Lock.DEFAULT,
                        true, 1, 256).withEngines(HANGAR),
                new Workload(ONE_THREAD, "async flush, 1 KiB, 1 thread", 1024, 1, 1_000_000 / k, 1, false,
                        Lock.DEFAULT, false).withEngines(HANGAR, ROCKETMQ, CHRONICLE),
                new Workload("batch32-256b-4t", "async flush, batches of 32 x 256 B, 4 threads", 256, 4,
                        4_000_000 / k, 32, false, Lock.DEFAULT, false),
                new Workload("async-256b-4t", "async flush, 256 B, 4 threads, 1 topic x 8 queues (the many-queues "
                        + "reference)", 256, 4, 200_000 / k, 1, false, Lock.DEFAULT, false),
                new Workload("many-queues-256b-4t", "async flush, 256 B, 4 threads, 1,000 topics x 8 queues", 256, 4,
                        200_000 / k, 1, false, Lock.DEFAULT, false, 1000),
                new Workload("queues-100k-256b-4t", "async flush, 256 B, 4 threads, 12,500 topics x 8 queues "
                        + "(100,000 queues)", 256, 4, 200_000 / k, 1, false, Lock.DEFAULT, false, 12_500)
                        .withEngines(HANGAR).withFixedRounds(1),
                new Workload(PUT_STALL, "async flush, 1 KiB, 1 thread, paced at half the 1-thread rate", 1024, 1,
                        1, 1, false, Lock.DEFAULT, false).withEngines(HANGAR_PRETOUCH, HANGAR, ROCKETMQ,
                        CHRONICLE).withFixedRounds(1));
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
        return topics == 1 ? TOPIC : TOPIC + topicIndexOf(first);
    }

    /** The index in {@link #topicNames()} of the topic of the message (or batch) starting at {@code first}. */
    public int topicIndexOf(int first) {
        return topics == 1 ? 0 : (first / batchSize / QUEUES) % topics;
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
