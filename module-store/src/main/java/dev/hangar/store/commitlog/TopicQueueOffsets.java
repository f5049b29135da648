package dev.hangar.store.commitlog;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The next queue offset of every topic-queue. Advanced only under the put lock; read by anyone. Per topic a
 * growable array indexed by queue id, so a put looks up its counter without building a key string.
 */
public final class TopicQueueOffsets {
    private final ConcurrentHashMap<String, long[]> offsets = new ConcurrentHashMap<>();

    /** The next offset of a queue (0 when unknown). */
    public long next(String topic, int queueId) {
        long[] arr = offsets.get(topic);
        return arr == null || queueId >= arr.length ? 0 : arr[queueId];
    }

    /** Advances a queue by {@code count}. Caller holds the put lock. */
    public void advance(String topic, int queueId, int count) {
        long[] arr = offsets.get(topic);
        if (arr == null || queueId >= arr.length) {
            long[] grown = arr == null ? new long[Math.max(8, queueId + 1)] : Arrays.copyOf(arr, Math.max(arr.length * 2, queueId + 1));
            offsets.put(topic, grown);
            arr = grown;
        }
        arr[queueId] += count;
    }

    /** Sets a queue's next offset (recovery). */
    public synchronized void set(String topic, int queueId, long next) {
        advance(topic, queueId, 0);
        offsets.get(topic)[queueId] = Math.max(0, next);
    }

    /** Raises a queue's next offset to at least {@code next}. */
    public synchronized void raise(String topic, int queueId, long next) {
        if (next > next(topic, queueId)) {
            set(topic, queueId, next);
        }
    }

    public void clear() {
        offsets.clear();
    }

    /** Snapshot topic -> queueId -> next offset, for stats. */
    public Map<String, Map<Integer, Long>> snapshot() {
        Map<String, Map<Integer, Long>> out = new LinkedHashMap<>();
        offsets.forEach((topic, arr) -> {
            Map<Integer, Long> q = new LinkedHashMap<>();
            for (int i = 0; i < arr.length; i++) {
                if (arr[i] > 0) {
                    q.put(i, arr[i]);
                }
            }
            out.put(topic, q);
        });
        return out;
    }
}
