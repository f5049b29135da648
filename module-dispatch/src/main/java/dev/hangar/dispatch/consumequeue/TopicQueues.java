package dev.hangar.dispatch.consumequeue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ConsumeQueues of one topic by queue id: a slot in an array for ids below {@link #DENSE_QUEUE_IDS}, a map
 * entry above (RocketMQ does not bound a queue id; brokers keep them small, so the map is made only on the first
 * large one). With 100 000 new queues in a burst, the inner {@code ConcurrentHashMap} this replaces cost the dispatch
 * thread a node, a reservation node and a capturing lambda per new queue and a map per topic, all live until the
 * next young collection (docs/PERFORMANCE.md); a slot costs nothing.
 *
 * <p>Thread-safety: {@link #add} from one thread at a time (the dispatch thread, or loading while nothing
 * dispatches; it is synchronized anyway, it runs once per queue); {@link #get} and iteration from any thread. A
 * queue is published by the volatile write of the array after its slot is set.
 */
final class TopicQueues implements Iterable<ConsumeQueue> {
    /** Queue ids below this are array slots. */
    static final int DENSE_QUEUE_IDS = 1 << 12;

    /** Ids below {@link #DENSE_QUEUE_IDS}; replaced by a longer copy when a larger id comes. */
    private volatile ConsumeQueue[] dense = new ConsumeQueue[8];
    /** Ids from {@link #DENSE_QUEUE_IDS} on; null until the first such id. */
    private volatile ConcurrentHashMap<Integer, ConsumeQueue> sparse;

    /** The queue of {@code queueId} (not negative), or null. */
    ConsumeQueue get(int queueId) {
        ConsumeQueue[] slots = dense;
        if (queueId < slots.length) {
            return slots[queueId];
        }
        ConcurrentHashMap<Integer, ConsumeQueue> far = sparse;
        return far == null || queueId < DENSE_QUEUE_IDS ? null : far.get(queueId);
    }

    /** Adds the queue of {@code queueId} (not negative), replacing none: the caller found no queue there. */
    synchronized void add(int queueId, ConsumeQueue queue) {
        if (queueId >= DENSE_QUEUE_IDS) {
            ConcurrentHashMap<Integer, ConsumeQueue> far = sparse;
            if (far == null) {
                far = new ConcurrentHashMap<>();
                sparse = far;
            }
            far.put(queueId, queue);
            return;
        }
        ConsumeQueue[] slots = dense;
        if (queueId >= slots.length) {
            slots = Arrays.copyOf(slots, Math.min(DENSE_QUEUE_IDS, Math.max(slots.length * 2, queueId + 1)));
        }
        slots[queueId] = queue;
        dense = slots; // publishes the slot (also when the array is the same)
    }

    /** The queues in queue id order. */
    @Override
    public Iterator<ConsumeQueue> iterator() {
        ConsumeQueue[] slots = dense;
        ConcurrentHashMap<Integer, ConsumeQueue> far = sparse;
        Iterator<ConsumeQueue> beyond = far == null ? null : new ArrayList<>(new TreeMap<>(far).values()).iterator();
        return new Iterator<>() {
            private int next = advance(0);

            private int advance(int from) {
                int i = from;
                while (i < slots.length && slots[i] == null) {
                    i++;
                }
                return i;
            }

            @Override
            public boolean hasNext() {
                return next < slots.length || (beyond != null && beyond.hasNext());
            }

            @Override
            public ConsumeQueue next() {
                if (next < slots.length) {
                    ConsumeQueue queue = slots[next];
                    next = advance(next + 1);
                    return queue;
                }
                if (beyond != null) {
                    return beyond.next();
                }
                throw new NoSuchElementException();
            }
        };
    }

    /** The queue ids that have a queue, in order (for tests). */
    List<Integer> queueIds() {
        List<Integer> ids = new ArrayList<>();
        for (ConsumeQueue queue : this) {
            ids.add(queue.queueId());
        }
        return ids;
    }
}
