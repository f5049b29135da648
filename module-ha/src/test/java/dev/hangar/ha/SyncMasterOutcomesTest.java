package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncMasterOutcomesTest {
    @TempDir
    Path dir;

    @Test
    void withoutASlaveAPutIsStoredAndAnsweredSlaveNotAvailableAtOnce() {
        try (DefaultMessageStore master = HaStores.master(dir, "SYNC_MASTER")) {
            PutMessageResult r = master.putMessage(HaStores.message("NoSlave", 0, "kept on the master"));
            assertEquals(PutMessageStatus.SLAVE_NOT_AVAILABLE, r.status());
            assertNotNull(r.appendResult(), "the result says where the message was stored");
            assertTrue(r.reason().contains("no slave"), r.reason());
            assertEquals("kept on the master", new String(
                    master.lookMessageByOffset(r.appendResult().wroteOffset()).body()));
            assertTrue(master.replicationStatus().problem().contains("no slave"));
        }
    }

    @Test
    void aPutThatDoesNotWaitForTheStoreIsNotHeldBackBySync() {
        try (DefaultMessageStore master = HaStores.master(dir, "SYNC_MASTER")) {
            PutMessageResult r = master.putMessage(HaStores.message("NoWait", 0, "x").waitStoreMsgOk(false));
            assertEquals(PutMessageStatus.PUT_OK, r.status());
        }
    }

    @Test
    void aSlaveThatStopsAcknowledgingGivesFlushSlaveTimeoutAndOneAckReleasesEveryCoveredPut() throws Exception {
        try (DefaultMessageStore master = HaStores.master(dir, "SYNC_MASTER", "syncFlushTimeout", "1000",
                "haHousekeepingInterval", "60000");
             RawPeer slave = new RawPeer(HaStores.haAddress(master))) {
            slave.report(0);
            HaStores.await("the fake slave is seen", () -> master.replicationStatus().connectedSlaves() == 1
                    && master.replicationStatus().ackedOffset() == 0);
            PutMessageResult timedOut = master.putMessage(HaStores.message("Stall", 0, "never acknowledged"));
            assertEquals(PutMessageStatus.FLUSH_SLAVE_TIMEOUT, timedOut.status());
            assertNotNull(timedOut.appendResult());
            assertTrue(timedOut.reason().contains("stored on the master"), timedOut.reason());

            // a batch of puts waits; one acknowledgement of the end releases all of them
            List<CompletableFuture<PutMessageResult>> waiting = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                waiting.add(master.asyncPutMessage(HaStores.message("Stall", 0, "p" + i)));
            }
            long end = master.getMaxPhyOffset();
            long received = 0;
            while (received < end) {
                RawPeer.Frame f = slave.readFrame();
                received = f.offset() + f.body().length;
            }
            slave.report(end);
            for (CompletableFuture<PutMessageResult> f : waiting) {
                assertEquals(PutMessageStatus.PUT_OK, f.get().status());
            }
        }
    }

    @Test
    void anAcknowledgementOfBytesNeverSentIsRefusedAndReleasesNothing() throws Exception {
        try (DefaultMessageStore master = HaStores.master(dir, "SYNC_MASTER", "syncFlushTimeout", "60000",
                "haHousekeepingInterval", "60000");
             RawPeer slave = new RawPeer(HaStores.haAddress(master))) {
            // the fake slave claims the master's end before anything was shipped: a lie
            slave.report(0);
            HaStores.await("the fake slave is seen", () -> master.replicationStatus().connectedSlaves() == 1);
            CompletableFuture<PutMessageResult> put = master.asyncPutMessage(HaStores.message("Lie", 0, "x"));
            slave.report(master.getMaxPhyOffset() + 1_000_000);
            assertTrue(slave.closedByMaster());
            HaStores.await("the liar is counted", () -> master.replicationStatus().rejectedConnections() == 1);
            assertTrue(master.replicationStatus().ackedOffset() < master.getMaxPhyOffset());
            assertEquals(PutMessageStatus.FLUSH_SLAVE_TIMEOUT, shutdownAnswer(master, put));
        }
    }

    /** Shutting the store down completes what still waits; the put must not have been released by the lie. */
    private static PutMessageStatus shutdownAnswer(DefaultMessageStore master, CompletableFuture<PutMessageResult> put)
            throws Exception {
        assertTrue(!put.isDone(), "the put is still waiting for a real acknowledgement");
        master.shutdown();
        return put.get().status();
    }
}
