package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real {@code kill -9} of a slave and of a master process, then catch-up and promotion. */
class KillNineReplicationTest {
    @TempDir
    Path dir;

    record Ack(long offset, int size, String msgId, int n) {
    }

    /** A child JVM running {@link HaChild}, with what it printed. */
    static final class Child {
        final Process process;
        final List<Ack> acks = new CopyOnWriteArrayList<>();
        volatile String haAddress;
        volatile boolean started;

        Child(Path store, String... config) throws Exception {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    HaChild.class.getName(), store.toString()));
            cmd.addAll(List.of(config));
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
            process = pb.start();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        if (line.startsWith("ACK ")) {
                            String[] p = line.split(" ");
                            acks.add(new Ack(Long.parseLong(p[1]), Integer.parseInt(p[2]), p[3], Integer.parseInt(p[4])));
                        } else if (line.startsWith("HA ")) {
                            haAddress = line.substring(3);
                        } else if (line.equals("STARTED")) {
                            started = true;
                        }
                    }
                } catch (Exception e) {
                    // the pipe breaks when the child dies
                }
            });
            reader.setDaemon(true);
            reader.start();
            HaStores.await("the child starts", () -> started || !process.isAlive());
            assertTrue(process.isAlive(), "the child process died at start");
        }

        void killNine() throws InterruptedException {
            process.destroyForcibly(); // SIGKILL on Linux
            assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void aSlaveKilledMidStreamRecoversAndCatchesUp() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        long end;
        try (DefaultMessageStore master = HaStores.master(m, "ASYNC_MASTER")) {
            AtomicBoolean writing = new AtomicBoolean(true);
            Thread writer = new Thread(() -> {
                for (int i = 0; writing.get(); i++) {
                    assertEquals(PutMessageStatus.PUT_OK, master.putMessage(HaStores.message("Stream", i % 4,
                            MasterSlaveReplicationTest.body(i)).keys("sk-" + i)).status());
                }
            });
            writer.start();
            Child slave = new Child(s, "brokerRole=SLAVE", "haMasterAddress=" + HaStores.haAddress(master));
            HaStores.await("the slave copies a good part", () -> master.replicationStatus().ackedOffset() > 600_000);
            slave.killNine();
            writing.set(false);
            writer.join();
            end = master.getMaxPhyOffset();
            assertTrue(master.replicationStatus().ackedOffset() < end, "the kill came mid-stream");
            try (DefaultMessageStore restarted = HaStores.slave(s, HaStores.haAddress(master))) {
                assertTrue(restarted.recoveryReport().abnormal(), "the slave recovered from a crash");
                HaStores.await("the restarted slave catches up", () -> restarted.getMaxPhyOffset() == end
                        && restarted.dispatchBehindBytes() == 0 && master.dispatchBehindBytes() == 0);
                for (int q = 0; q < 4; q++) {
                    assertEquals(master.getMaxOffsetInQueue("Stream", q), restarted.getMaxOffsetInQueue("Stream", q));
                }
            }
        }
        MasterSlaveReplicationTest.assertLogsIdentical(m, s, end);
    }

    @Test
    void aMasterKilledMidStreamLosesNoSyncAcknowledgedMessageOnThePromotedSlave() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        Child master = new Child(m, "brokerRole=SYNC_MASTER", "writers=4", "syncFlushTimeout=3000");
        List<Ack> acks;
        try (DefaultMessageStore slave = HaStores.slave(s, master.haAddress)) {
            HaStores.await("the master acknowledges puts", () -> master.acks.size() > 2_000);
            master.killNine();
            acks = new ArrayList<>(master.acks);
        }
        // failover: the slave's directory restarted as the new master
        try (DefaultMessageStore promoted = HaStores.started(s, "brokerRole", "SYNC_MASTER")) {
            List<String> missing = missing(promoted, acks);
            assertTrue(missing.isEmpty(), missing.size() + " acknowledged messages lost, e.g. " + missing.stream()
                    .limit(5).toList());
            // negative control: the check does see a message that is not there
            Ack beyondEnd = new Ack(promoted.getMaxPhyOffset() + 1_000, 100, "none", -1);
            assertEquals(1, missing(promoted, List.of(beyondEnd)).size());
            assertEquals(PutMessageStatus.SLAVE_NOT_AVAILABLE,
                    promoted.putMessage(HaStores.message("Crash", 0, "the new master takes puts")).status(),
                    "stored on the promoted master, which has no slave of its own yet");
        }
    }

    private static List<String> missing(DefaultMessageStore store, List<Ack> acks) {
        List<String> out = new ArrayList<>();
        for (Ack a : acks) {
            StoredMessage msg = store.lookMessageByOffset(a.offset());
            if (msg == null || !a.msgId().equals(msg.msgId())
                    || !new String(msg.body(), StandardCharsets.UTF_8).startsWith("ha-body-" + a.n() + "-")) {
                out.add(a.toString());
            }
        }
        return out;
    }
}
