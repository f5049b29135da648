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
 * A slave writes replicated bytes with pwrite into its CommitLog files, which are their mappings (mmap). A variant
 * that keeps a write buffer (transient pool, copy-on-write window) holds appends out of the file and out of the
 * log's readable end until committed: a slave configured with one complained that the master's next frame did not
 * continue its log (it compared with the readable end) and stopped replicating for good. A slave now uses mmap
 * whatever is configured, as RocketMQ ignores its transient pool on a slave. Each configured variant, including a
 * restart of the slave in the middle (the new store opens the file it appends to anew), must end with a log that is
 * byte-identical to the master's and queues that answer the same.
 */
class SlaveMappedFileVariantsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"mmap", "transient-pool", "write-window"})
    void aSlaveOfEveryMappedFileVariantEndsByteIdenticalToItsMaster(String variant) throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        long masterEnd;
        try (DefaultMessageStore master = HaStores.master(m, "SYNC_MASTER")) {
            for (int round = 0; round < 2; round++) {
                try (DefaultMessageStore slave = HaStores.slave(s, HaStores.haAddress(master), "mappedFile", variant)) {
                    assertEquals("mmap", slave.chosenProviders().get("mappedFile"), "a slave writes in place");
                    HaStores.await("the slave connects", () -> master.replicationStatus().connectedSlaves() == 1);
                    for (int i = round * 250; i < (round + 1) * 250; i++) {
                        PutMessageResult r = master.putMessage(HaStores.message("Repl", i % 4,
                                MasterSlaveReplicationTest.body(i)).keys("key-" + i));
                        assertEquals(PutMessageStatus.PUT_OK, r.status(), variant + " put " + i + ": " + r);
                    }
                    long end = master.getMaxPhyOffset();
                    HaStores.await("the " + variant + " slave dispatches everything", () ->
                            slave.getMaxPhyOffset() == end && slave.dispatchBehindBytes() == 0
                                    && master.dispatchBehindBytes() == 0);
                    MasterSlaveReplicationTest.assertQueuesAnswerTheSame(master, slave);
                }
                HaStores.await("the slave's connection is gone", () -> master.replicationStatus().connectedSlaves() == 0);
            }
            masterEnd = master.getMaxPhyOffset();
            assertTrue(masterEnd > 4L * HaStores.FILE_SIZE, "the test rolls several files: " + masterEnd);
        }
        MasterSlaveReplicationTest.assertLogsIdentical(m, s, masterEnd);
    }
}
