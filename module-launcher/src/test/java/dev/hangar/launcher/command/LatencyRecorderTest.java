package dev.hangar.launcher.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

    @Test
    void smallValuesAreExactAndLargeOnesWithinOneSixtyFourth() {
        LatencyRecorder r = new LatencyRecorder();
        long[] values = new long[100_000];
        Random random = new Random(42);
        for (int i = 0; i < values.length; i++) {
            // log-uniform from 1 µs to about 1000 s
            values[i] = (long) Math.exp(random.nextDouble() * Math.log(1e9));
            r.record(values[i]);
        }
        Arrays.sort(values);
        for (double q : new double[] {0.0, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0}) {
            long exact = values[Math.max(0, (int) Math.ceil(q * values.length) - 1)];
            long estimate = r.percentile(q);
            assertTrue(estimate >= exact && estimate <= exact + Math.max(0, exact / 64), q + ": " + estimate + " vs " + exact);
        }
        assertEquals(values[values.length - 1], r.max());
        assertEquals(values.length, r.count());

        LatencyRecorder small = new LatencyRecorder();
        for (long v = 0; v < 64; v++) {
            small.record(v);
        }
        assertEquals(31, small.percentile(0.5));
        assertEquals(63, small.percentile(1.0));
    }

    @Test
    void everyValueFallsInABucketThatHoldsIt() {
        for (long v : new long[] {0, 1, 63, 64, 65, 127, 128, 129, 1000, 1L << 40, Long.MAX_VALUE}) {
            int index = LatencyRecorder.index(v);
            assertTrue(LatencyRecorder.highestIn(index) >= v, "bucket of " + v);
            assertTrue(index == 0 || LatencyRecorder.highestIn(index - 1) < v, "bucket below " + v);
        }
    }

    @Test
    void mergedRecordersCountEverything() {
        LatencyRecorder a = new LatencyRecorder();
        LatencyRecorder b = new LatencyRecorder();
        a.record(10);
        b.record(1000);
        b.record(-5);
        a.add(b);
        assertEquals(3, a.count());
        assertEquals(1000, a.max());
        assertEquals(0, a.percentile(0.0));
    }

    @Test
    void theProgressLineOverwritesItselfAndIsClearedAtTheEnd() {
        StringWriter err = new StringWriter();
        AtomicLong messages = new AtomicLong();
        BenchProgress off = new BenchProgress(false, new PrintWriter(err), messages::get, () -> 0, () -> 0, 100);
        off.close();
        assertEquals("", err.toString(), "nothing without a terminal");

        BenchProgress progress = new BenchProgress(true, new PrintWriter(err), messages::get, () -> 4096, () -> 7, 100);
        messages.set(500);
        progress.tick();
        progress.close();
        String written = err.toString();
        assertTrue(written.startsWith("\r"), written);
        assertTrue(written.contains("msg/s") && written.contains("MiB/s") && written.contains("dispatch lag")
                && written.contains("4,096 B") && written.contains("flushes/s"), written);
        assertTrue(written.endsWith("\r") && !written.contains("\n"), "cleared in place, no new line: " + written);
    }
}
