package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.OffsetCommitResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consumer-offset commits are CommitLog records, so a SYNC_MASTER acknowledges one only once its slave holds it: the
 * slave's table (built by its own dispatch) has every acknowledged commit, and so does the slave's directory
 * restarted as the new master.
 */
class ConsumerOffsetFailoverTest {
    private static final String TOPIC = "Failover";
    private static final int QUEUES = 3;

    @TempDir
    Path dir;

    @Test
    void thePromotedSlaveHasEveryAcknowledgedCommit() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        Map<String, Long> acked = new ConcurrentHashMap<>();
        try (DefaultMessageStore master = HaStores.master(m, "SYNC_MASTER");
             DefaultMessageStore slave = HaStores.slave(s, HaStores.haAddress(master))) {
            HaStores.await("the slave connects", () -> master.replicationStatus().connectedSlaves() == 1);
            for (int i = 0; i < QUEUES * 200; i++) {
                assertEquals(PutMessageStatus.PUT_OK, master.putMessage(
                        HaStores.message(TOPIC, i % QUEUES, "m" + i)).status());
            }
            HaStores.await("the master dispatched", () -> master.dispatchBehindBytes() == 0);
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int g = 0; g < 4; g++) {
                String group = "group" + g;
                Thread t = new Thread(() -> {
                    try {
                        for (int n = 0; n < 150; n++) {
                            int queue = n % QUEUES;
                            long offset = n / QUEUES + 1;
                            OffsetCommitResult r = master.consumerOffsets().commit(group, TOPIC, queue, offset);
                            assertTrue(r.isCommitted(), r.toString());
                            acked.put(group + " " + queue, offset);
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(failures.isEmpty(), failures.toString());
            assertTrue(master.consumerOffsets().deleteGroup("group3").isCommitted());
            acked.keySet().removeIf(k -> k.startsWith("group3 "));
            long end = master.getMaxPhyOffset();
            HaStores.await("the slave dispatched everything", () -> slave.getMaxPhyOffset() == end
                    && slave.dispatchBehindBytes() == 0);
            assertHolds(slave, acked, "the slave's own table");
            // the slave takes no commits itself
            assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE,
                    slave.consumerOffsets().commit("group0", TOPIC, 0, 1).putStatus());
        }
        // failover: the slave's directory restarted as the new master
        try (DefaultMessageStore promoted = HaStores.started(s, "brokerRole", "SYNC_MASTER")) {
            assertHolds(promoted, acked, "the promoted slave");
            assertEquals(List.of("group0", "group1", "group2"), List.copyOf(promoted.consumerOffsets().groups()));
            // a SYNC_MASTER without a slave does not acknowledge a commit, exactly as it does not a message
            OffsetCommitResult alone = promoted.consumerOffsets().commit("group0", TOPIC, 0, 2);
            assertEquals(OffsetCommitResult.Outcome.NOT_STORED, alone.outcome());
            assertEquals(PutMessageStatus.SLAVE_NOT_AVAILABLE, alone.putStatus());
        }
    }

    /**
     * The master is a real process killed with {@code kill -9} while its groups commit: the slave's directory,
     * restarted as the new master, holds at least the last acknowledged offset of every queue.
     */
    @Test
    void aMasterKilledWhileCommittingLosesNoAcknowledgedCommitOnThePromotedSlave() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                HaOffsetChild.class.getName(), m.toString(), "4").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Map<String, Long> acked = new ConcurrentHashMap<>();
        String[] haAddress = {null};
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    Matcher ack = ACK.matcher(line);
                    if (ack.find()) {
                        acked.merge(ack.group(1) + " " + ack.group(2), Long.parseLong(ack.group(3)), Math::max);
                    } else if (line.startsWith("HA ")) {
                        haAddress[0] = line.substring(3).trim();
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        reader.start();
        try {
            HaStores.await("the master's HA address", () -> haAddress[0] != null || !child.isAlive());
            try (DefaultMessageStore slave = HaStores.slave(s, haAddress[0])) {
                HaStores.await("acknowledged commits", () -> acked.size() == 4 * HaOffsetChild.QUEUES
                        || !child.isAlive());
                Thread.sleep(200);
                // through the handle: Process.destroyForcibly() would close the pipe with ACK lines still in it
                child.toHandle().destroyForcibly();
                assertTrue(child.waitFor(30, TimeUnit.SECONDS));
                reader.join(60_000);
                assertFalse(reader.isAlive(), "every line of the child was read");
            }
        } finally {
            child.toHandle().destroyForcibly();
        }
        assertEquals(4 * HaOffsetChild.QUEUES, acked.size(), "every group committed every queue before the kill");
        try (DefaultMessageStore promoted = HaStores.started(s, "brokerRole", "SYNC_MASTER")) {
            for (Map.Entry<String, Long> e : acked.entrySet()) {
                String[] key = e.getKey().split(" ");
                OptionalLong got = promoted.consumerOffsets().committed(key[0], HaOffsetChild.TOPIC,
                        Integer.parseInt(key[1]));
                assertTrue(got.isPresent() && got.getAsLong() >= e.getValue(), e.getKey() + " acknowledged at "
                        + e.getValue() + ", the promoted slave has " + got);
            }
        }
    }

    private static final Pattern ACK = Pattern.compile("ACK (group\\d+) (\\d+) (\\d+)");

    private static void assertHolds(DefaultMessageStore store, Map<String, Long> acked, String who) {
        assertEquals(9, acked.size());
        for (Map.Entry<String, Long> e : acked.entrySet()) {
            String[] key = e.getKey().split(" ");
            assertEquals(OptionalLong.of(e.getValue()), store.consumerOffsets().committed(key[0], TOPIC,
                    Integer.parseInt(key[1])), who + ": " + e.getKey());
        }
        assertTrue(store.consumerOffsets().offsetsOf("group3").isEmpty(), who + ": the deleted group is gone");
    }
}
