package dev.hangar.bench;

import java.util.List;

/**
 * Which queues of a workload hold all their messages yet. A poll resumes at the first queue still short and stops at
 * the next one short, so it costs about what became readable since the last poll, not the number of queues: summing
 * the max offsets of all 100 000 queues of {@code queues-100k-256b-4t} every millisecond kept the bench's main thread
 * busy on one of the machine's two cores while the dispatch thread it waits for caught up. A queue's max offset only
 * grows, so a queue once seen full stays full. Built before the clock starts; used by one thread.
 */
final class ReadableCursor {
    private final String[] topics;
    /** Messages each queue receives, indexed {@code topic * QUEUES + queue}. */
    private final long[] expected;
    private int next;

    ReadableCursor(Workload w) {
        List<String> names = w.topicNames();
        topics = names.toArray(String[]::new);
        expected = new long[topics.length * Workload.QUEUES];
        int calls = w.effectiveMessages() / w.batchSize();
        for (int c = 0; c < calls; c++) {
            int first = c * w.batchSize();
            expected[w.topicIndexOf(first) * Workload.QUEUES + w.queueOf(first)] += w.batchSize();
        }
    }

    /** True once every queue holds its messages. */
    boolean allReadable(BenchEngine engine) {
        while (next < expected.length) {
            long want = expected[next];
            if (want > 0 && engine.maxOffsetInQueue(topics[next / Workload.QUEUES], next % Workload.QUEUES) < want) {
                return false;
            }
            next++;
        }
        return true;
    }
}
