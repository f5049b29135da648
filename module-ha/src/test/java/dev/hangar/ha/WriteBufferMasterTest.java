package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A master whose CommitLog keeps a write buffer ({@code transient-pool}, as RocketMQ's transientStorePoolEnable with
 * ASYNC_FLUSH, or {@code write-window}) ships only committed bytes: the slave must still receive every byte, across
 * file rolls, end byte-identical, and every SYNC_MASTER put must be answered PUT_OK. The committer tells the
 * replication each time it makes bytes readable (StoreRuntime wires {@code CommitLogFlushTarget.afterCommit});
 * CommitLogFlushTargetTest counts those signals.
 */
class WriteBufferMasterTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"transient-pool", "write-window"})
    void aMasterWithAWriteBufferReplicatesEveryCommittedByteAndAnswersSyncPuts(String variant) throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        long end;
        // the default commitCommitLogLeastPages (4): each SYNC put asks the committer to commit through its end
        try (DefaultMessageStore master = HaStores.master(m, "SYNC_MASTER", "mappedFile", variant);
             DefaultMessageStore slave = HaStores.slave(s, HaStores.haAddress(master))) {
            assertEquals(variant, master.chosenProviders().get("mappedFile"));
            HaStores.await("the slave connects", () -> master.replicationStatus().connectedSlaves() == 1
                    && master.replicationStatus().ackedOffset() >= 0);
            for (int i = 0; i < 300; i++) {
                PutMessageResult r = master.putMessage(HaStores.message("Pooled", i % 4,
                        MasterSlaveReplicationTest.body(i)).keys("key-" + i));
                assertEquals(PutMessageStatus.PUT_OK, r.status(), variant + " put " + i + ": " + r);
                assertTrue(master.replicationStatus().ackedOffset() >= r.wroteOffset() + r.wroteBytes(),
                        "a SYNC put is answered only once the slave holds it");
            }
            end = master.getMaxPhyOffset();
            assertTrue(end > 2L * HaStores.FILE_SIZE, "the test rolls files: " + end);
            HaStores.await("the slave dispatches everything", () -> slave.getMaxPhyOffset() == end
                    && slave.dispatchBehindBytes() == 0 && master.dispatchBehindBytes() == 0);
            MasterSlaveReplicationTest.assertQueuesAnswerTheSame(master, slave);
        }
        MasterSlaveReplicationTest.assertLogsIdentical(m, s, end);
    }

    /**
     * A lone SYNC_MASTER put (a few hundred bytes, far below commitCommitLogLeastPages' 4 pages) on a master with a
     * write buffer: its bytes are shippable only once committed, and with the commit interval and the thorough commit
     * at 60 s only the put's own ask (MasterReplicationService asks the log, which asks the committer to commit
     * through the put's end) commits them. Without that ask each put waits past syncFlushTimeout and is answered
     * FLUSH_SLAVE_TIMEOUT.
     */
    @ParameterizedTest
    @ValueSource(strings = {"transient-pool", "write-window"})
    void aLoneSyncPutIsCommittedForItsSlaveWithoutWaitingForTheCommitInterval(String variant) throws Exception {
        try (DefaultMessageStore master = HaStores.master(dir.resolve("master"), "SYNC_MASTER", "mappedFile", variant,
                "commitIntervalCommitLog", "60000", "commitCommitLogThoroughInterval", "60000",
                "commitCommitLogLeastPages", "4");
             DefaultMessageStore slave = HaStores.slave(dir.resolve("slave"), HaStores.haAddress(master))) {
            HaStores.await("the slave connects", () -> master.replicationStatus().connectedSlaves() == 1
                    && master.replicationStatus().ackedOffset() >= 0);
            for (int i = 0; i < 5; i++) {
                PutMessageResult r = master.putMessage(HaStores.message("Lone", 0, MasterSlaveReplicationTest.body(i)));
                assertEquals(PutMessageStatus.PUT_OK, r.status(), variant + " lone put " + i + ": " + r);
                assertTrue(r.wroteBytes() < 4096, "each put is less than a page: " + r.wroteBytes());
                assertTrue(slave.getMaxPhyOffset() >= r.wroteOffset() + r.wroteBytes(), "the slave holds put " + i);
            }
        }
    }
}
