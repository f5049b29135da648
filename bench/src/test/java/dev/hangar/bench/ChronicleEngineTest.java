package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChronicleEngineTest {
    private static final int MESSAGES = 20;

    @BeforeAll
    static void noAnalytics() {
        System.setProperty("chronicle.analytics.disable", "true");
        System.setProperty("chronicle.announcer.disable", "true");
    }

    @Test
    void everyExcerptHoldsTheRecordFieldsAndTheWholeBodyInPutOrder(@TempDir Path dir) {
        Workload w = oneThread().resized("chronicle-test", MESSAGES);
        try (ChronicleEngine engine = new ChronicleEngine(dir, w)) {
            BenchEngine.Putter putter = engine.putter(0);
            for (int i = 0; i < MESSAGES; i++) {
                putter.prepare(i);
                assertTrue(putter.put(i));
            }
            assertEquals(MESSAGES, engine.readableByOffset());
        }
        byte[] body = Bodies.of(1024, 0);
        try (ChronicleQueue queue = ChronicleQueue.singleBuilder(dir.resolve("chronicle")).build();
             ExcerptTailer tailer = queue.createTailer()) {
            for (int i = 0; i < MESSAGES; i++) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    assertTrue(dc.isPresent(), "excerpt " + i + " is missing");
                    Bytes<?> b = dc.wire().bytes();
                    assertEquals(Workload.TOPIC, text(b));
                    assertEquals(w.queueOf(i), b.readInt());
                    assertTrue(b.readLong() > 0, "born timestamp");
                    assertEquals(Workload.TAG, text(b));
                    assertEquals(Workload.key(i), text(b));
                    byte[] read = new byte[b.readInt()];
                    b.read(read);
                    assertArrayEquals(body, read, "body of excerpt " + i);
                }
            }
            try (DocumentContext dc = tailer.readingDocument()) {
                assertFalse(dc.isPresent(), "no excerpt beyond the puts");
            }
        }
    }

    @Test
    void onlySingleSynchronousAppendsAreOffered(@TempDir Path dir) {
        Workload inflight = Workload.all(true).stream().filter(x -> x.inflight() > 1).findFirst().orElseThrow();
        try (ChronicleEngine engine = new ChronicleEngine(dir, inflight)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> engine.putter(0));
            assertTrue(e.getMessage().contains(inflight.name()), e.getMessage());
        }
    }

    private static String text(Bytes<?> b) {
        byte[] s = new byte[b.readUnsignedByte()];
        b.read(s);
        return new String(s, StandardCharsets.US_ASCII);
    }

    private static Workload oneThread() {
        return Workload.all(true).stream().filter(x -> x.name().equals(Workload.ONE_THREAD)).findFirst().orElseThrow();
    }
}
