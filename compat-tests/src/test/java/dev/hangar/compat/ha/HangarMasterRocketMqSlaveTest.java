package dev.hangar.compat.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.compat.support.Await;
import dev.hangar.compat.support.CommitLogFiles;
import dev.hangar.compat.support.Dataset;
import dev.hangar.compat.support.Datasets;
import dev.hangar.compat.support.Findings;
import dev.hangar.compat.support.HangarSide;
import dev.hangar.compat.support.RocketSide;
import dev.hangar.compat.support.StoreGeometry;
import java.nio.file.Path;
import java.util.List;
import org.apache.rocketmq.store.config.BrokerRole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Hangar SYNC_MASTER replicates to Apache RocketMQ 4.9.8's own store running as a SLAVE (its HAClient pointed at
 * Hangar's HA port): every put is acknowledged by RocketMQ's slave before it is answered, the slave's commit log is
 * byte-identical to the master's, and RocketMQ reads every message back by queue, offset, msgId and key.
 */
class HangarMasterRocketMqSlaveTest {
    @TempDir
    Path dir;

    @Test
    void rocketMqSlaveCopiesAHangarSyncMasterAndReadsEveryMessage() throws Exception {
        Path m = dir.resolve("hangar-master");
        Path s = dir.resolve("rocketmq-slave");
        Dataset ds = Datasets.mixed("ha-hangar-master", "M", 300, StoreGeometry.IPV4_STORE_HOST);
        Findings findings = new Findings();
        try (HangarSide master = HangarSide.open(m, ds.storeHost(), "brokerRole", "SYNC_MASTER", "haListenPort", "0",
                "haSendHeartbeatInterval", HaPeers.HEARTBEAT_MILLIS);
             RocketSide slave = RocketSide.open(HaPeers.rocketConfig(s, BrokerRole.SLAVE, HaPeers.freePort()),
                     ds.storeHost())) {
            slave.store().updateHaMasterAddress(master.store().replicationStatus().listenAddress());
            Await.until("RocketMQ's slave connects and reports", () -> {
                var st = master.store().replicationStatus();
                return st.connectedSlaves() == 1 && st.ackedOffset() >= 0;
            });
            master.write(ds); // fails on anything but PUT_OK: each put was acknowledged by RocketMQ's slave
            Await.dispatched(slave, ds.queueCounts());
            long end = master.store().getMaxPhyOffset();
            assertEquals(end, slave.store().getMaxPhyOffset());
            assertEquals(end, master.store().replicationStatus().ackedOffset());
            List<CommitLogFiles.Entry> records = CommitLogFiles.records(m);
            findings.holds("RocketMQ 4.9.8's slave reads what the Hangar master wrote",
                    Findings.snapshot(slave, ds, records), ds, records, true);
            findings.check("byte-identical commit logs", HaPeers.differences(m, s, 0, end,
                    StoreGeometry.COMMIT_LOG_FILE_SIZE).isEmpty(),
                    HaPeers.differences(m, s, 0, end, StoreGeometry.COMMIT_LOG_FILE_SIZE));
        }
        findings.assertNone();
    }
}
