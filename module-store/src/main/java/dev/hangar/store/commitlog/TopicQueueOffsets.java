package dev.hangar.store.commitlog;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The next queue offset of every topic-queue. Advanced only under the put lock; read by anyone. Per topic one
 * {@link TopicCounters}, a growable array indexed by queue id, so a put looks up its counter without building a key
 * string.
 *
 * <p>A writer finds its topic's counters with {@link #countersOf} <em>before</em> it takes the put lock: that is the
 * part whose cost grows with the number of topics (hashing a topic String that arrived with the message, comparing
 * it with the stored key, a cache miss per level, and, while topics keep coming, the map's resizes). Under the lock
 * only an array index is left. The counters object of a topic never changes once made, only its array is replaced
 * when a larger queue id comes, so a reference taken before the lock is still the live one under it.
 */
public final class TopicQueueOffsets {
    private final ConcurrentHashMap<String, TopicCounters> offsets = new ConcurrentHashMap<>();

    /**
     * One topic's next queue offsets, indexed by queue id. Advanced only under the put lock (or, in recovery, under
     * the owning table's monitor while nothing puts); read by any thread.
     */
    public static final class TopicCounters {
        /**
         * Queue ids below this are slots of one array; larger ones (RocketMQ does not bound a queue id, brokers keep
         * them small) go to a map, so one put with a huge id cannot make the array that large (a put to queue
         * 2 000 000 000 would have asked for a 16 GB array under the put lock).
         */
        static final int DENSE_QUEUE_IDS = 1 << 12;

        /** Queue ids below {@link #DENSE_QUEUE_IDS}; replaced by a longer copy when a larger id comes. */
        private volatile long[] next = new long[8];
        /** Queue ids from {@link #DENSE_QUEUE_IDS} on; made on the first such id. */
        private volatile ConcurrentHashMap<Integer, long[]> sparse;

        /** The next offset of queue {@code queueId} of this topic (0 when it never took one). */
        public long next(int queueId) {
            long[] arr = next;
            if (queueId < arr.length) {
                return arr[queueId];
            }
            ConcurrentHashMap<Integer, long[]> far = sparse;
            long[] slot = far == null || queueId < DENSE_QUEUE_IDS ? null : far.get(queueId);
            return slot == null ? 0 : slot[0];
        }

        /** Advances queue {@code queueId} by {@code count}. Caller holds the put lock. */
        public void advance(int queueId, int count) {
            slotOf(queueId)[indexIn(queueId)] += count;
        }

        /**
         * Every queue of this topic starts again at 0 (its topic was deleted). In place, because writers hold this
         * object from before the put lock. Caller holds the put lock (or, in recovery, the table's monitor).
         */
        void reset() {
            next = new long[8];
            sparse = null;
        }

        private void set(int queueId, long value) {
            slotOf(queueId)[indexIn(queueId)] = value;
        }

        private static int indexIn(int queueId) {
            return queueId < DENSE_QUEUE_IDS ? queueId : 0;
        }

        /** The array holding {@code queueId}'s counter, grown or made when needed. */
        private long[] slotOf(int queueId) {
            if (queueId < DENSE_QUEUE_IDS) {
                long[] arr = next;
                if (queueId >= arr.length) {
                    arr = Arrays.copyOf(arr, Math.min(DENSE_QUEUE_IDS, Math.max(arr.length * 2, queueId + 1)));
                    next = arr;
                }
                return arr;
            }
            ConcurrentHashMap<Integer, long[]> far = sparse;
            if (far == null) {
                far = new ConcurrentHashMap<>();
                sparse = far;
            }
            return far.computeIfAbsent(queueId, id -> new long[1]);
        }

        private void forEachStarted(java.util.function.BiConsumer<Integer, Long> action) {
            long[] arr = next;
            for (int i = 0; i < arr.length; i++) {
                if (arr[i] > 0) {
                    action.accept(i, arr[i]);
                }
            }
            ConcurrentHashMap<Integer, long[]> far = sparse;
            if (far != null) {
                new java.util.TreeMap<>(far).forEach((id, slot) -> {
                    if (slot[0] > 0) {
                        action.accept(id, slot[0]);
                    }
                });
            }
        }
    }

    /**
     * The counters of {@code topic}, made on its first use. Call it outside the put lock: it hashes the topic and may
     * grow the map. The same object is returned for a topic for the life of this table (unless {@link #clear}).
     */
    public TopicCounters countersOf(String topic) {
        TopicCounters counters = offsets.get(topic);
        return counters != null ? counters : offsets.computeIfAbsent(topic, t -> new TopicCounters());
    }

    /** The next offset of a queue (0 when unknown). */
    public long next(String topic, int queueId) {
        TopicCounters counters = offsets.get(topic);
        return counters == null ? 0 : counters.next(queueId);
    }

    /** Advances a queue by {@code count}. Caller holds the put lock. */
    public void advance(String topic, int queueId, int count) {
        countersOf(topic).advance(queueId, count);
    }

    /** Sets a queue's next offset (recovery). */
    public synchronized void set(String topic, int queueId, long next) {
        countersOf(topic).set(queueId, Math.max(0, next));
    }

    /** Raises a queue's next offset to at least {@code next}. */
    public synchronized void raise(String topic, int queueId, long next) {
        if (next > next(topic, queueId)) {
            set(topic, queueId, next);
        }
    }

    /**
     * Every queue of {@code topic} starts again at offset 0 (the topic was deleted). Caller holds the put lock, or
     * nothing puts (recovery).
     */
    public synchronized void forget(String topic) {
        TopicCounters counters = offsets.get(topic);
        if (counters != null) {
            counters.reset();
        }
    }

    /**
     * Every queue of every topic starts again at offset 0, keeping the counter objects (a writer holding one still
     * counts in this table). Only while nothing puts: a node becoming the leader before it takes the offsets from
     * its queues.
     */
    public synchronized void resetAll() {
        offsets.values().forEach(TopicCounters::reset);
    }

    /** Forgets every queue; only while nothing puts (counters a writer already holds would be cut off). */
    public void clear() {
        offsets.clear();
    }

    /** Snapshot topic -> queueId -> next offset, for stats. */
    public Map<String, Map<Integer, Long>> snapshot() {
        Map<String, Map<Integer, Long>> out = new LinkedHashMap<>();
        offsets.forEach((topic, counters) -> {
            Map<Integer, Long> q = new LinkedHashMap<>();
            counters.forEachStarted(q::put);
            out.put(topic, q);
        });
        return out;
    }
}
