package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code haAllowedSlaves}: a master closes a connection from any other address before reading or sending a byte and
 * counts it, while slaves from listed addresses replicate. The peers pick their source address by binding to another
 * loopback address (127.0.0.2, 127.0.0.3, ...: on Linux all of 127/8 is local), so one machine plays both sides.
 */
class AllowedSlavesTest {
    @TempDir
    Path dir;

    @Test
    void aSlaveFromAnAllowedAddressReplicates() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        long end;
        try (DefaultMessageStore master = HaStores.master(m, "SYNC_MASTER", "haAllowedSlaves", "10.9.9.9,127.0.0.1");
             DefaultMessageStore slave = HaStores.slave(s, HaStores.haAddress(master))) {
            HaStores.await("the slave connects", () -> master.replicationStatus().connectedSlaves() == 1);
            HostileHaPeerTest.putSome(master, 0, 100);
            assertEquals(PutMessageStatus.PUT_OK, master.putMessage(HaStores.message("Allowed", 0, "acked")).status());
            end = master.getMaxPhyOffset();
            HaStores.await("the slave catches up", () -> slave.getMaxPhyOffset() == end);
            assertEquals(0, master.replicationStatus().rejectedConnections());
        }
        MasterSlaveReplicationTest.assertLogsIdentical(m, s, end);
    }

    @Test
    void aConnectionFromAnAddressNotOnTheListIsClosedBeforeAByteAndCounted() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        try (DefaultMessageStore master = HaStores.master(m, "ASYNC_MASTER", "haAllowedSlaves", "127.0.0.2")) {
            HostileHaPeerTest.putSome(master, 0, 50);
            String ha = HaStores.haAddress(master);

            assertEquals(0, bytesAfterAskingForTheLog(ha, "127.0.0.1"), "a refused peer gets not one byte");
            HaStores.await("the refusal is counted", () -> master.replicationStatus().rejectedConnections() == 1);
            assertEquals(0, bytesAfterAskingForTheLog(ha, "127.0.0.1"));
            HaStores.await("each refusal is counted", () -> master.replicationStatus().rejectedConnections() == 2);

            // the same master ships to the listed address: the check is on the peer's source address
            try (RawPeer allowed = new RawPeer(ha, "127.0.0.2")) {
                allowed.report(0);
                RawPeer.Frame first = allowed.readFrame();
                assertEquals(0, first.offset());
                assertTrue(first.body().length > 0, "the allowed peer gets the log");
                HaStores.await("the allowed peer is a connected slave",
                        () -> master.replicationStatus().connectedSlaves() == 1);
            }
            assertEquals(2, master.replicationStatus().rejectedConnections(), "the allowed peer is not counted");

            // a real slave connecting from 127.0.0.1 retries and is refused each time, copying nothing
            try (DefaultMessageStore slave = HaStores.slave(s, ha)) {
                HaStores.await("the slave's attempts are refused",
                        () -> master.replicationStatus().rejectedConnections() >= 4);
                assertEquals(0, slave.getMaxPhyOffset(), "the refused slave copied nothing");
            }
            assertEquals(PutMessageStatus.PUT_OK, master.putMessage(HaStores.message("Refused", 0, "after")).status());
        }
    }

    @Test
    void aCidrRangeAdmitsItsAddressesAndNoOthers() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        long end;
        // 127.0.0.0/30 holds 127.0.0.0-127.0.0.3
        try (DefaultMessageStore master = HaStores.master(m, "SYNC_MASTER", "haAllowedSlaves", "10.0.0.0/8, 127.0.0.0/30");
             DefaultMessageStore slave = HaStores.slave(s, HaStores.haAddress(master))) {
            String ha = HaStores.haAddress(master);
            HaStores.await("the slave from 127.0.0.1 connects", () -> master.replicationStatus().connectedSlaves() == 1);
            HostileHaPeerTest.putSome(master, 0, 50);

            assertEquals(0, bytesAfterAskingForTheLog(ha, "127.0.0.4"), "127.0.0.4 is past the /30");
            HaStores.await("the refusal is counted", () -> master.replicationStatus().rejectedConnections() == 1);
            try (RawPeer inRange = new RawPeer(ha, "127.0.0.3")) {
                inRange.report(0);
                assertEquals(0, inRange.readFrame().offset(), "127.0.0.3 is inside the /30");
            }

            assertEquals(PutMessageStatus.PUT_OK, master.putMessage(HaStores.message("Cidr", 0, "acked")).status());
            end = master.getMaxPhyOffset();
            HaStores.await("the slave catches up", () -> slave.getMaxPhyOffset() == end);
            assertEquals(1, master.replicationStatus().rejectedConnections());
        }
        MasterSlaveReplicationTest.assertLogsIdentical(m, s, end);
    }

    @Test
    void anIpv6ListIsMatchedAgainstIpv6Peers() throws Exception {
        assumeTrue(canListenOnIpv6Loopback(), "this host has no IPv6 loopback");
        try (DefaultMessageStore master = HaStores.master(dir.resolve("allowed"), "ASYNC_MASTER",
                "haListenHost", "::1", "haAllowedSlaves", "fd00::/8,::1")) {
            HostileHaPeerTest.putSome(master, 0, 20);
            try (RawPeer peer = new RawPeer(HaStores.haAddress(master))) {
                peer.report(0);
                assertEquals(0, peer.readFrame().offset());
            }
            assertEquals(0, master.replicationStatus().rejectedConnections());
        }
        try (DefaultMessageStore master = HaStores.master(dir.resolve("refused"), "ASYNC_MASTER",
                "haListenHost", "::1", "haAllowedSlaves", "fd00::/8,127.0.0.1")) {
            HostileHaPeerTest.putSome(master, 0, 20);
            assertEquals(0, bytesAfterAskingForTheLog(HaStores.haAddress(master), null), "::1 is not listed");
            HaStores.await("the refusal is counted", () -> master.replicationStatus().rejectedConnections() == 1);
        }
    }

    @Test
    void aBadListIsRefusedAtConfigurationNamingTheKeyAndTheEntry() {
        Path m = dir.resolve("master");
        ConfigException e = assertThrows(ConfigException.class,
                () -> HaStores.master(m, "SYNC_MASTER", "haAllowedSlaves", "127.0.0.1,10.0.0.0/40"));
        assertTrue(e.getMessage().contains("haAllowedSlaves") && e.getMessage().contains("'10.0.0.0/40'")
                && e.getMessage().contains("prefix length"), e.getMessage());
        ConfigException name = assertThrows(ConfigException.class,
                () -> HaStores.master(m, "SYNC_MASTER", "haAllowedSlaves", "slave1.example.com"));
        assertTrue(name.getMessage().contains("haAllowedSlaves") && name.getMessage().contains("'slave1.example.com'"),
                name.getMessage());
        assertFalse(Files.exists(m.resolve("commitlog")), "nothing was opened");
    }

    /** Connects from {@code source} (any when null), asks for the whole log and counts what comes before the close. */
    private static int bytesAfterAskingForTheLog(String master, String source) throws IOException {
        try (RawPeer peer = new RawPeer(master, source)) {
            try {
                peer.report(0);
            } catch (IOException closedFirst) {
                // the master closed before the report went out: what follows still counts the bytes
            }
            return peer.bytesUntilClosed(20);
        }
    }

    private static boolean canListenOnIpv6Loopback() {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
