package dev.hangar.store.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.store.DefaultMessageStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real {@code kill -9} of a process right after it deleted a topic and while it puts to it again
 * ({@link TopicDeletionChild}); recovery here re-dispatches old records of the topic from the checkpoint. The old
 * queues must stay deleted, every unit of the new queue must sit at the queue offset its record carries, every
 * acknowledged put must be there, and the next put must follow on.
 */
class TopicDeletionKillNineTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"SYNC_FLUSH", "ASYNC_FLUSH"})
    void killNineRightAfterADeletionNeitherResurrectsNorCorrupts(String flushDiskType) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                TopicDeletionChild.class.getName(), dir.toString(), flushDiskType);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process child = pb.start();
        AtomicBoolean deleted = new AtomicBoolean();
        AtomicLong acked = new AtomicLong(-1);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    int at = line.indexOf("ACK ");
                    if (line.contains("DELETED")) {
                        deleted.set(true);
                    } else if (at >= 0) {
                        acked.set(Long.parseLong(line.substring(at + 4).strip()));
                    }
                }
            } catch (Exception e) {
                throw new AssertionError("reading the child's lines", e);
            }
        });
        reader.start();
        long deadline = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < deadline && child.isAlive() && acked.get() < 5) {
            Thread.sleep(1);
        }
        assertTrue(deleted.get() && acked.get() >= 5, "the child deleted the topic and put again");
        child.toHandle().destroyForcibly();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        reader.join(60_000);
        assertFalse(reader.isAlive(), "every line of the child was read");
        assertTrue(Files.exists(dir.resolve("abort")), "the kill left the abort file");

        try (DefaultMessageStore store = new DefaultMessageStore(TopicDeletionChild.config(dir.toString()).build())) {
            store.start();
            assertTrue(store.recoveryReport().abnormal());
            String topic = TopicDeletionChild.TOPIC;
            assertEquals(0, store.getMaxOffsetInQueue(topic, 1), "the old queue 1 stays deleted");
            long max = store.getMaxOffsetInQueue(topic, 0);
            assertTrue(max > acked.get(), "acknowledged up to queue offset " + acked.get() + ", recovered " + max);
            long offset = store.getMinOffsetInQueue(topic, 0);
            assertEquals(0, offset);
            while (offset < max) {
                GetMessageResult r = store.getMessage("check", topic, 0, offset, 64, null);
                assertFalse(r.messages().isEmpty(), "units missing at " + offset + " of " + max);
                for (StoredMessage m : r.messages()) {
                    assertEquals(offset, m.queueOffset(), "the unit at " + offset + " points at " + m);
                    assertEquals("new" + offset, new String(m.body(), StandardCharsets.UTF_8));
                    offset++;
                }
            }
            assertEquals(max, store.putMessage(new Message(topic, "after".getBytes(StandardCharsets.UTF_8))
                    .queueId(0)).logicsOffset(), "the next put follows on");
        }
    }
}
