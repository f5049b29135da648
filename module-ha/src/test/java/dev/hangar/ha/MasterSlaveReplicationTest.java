package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MasterSlaveReplicationTest {
    private static final int QUEUES = 4;

    @TempDir
    Path dir;

    static String body(int i) {
        return ("message " + i + " ").repeat(10 + (i * 37) % 200);
    }

    @Test
    void syncMasterPutsAreOnTheSlaveWhenAcknowledgedAndTheLogsAreByteIdentical() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        int n = 600;
        long masterEnd;
        try (DefaultMessageStore master = HaStores.master(m, "SYNC_MASTER");
             DefaultMessageStore slave = HaStores.slave(s, HaStores.haAddress(master))) {
            HaStores.await("the slave connects", () -> master.replicationStatus().connectedSlaves() == 1);
            for (int i = 0; i < n; i++) {
                PutMessageResult r = master.putMessage(HaStores.message("Repl", i % QUEUES, body(i))
                        .keys("key-" + i).tags("tag" + (i % 3)));
                assertEquals(PutMessageStatus.PUT_OK, r.status(), "put " + i + ": " + r);
                long end = r.appendResult().wroteOffset() + r.appendResult().wroteBytes();
                // PUT_OK under SYNC_MASTER means the slave already holds the bytes
                assertTrue(slave.getMaxPhyOffset() >= end, "slave ends at " + slave.getMaxPhyOffset() + " < " + end);
            }
            masterEnd = master.getMaxPhyOffset();
            assertTrue(masterEnd > 8L * HaStores.FILE_SIZE, "the test rolls several files: " + masterEnd);
            HaStores.await("both dispatch everything", () -> slave.getMaxPhyOffset() == masterEnd
                    && slave.dispatchBehindBytes() == 0 && master.dispatchBehindBytes() == 0);
            assertQueuesAnswerTheSame(master, slave);
            for (int i = 0; i < n; i += 53) {
                List<StoredMessage> onMaster = master.queryMessage("Repl", "key-" + i, 8, 0, Long.MAX_VALUE).messages();
                List<StoredMessage> onSlave = slave.queryMessage("Repl", "key-" + i, 8, 0, Long.MAX_VALUE).messages();
                assertEquals(offsets(onMaster), offsets(onSlave), "key-" + i);
                assertEquals(1, onSlave.size(), "key-" + i);
            }
            Map<String, Object> stats = master.statsSnapshot().toMap();
            @SuppressWarnings("unchecked")
            Map<String, Object> repl = (Map<String, Object>) stats.get("replication");
            assertEquals("SYNC_MASTER", repl.get("role"));
            assertEquals(1, repl.get("connectedSlaves"));
            assertEquals(masterEnd, repl.get("ackedOffset"));

            PutMessageResult refused = slave.putMessage(HaStores.message("Repl", 0, "to a slave"));
            assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE, refused.status());
            assertTrue(refused.reason().contains(HaStores.haAddress(master)), refused.reason());
        }
        assertLogsIdentical(m, s, masterEnd);
    }

    @Test
    void asyncMasterAnswersAtOnceAndTheSlaveCatchesUp() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        long masterEnd;
        try (DefaultMessageStore master = HaStores.master(m, "ASYNC_MASTER")) {
            for (int i = 0; i < 300; i++) {
                assertEquals(PutMessageStatus.PUT_OK, master.putMessage(
                        HaStores.message("Async", i % QUEUES, body(i)).keys("k" + i)).status());
            }
            // a slave that joins late gets the whole retained log, from the master's first file
            try (DefaultMessageStore slave = HaStores.slave(s, HaStores.haAddress(master))) {
                for (int i = 300; i < 400; i++) {
                    assertEquals(PutMessageStatus.PUT_OK, master.putMessage(
                            HaStores.message("Async", i % QUEUES, body(i)).keys("k" + i)).status());
                }
                masterEnd = master.getMaxPhyOffset();
                HaStores.await("the slave catches up", () -> slave.getMaxPhyOffset() == masterEnd
                        && slave.dispatchBehindBytes() == 0 && master.dispatchBehindBytes() == 0);
                assertEquals(0L, slave.getMinPhyOffset());
                assertQueuesAnswerTheSame(master, slave);
            }
        }
        assertLogsIdentical(m, s, masterEnd);
    }

    @Test
    void aLoneAsyncMasterWithDefaultSettingsOpensNoPort() {
        try (DefaultMessageStore store = HaStores.started(dir.resolve("lone"))) {
            assertEquals(null, store.replicationStatus());
            assertEquals("none", store.chosenProviders().get("haService"));
        }
    }

    static void assertQueuesAnswerTheSame(DefaultMessageStore master, DefaultMessageStore slave) {
        for (int q = 0; q < QUEUES; q++) {
            long max = master.getMaxOffsetInQueue("Repl".equals(topicOf(master)) ? "Repl" : topicOf(master), q);
            assertEquals(max, slave.getMaxOffsetInQueue(topicOf(master), q), "queue " + q);
            for (long off = 0; off < max; off += 16) {
                GetMessageResult a = master.getMessage("g", topicOf(master), q, off, 16, null);
                GetMessageResult b = slave.getMessage("g", topicOf(master), q, off, 16, null);
                assertEquals(a.status(), b.status());
                assertEquals(a.messages().size(), b.messages().size());
                for (int i = 0; i < a.messages().size(); i++) {
                    StoredMessage x = a.messages().get(i);
                    StoredMessage y = b.messages().get(i);
                    assertEquals(x.msgId(), y.msgId());
                    assertEquals(x.queueOffset(), y.queueOffset());
                    assertArrayEquals(x.body(), y.body());
                }
            }
        }
    }

    private static String topicOf(DefaultMessageStore store) {
        return store.getMaxOffsetInQueue("Repl", 0) > 0 ? "Repl" : "Async";
    }

    private static List<Long> offsets(List<StoredMessage> ms) {
        return ms.stream().map(StoredMessage::commitLogOffset).sorted().toList();
    }

    static void assertLogsIdentical(Path master, Path slave, long end) throws Exception {
        List<Path> mf = HaStores.commitLogFiles(master, end);
        List<Path> sf = HaStores.commitLogFiles(slave, end);
        assertEquals(mf.stream().map(p -> p.getFileName().toString()).toList(),
                sf.stream().map(p -> p.getFileName().toString()).toList());
        for (int i = 0; i < mf.size(); i++) {
            assertArrayEquals(HaStores.bytesBelow(mf.get(i), end), HaStores.bytesBelow(sf.get(i), end),
                    "file " + mf.get(i).getFileName());
        }
        assertNotNull(mf.isEmpty() ? null : mf.get(0));
    }
}
