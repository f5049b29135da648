package dev.hangar.spi.flush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    private static long exactPercentile(long[] sorted, double q) {
        return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
    }

    @Test
    void percentilesAreNeverBelowTheTrueValueAndAtMostOneSixtyFourthAbove() {
        LatencyHistogram h = new LatencyHistogram();
        long[] values = new long[100_000];
        Random random = new Random(42);
        for (int i = 0; i < values.length; i++) {
            // log-uniform from 1 to about 10^9, so every exponent range gets values
            values[i] = (long) Math.exp(random.nextDouble() * Math.log(1e9));
            h.record(values[i]);
        }
        Arrays.sort(values);
        for (double q : new double[] {0.0, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0}) {
            long exact = exactPercentile(values, q);
            long estimate = h.percentile(q);
            assertTrue(estimate >= exact && estimate <= exact + exact / 64,
                    "q=" + q + ": " + estimate + " vs exact " + exact);
        }
        assertEquals(values[values.length - 1], h.max());
        assertEquals(values.length, h.count());
        assertEquals(Arrays.stream(values).sum(), h.sum());
    }

    @Test
    void valuesBelowSixtyFourAreExact() {
        LatencyHistogram h = new LatencyHistogram();
        for (long v = 0; v < 64; v++) {
            h.record(v);
        }
        assertEquals(31, h.percentile(0.5));
        assertEquals(63, h.percentile(1.0));
        assertEquals(0, h.percentile(0.0));
        assertEquals(31.5, h.mean());
    }

    @Test
    void anEmptyHistogramAnswersZero() {
        LatencyHistogram h = new LatencyHistogram();
        assertEquals(0, h.percentile(0.99));
        assertEquals(0, h.max());
        assertEquals(0, h.mean());
        assertEquals(0, h.cumulativeBelowPowerOfTwo(10));
    }

    @Test
    void everyValueFallsInTheOneBucketThatHoldsIt() {
        for (long v : new long[] {0, 1, 63, 64, 65, 127, 128, 129, 1000, 1L << 40, (1L << 40) - 1, Long.MAX_VALUE}) {
            int index = LatencyHistogram.index(v);
            assertTrue(LatencyHistogram.highestIn(index) >= v, "bucket of " + v);
            assertTrue(index == 0 || LatencyHistogram.highestIn(index - 1) < v, "bucket below " + v);
        }
    }

    @Test
    void powerOfTwoCountsAreExactForPrometheus() {
        LatencyHistogram h = new LatencyHistogram();
        long[] values = {0, 1, 2, 3, 4, 63, 64, 127, 128, 1023, 1024, 1025, 1L << 39, Long.MAX_VALUE};
        for (long v : values) {
            h.record(v);
        }
        for (int i = 0; i <= 63; i++) {
            int power = i;
            long expected = Arrays.stream(values).filter(v -> power == 63 || v < 1L << power).count();
            assertEquals(expected, h.cumulativeBelowPowerOfTwo(power), "values below 2^" + power);
        }
    }

    @Test
    void mergedHistogramsCountEveryValueOfBoth() {
        LatencyHistogram a = new LatencyHistogram();
        LatencyHistogram b = new LatencyHistogram();
        a.record(10);
        b.record(1000);
        b.record(-5);
        a.add(b);
        assertEquals(3, a.count());
        assertEquals(1000, a.max());
        assertEquals(1010, a.sum());
        assertEquals(0, a.percentile(0.0));
        assertEquals(10, a.percentile(0.5));
        assertEquals(1000, a.percentile(1.0));
        assertEquals(2, b.count(), "the source is left as it was");
    }

    @Test
    void concurrentRecordingCountsEveryValue() throws InterruptedException {
        LatencyHistogram h = new LatencyHistogram();
        int threads = 4;
        int perThread = 50_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            Thread w = new Thread(() -> {
                Random random = new Random(seed);
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    // a few hot buckets so the threads really collide on the same counters
                    h.record(random.nextInt(200));
                }
            });
            w.start();
            workers.add(w);
        }
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        assertEquals((long) threads * perThread, h.count());
        assertEquals((long) threads * perThread, h.cumulativeBelowPowerOfTwo(63));
        assertEquals(h.count(), h.cumulativeBelowPowerOfTwo(8), "every value was below 256");
        assertTrue(h.max() <= 199);
    }
}
