package dev.hangar.launcher.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BenchProgressTest {

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
