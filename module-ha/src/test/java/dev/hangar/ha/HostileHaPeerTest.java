package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.verify.StoreVerifier;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input on the HA port: each connection is closed, logged and counted; the master keeps taking puts, and a
 * real slave connected at the same time still ends byte-identical.
 */
class HostileHaPeerTest {
    @TempDir
    Path dir;

    private interface Attack {
        void run(RawPeer peer, DefaultMessageStore master) throws IOException;
    }

    @Test
    void eachHostilePeerIsClosedAndCountedWhileTheMasterKeepsWorking() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        long end;
        try (DefaultMessageStore master = HaStores.master(m, "SYNC_MASTER", "haHousekeepingInterval", "1500");
             DefaultMessageStore slave = HaStores.slave(s, HaStores.haAddress(master))) {
            HaStores.await("the real slave connects", () -> master.replicationStatus().connectedSlaves() == 1);
            putSome(master, 0, 200);
            Attack[] attacks = {
                (p, ms) -> p.send(randomBytes(4096, 1)),                       // noise
                (p, ms) -> p.report(-5),                                       // negative offset
                (p, ms) -> p.report(Long.MAX_VALUE),                           // past the master's end
                (p, ms) -> p.send(new byte[] {0, 0, 0, 0}),                    // half a report, then silence
                (p, ms) -> {                                                   // asks for everything, never reads
                    p.report(0);
                    putSome(ms, 1000, 1400);
                },
                (p, ms) -> {                                                   // goes backwards
                    p.report(0);
                    p.readFrame();
                    p.report(ms.getMaxPhyOffset() > 10 ? 10 : 0);
                    p.report(5);
                },
            };
            long rejectedBefore = master.replicationStatus().rejectedConnections();
            for (int i = 0; i < attacks.length; i++) {
                try (RawPeer peer = new RawPeer(HaStores.haAddress(master))) {
                    attacks[i].run(peer, master);
                    if (i != 4) {
                        assertTrue(peer.closedByMaster(), "attack " + i);
                    }
                    long expected = rejectedBefore + i + 1;
                    int attack = i;
                    HaStores.await("attack " + attack + " is counted",
                            () -> master.replicationStatus().rejectedConnections() >= expected);
                }
                // puts still work and still reach the real slave
                assertEquals(PutMessageStatus.PUT_OK,
                        master.putMessage(HaStores.message("Hostile", 0, "after attack " + i)).status());
            }
            assertEquals(1, master.replicationStatus().connectedSlaves(), "only the real slave is left");
            end = master.getMaxPhyOffset();
            HaStores.await("the real slave catches up", () -> slave.getMaxPhyOffset() == end);
        }
        MasterSlaveReplicationTest.assertLogsIdentical(m, s, end);
        assertTrue(StoreVerifier.verify(m, HaStores.config(m)).healthy(), "master files intact");
    }

    static void putSome(DefaultMessageStore master, int from, int to) {
        for (int i = from; i < to; i++) {
            PutMessageStatus st = master.putMessage(HaStores.message("Hostile", i % 2, MasterSlaveReplicationTest.body(i))
                    .waitStoreMsgOk(false)).status();
            assertEquals(PutMessageStatus.PUT_OK, st);
        }
    }

    static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void aPeerThatKeepsReportingButNeverReadsIsClosedAsStalledWithoutBlockingPuts() throws Exception {
        try (DefaultMessageStore master = HaStores.master(dir, "ASYNC_MASTER", "haHousekeepingInterval", "1500");
             RawPeer peer = new RawPeer(HaStores.haAddress(master))) {
            peer.report(0);
            Thread reporter = new Thread(() -> {
                try {
                    while (true) {
                        peer.report(0); // alive, so only the drain watch can close it
                        Thread.sleep(100);
                    }
                } catch (IOException | InterruptedException e) {
                    // closed by the master: done
                }
            });
            reporter.setDaemon(true);
            reporter.start();
            String big = "x".repeat(8 * 1024);
            for (int i = 0; i < 1200 && master.replicationStatus().rejectedConnections() == 0; i++) {
                assertEquals(PutMessageStatus.PUT_OK, master.putMessage(HaStores.message("Big", 0, big)).status());
            }
            HaStores.await("the stalled peer is closed", () -> master.replicationStatus().rejectedConnections() == 1);
            assertEquals(0, master.replicationStatus().connectedSlaves());
            reporter.join(60_000);
            assertEquals(PutMessageStatus.PUT_OK, master.putMessage(HaStores.message("Big", 0, "after")).status());
        }
    }
}
