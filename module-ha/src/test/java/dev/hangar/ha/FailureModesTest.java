package dev.hangar.ha;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FailureModesTest {
    @TempDir
    Path dir;

    @Test
    void connectionsDroppedMidTransferAreResumedAndTheLogsEndIdentical() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        long end;
        try (DefaultMessageStore master = HaStores.master(m, "ASYNC_MASTER")) {
            HostileHaPeerTest.putSome(master, 0, 800);
            try (DroppingProxy proxy = new DroppingProxy(HaStores.haAddress(master), 5);
                 DefaultMessageStore slave = HaStores.slave(s, proxy.address())) {
                end = master.getMaxPhyOffset();
                HaStores.await("the slave catches up through a flaky link", () -> slave.getMaxPhyOffset() == end
                        && slave.dispatchBehindBytes() == 0 && master.dispatchBehindBytes() == 0);
                assertEquals(5, proxy.dropped.get(), "the link was cut five times");
                assertTrue(proxy.connections.get() >= 6);
                assertEquals(master.getMaxOffsetInQueue("Hostile", 0), slave.getMaxOffsetInQueue("Hostile", 0));
            }
        }
        MasterSlaveReplicationTest.assertLogsIdentical(m, s, end);
    }

    @Test
    void aSlaveAheadOfItsMasterStopsSaysWhyAndKeepsItsLog() throws Exception {
        Path m = dir.resolve("master");
        Path s = dir.resolve("slave");
        // the "slave" was a master that took more puts than the new master has
        try (DefaultMessageStore old = HaStores.started(s)) {
            HostileHaPeerTest.putSome(old, 0, 300);
        }
        List<byte[]> before = contents(s);
        try (DefaultMessageStore master = HaStores.master(m, "ASYNC_MASTER")) {
            HostileHaPeerTest.putSome(master, 0, 10);
            long masterEnd = master.getMaxPhyOffset();
            try (DefaultMessageStore slave = HaStores.slave(s, HaStores.haAddress(master))) {
                long slaveEnd = slave.getMaxPhyOffset();
                HaStores.await("the slave stops", () -> slave.replicationStatus().problem().startsWith("replication stopped"));
                String problem = slave.replicationStatus().problem();
                assertTrue(problem.contains(Long.toString(slaveEnd)) && problem.contains(Long.toString(masterEnd)),
                        problem);
                assertEquals(slaveEnd, slave.getMaxPhyOffset());
                assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE,
                        slave.putMessage(HaStores.message("Ahead", 0, "no")).status());
            }
        }
        List<byte[]> after = contents(s);
        assertEquals(before.size(), after.size());
        for (int i = 0; i < before.size(); i++) {
            assertArrayEquals(before.get(i), after.get(i), "commit-log file " + i + " was not rewritten");
        }
    }

    private static List<byte[]> contents(Path store) throws Exception {
        return HaStores.commitLogFiles(store, Long.MAX_VALUE).stream().map(p -> {
            try {
                return Files.readAllBytes(p);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).toList();
    }
}
