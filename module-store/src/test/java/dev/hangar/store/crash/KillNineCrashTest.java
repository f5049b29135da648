package dev.hangar.store.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.verify.VerifyReport.Severity;
import dev.hangar.store.verify.StoreVerifier;
import dev.hangar.store.verify.VerifyReport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real {@code kill -9} of a child JVM mid-write, then recovery in this JVM: every put the child saw
 * acknowledged must be present and intact, every record valid, queue offsets contiguous.
 */
class KillNineCrashTest {
    /** 3 in the normal test run; the {@code soak} profile sets 20. */
    private static final int ROUNDS = Integer.getInteger("hangar.crash.rounds", 3);

    @TempDir
    Path dir;

    record Ack(long offset, int size, String msgId, int n) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"SYNC_FLUSH", "ASYNC_FLUSH"})
    void everyAcknowledgedPutSurvivesKillNine(String flushDiskType) throws Exception {
        Random random = new Random(flushDiskType.hashCode());
        List<Ack> allAcks = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            List<Ack> acks = runAndKill(flushDiskType, 200 + random.nextInt(800));
            assertTrue(acks.size() > 0, "round " + round + ": the child acknowledged something before the kill");
            allAcks.addAll(acks);
            verify(allAcks, round);
        }
    }

    /**
     * SYNC_FLUSH over a write buffer: a put is told only after the group commit wrote its bytes to the file and
     * forced them, so after {@code kill -9} (the buffer is process memory and dies with it) every one is there.
     */
    @Test
    void everyAcknowledgedSyncFlushPutOverAWriteBufferSurvivesKillNine() throws Exception {
        Random random = new Random(7);
        List<Ack> allAcks = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            List<Ack> acks = runAndKill("SYNC_FLUSH", 200 + random.nextInt(800), WRITE_BUFFER);
            assertTrue(acks.size() > 0, "round " + round + ": the child acknowledged something before the kill");
            allAcks.addAll(acks);
            verify(allAcks, round);
        }
    }

    /**
     * The negative control of the test above: a flush service that tells a put PUT_OK before its bytes left the
     * write buffer must be caught losing acknowledged puts to {@code kill -9}.
     */
    @Test
    void theKillCatchesAnAcknowledgementBeforeTheWriteBufferWasCommitted() throws Exception {
        List<Ack> acks = runAndKill("SYNC_FLUSH", 300, WRITE_BUFFER[0], WRITE_BUFFER[1],
                "flushService=" + AcknowledgeWithoutForceFlushProvider.NAME);
        assertTrue(acks.size() > 0, "the child acknowledged something before the kill");
        long gone;
        try (DefaultMessageStore store = new DefaultMessageStore(config())) {
            store.start();
            gone = acks.stream().filter(a -> store.lookMessageByOffset(a.offset()) == null).count();
        }
        assertTrue(gone > 0, "the harness did not see any of " + acks.size() + " puts acknowledged before their "
                + "commit lost to kill -9");
    }

    /**
     * SYNC_FLUSH over the write window: the private mapping dies with the process like the pool's buffers, so
     * only what was committed and forced may be acknowledged.
     */
    @Test
    void everyAcknowledgedSyncFlushPutOverTheWriteWindowSurvivesKillNine() throws Exception {
        Random random = new Random(11);
        List<Ack> allAcks = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            List<Ack> acks = runAndKill("SYNC_FLUSH", 200 + random.nextInt(800), WRITE_WINDOW);
            assertTrue(acks.size() > 0, "round " + round + ": the child acknowledged something before the kill");
            allAcks.addAll(acks);
            verify(allAcks, round);
        }
    }

    /** The negative control over the write window: acknowledging before the commit loses puts to kill -9. */
    @Test
    void theKillCatchesAnAcknowledgementBeforeTheWriteWindowWasCommitted() throws Exception {
        List<Ack> acks = runAndKill("SYNC_FLUSH", 300, WRITE_WINDOW,
                "flushService=" + AcknowledgeWithoutForceFlushProvider.NAME);
        assertTrue(acks.size() > 0, "the child acknowledged something before the kill");
        long gone;
        try (DefaultMessageStore store = new DefaultMessageStore(config())) {
            store.start();
            gone = acks.stream().filter(a -> store.lookMessageByOffset(a.offset()) == null).count();
        }
        assertTrue(gone > 0, "the harness did not see any of " + acks.size() + " puts acknowledged before their "
                + "commit from the write window lost to kill -9");
    }

    private static final String WRITE_WINDOW = "mappedFile=write-window";

    private static final String[] WRITE_BUFFER = {"mappedFile=transient-pool", "transientStorePoolSize=4"};

    private List<Ack> runAndKill(String flushDiskType, long killAfterMillis, String... settings) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                CrashChild.class.getName(), dir.toString(), flushDiskType, "4"));
        command.addAll(List.of(settings));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process child = pb.start();
        List<Ack> acks = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("ACK ")) {
                        String[] p = line.split(" ");
                        acks.add(new Ack(Long.parseLong(p[1]), Integer.parseInt(p[2]), p[3], Integer.parseInt(p[4])));
                    }
                }
            } catch (Exception e) {
                // the pipe breaks when the child dies
            }
        });
        reader.start();
        long deadline = System.currentTimeMillis() + 30_000;
        while (acks.isEmpty() && System.currentTimeMillis() < deadline && child.isAlive()) {
            Thread.sleep(10);
        }
        Thread.sleep(killAfterMillis);
        // SIGKILL through the handle: Process.destroyForcibly() also closes our end of the pipe, and the ACK lines
        // still unread in it would be lost, leaving fewer acknowledged puts to check
        child.toHandle().destroyForcibly();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        reader.join(10_000);
        return new ArrayList<>(acks);
    }

    private StoreConfig config() {
        return StoreConfig.builder()
                .set("storePathRootDir", dir.toString(), "test")
                .set("mappedFileSizeCommitLog", Integer.toString(256 * 1024), "test")
                .set("mappedFileSizeConsumeQueue", Integer.toString(20 * 2000), "test")
                .set("maxHashSlotNum", "2000", "test")
                .set("maxIndexNum", "8000", "test")
                .build();
    }

    private void verify(List<Ack> acks, int round) {
        StoreConfig config = config();
        VerifyReport crashed = StoreVerifier.verify(dir, config);
        assertTrue(crashed.healthy(), "round " + round + ": before recovery only a torn tail may be wrong: " + crashed);
        try (DefaultMessageStore store = new DefaultMessageStore(config)) {
            store.start();
            assertTrue(store.recoveryReport().abnormal(), "the abort file marked the crash");
            for (Ack a : acks) {
                StoredMessage m = store.lookMessageByOffset(a.offset());
                assertNotNull(m, "round " + round + ": acknowledged message " + a + " is gone");
                String body = new String(m.body(), StandardCharsets.UTF_8);
                assertTrue(body.startsWith("crash-body-" + a.n() + "-"), "intact body of " + a);
                assertEquals(a.msgId(), m.msgId());
                assertEquals(a.size(), m.storeSize());
            }
            long total = 0;
            for (int q = 0; q < 4; q++) {
                long max = store.getMaxOffsetInQueue("Crash", q);
                long expected = 0;
                for (long off = 0; off < max; ) {
                    GetMessageResult r = store.getMessage("g", "Crash", q, off, 32, null);
                    assertEquals(GetMessageStatus.FOUND, r.status(), "queue " + q + " offset " + off);
                    for (StoredMessage m : r.messages()) {
                        assertEquals(expected++, m.queueOffset(), "contiguous queue offsets, no duplicates");
                    }
                    off = r.nextBeginOffset();
                }
                total += max;
            }
            assertTrue(total >= acks.size(), "queues hold at least every acknowledged message");
        }
        VerifyReport recovered = StoreVerifier.verify(dir, config);
        assertTrue(recovered.healthy() && recovered.problems(Severity.WARNING).isEmpty(),
                "round " + round + ": verify after recovery: " + recovered);
    }
}
