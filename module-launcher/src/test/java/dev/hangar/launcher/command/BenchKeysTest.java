package dev.hangar.launcher.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The bench's key ring hands every put thread the right key, whether the run fits in it or the producer refills it. */
class BenchKeysTest {

    @Test
    void aRunThatFitsIsBuiltWholeBeforeTheClockWithNoProducerThread() throws InterruptedException {
        BenchKeys keys = new BenchKeys("key-", 50_000, 4 * BenchKeys.BLOCK, 1);
        keys.prefill();
        assertEquals(50_000, keys.built(), "every key built by prefill, on the calling thread");
        assertEquals("key-0", keys.key(0));
        assertEquals("key-49999", keys.key(49_999));
        keys.close();
        assertEquals(0, keys.producerCpuNanos());
    }

    @Test
    void aRunLongerThanTheRingGetsEveryKeyRightWhileTheProducerReusesBlocks() throws InterruptedException {
        // 2 blocks of room for 12 blocks of keys, read by 3 threads claiming chunks in increasing order as the bench
        // does: a block overwritten while a thread still reads it, or published before it is filled, gives a wrong key
        long total = 12L * BenchKeys.BLOCK + 123;
        int threads = 3;
        int chunk = 100;
        BenchKeys keys = new BenchKeys("k", total, 2 * BenchKeys.BLOCK, threads);
        keys.prefill();
        assertEquals(2L * BenchKeys.BLOCK, keys.built(), "prefill stops at the ring's size");
        AtomicLong next = new AtomicLong();
        AtomicLong read = new AtomicLong();
        AtomicReference<String> wrong = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread reader = new Thread(() -> {
                for (long first = next.getAndAdd(chunk); first < total; first = next.getAndAdd(chunk)) {
                    keys.taking(thread, first);
                    for (long n = first; n < Math.min(total, first + chunk); n++) {
                        String key = keys.key(n);
                        if (!key.equals("k" + n)) {
                            wrong.compareAndSet(null, "message " + n + " got " + key);
                        }
                        read.incrementAndGet();
                    }
                    if (ThreadLocalRandom.current().nextInt(50) == 0) {
                        Thread.yield(); // a reader that falls behind holds its block
                    }
                }
                keys.done(thread);
            });
            readers.add(reader);
            reader.start();
        }
        for (Thread reader : readers) {
            reader.join(120_000);
        }
        keys.close();
        assertEquals(null, wrong.get());
        assertEquals(total, read.get());
        assertEquals(total, keys.built());
        assertTrue(keys.capacity() < total);
    }
}
