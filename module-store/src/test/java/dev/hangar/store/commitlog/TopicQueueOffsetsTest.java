package dev.hangar.store.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

class TopicQueueOffsetsTest {

    @Test
    void aTopicKeepsOneCountersObjectWhateverStringInstanceNamesIt() {
        TopicQueueOffsets offsets = new TopicQueueOffsets();
        TopicQueueOffsets.TopicCounters first = offsets.countersOf("orders-" + 7);
        // a put's topic arrives as a new String each time (decoded from a request); it must find the same counters
        assertSame(first, offsets.countersOf(new String("orders-7")));
        first.advance(3, 2);
        assertEquals(2, offsets.next("orders-7", 3));
        assertEquals(0, offsets.next("orders-7", 4));
        assertEquals(0, offsets.next("unknown", 0));
    }

    @Test
    void countersTakenBeforeALargerQueueIdGrowsTheArrayStillAdvanceTheLiveOne() {
        TopicQueueOffsets offsets = new TopicQueueOffsets();
        // two writers look their topic up before the put lock; one then puts to queue 40 (past the first 8 slots)
        TopicQueueOffsets.TopicCounters writerA = offsets.countersOf("t");
        TopicQueueOffsets.TopicCounters writerB = offsets.countersOf("t");
        writerA.advance(0, 1);
        writerB.advance(40, 5);
        writerA.advance(0, 1);
        writerA.advance(40, 1);
        assertEquals(2, offsets.next("t", 0));
        assertEquals(6, offsets.next("t", 40));
        assertEquals(java.util.Map.of(0, 2L, 40, 6L), offsets.snapshot().get("t"));
    }

    @Test
    void aHugeQueueIdTakesOneSlotNotAnArrayUpToIt() {
        TopicQueueOffsets offsets = new TopicQueueOffsets();
        TopicQueueOffsets.TopicCounters counters = offsets.countersOf("t");
        // the old table grew its array to queueId + 1 longs: this asked for 16 GB and threw OutOfMemoryError
        counters.advance(2_000_000_000, 1);
        counters.advance(2_000_000_000, 1);
        counters.advance(TopicQueueOffsets.TopicCounters.DENSE_QUEUE_IDS, 3);
        counters.advance(TopicQueueOffsets.TopicCounters.DENSE_QUEUE_IDS - 1, 4);
        assertEquals(2, offsets.next("t", 2_000_000_000));
        assertEquals(3, offsets.next("t", TopicQueueOffsets.TopicCounters.DENSE_QUEUE_IDS));
        assertEquals(4, offsets.next("t", TopicQueueOffsets.TopicCounters.DENSE_QUEUE_IDS - 1));
        assertEquals(0, offsets.next("t", 1_999_999_999));
        offsets.raise("t", Integer.MAX_VALUE, 7);
        assertEquals(7, counters.next(Integer.MAX_VALUE));
        assertEquals(java.util.List.of(TopicQueueOffsets.TopicCounters.DENSE_QUEUE_IDS - 1,
                        TopicQueueOffsets.TopicCounters.DENSE_QUEUE_IDS, 2_000_000_000, Integer.MAX_VALUE),
                java.util.List.copyOf(offsets.snapshot().get("t").keySet()));
    }

    @Test
    void recoveryRaisesOnlyUpwardAndSetsThroughTheSameCounters() {
        TopicQueueOffsets offsets = new TopicQueueOffsets();
        TopicQueueOffsets.TopicCounters held = offsets.countersOf("t");
        offsets.raise("t", 12, 9);
        offsets.raise("t", 12, 4);
        assertEquals(9, held.next(12));
        offsets.set("t", 12, -3);
        assertEquals(0, held.next(12), "a negative offset is clamped to 0");
    }

    /**
     * Writers as {@link CommitLog#append} uses the table: the topic looked up before the lock, read and advanced
     * under it, with queue ids that keep growing the arrays. Every queue offset handed out must be unique and the
     * counts complete; a writer that advanced a replaced array would lose increments and hand out duplicates.
     */
    @Test
    void concurrentWritersLookingUpBeforeTheLockLoseNoOffset() throws Exception {
        TopicQueueOffsets offsets = new TopicQueueOffsets();
        ReentrantLock putLock = new ReentrantLock();
        int threads = 4;
        int putsPerThread = 20_000;
        int topics = 50;
        int queues = 64;
        boolean[][][] seen = new boolean[topics][queues][64]; // each queue gets 25 offsets
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int w = 0; w < threads; w++) {
            int seed = w;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < putsPerThread; i++) {
                        int n = i * threads + seed;
                        int topic = n % topics;
                        int queue = (n / topics) % queues; // ids rise as the run goes: arrays grow mid-run
                        TopicQueueOffsets.TopicCounters counters = offsets.countersOf("topic-" + topic);
                        putLock.lock();
                        try {
                            long offset = counters.next(queue);
                            if (seen[topic][queue][(int) offset]) {
                                throw new AssertionError("offset " + offset + " of " + topic + "-" + queue + " twice");
                            }
                            seen[topic][queue][(int) offset] = true;
                            counters.advance(queue, 1);
                        } finally {
                            putLock.unlock();
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            writers.add(t);
            t.start();
        }
        start.countDown();
        for (Thread t : writers) {
            t.join(TimeUnit.MINUTES.toMillis(2));
        }
        assertTrue(failures.isEmpty(), () -> "writer failed: " + failures);
        long total = 0;
        for (int topic = 0; topic < topics; topic++) {
            for (int queue = 0; queue < queues; queue++) {
                total += offsets.next("topic-" + topic, queue);
            }
        }
        assertEquals((long) threads * putsPerThread, total);
    }
}
