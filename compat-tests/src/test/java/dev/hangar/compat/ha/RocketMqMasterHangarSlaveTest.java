package dev.hangar.compat.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * A Hangar SLAVE copies Apache RocketMQ 4.9.8's own store running as a master: the copy is byte-identical and
 * Hangar reads every message back. RocketMQ starts a fresh slave at the start of its newest commit-log file, so a
 * Hangar slave that joins late holds a log that begins past 0.
 */
class RocketMqMasterHangarSlaveTest {
    private static final int FILE = StoreGeometry.COMMIT_LOG_FILE_SIZE;

    @TempDir
    Path dir;

    @Test
    void hangarSlaveCopiesARocketMqSyncMasterAndReadsEveryMessage() throws Exception {
        Path m = dir.resolve("rocketmq-master");
        Path s = dir.resolve("hangar-slave");
        Dataset ds = Datasets.mixed("ha-rocketmq-master", "R", 300, StoreGeometry.IPV4_STORE_HOST);
        int port = HaPeers.freePort();
        Findings findings = new Findings();
        try (RocketSide master = RocketSide.open(HaPeers.rocketConfig(m, BrokerRole.SYNC_MASTER, port), ds.storeHost());
             HangarSide slave = HangarSide.open(s, ds.storeHost(), "brokerRole", "SLAVE",
                     "haMasterAddress", "127.0.0.1:" + port, "haSendHeartbeatInterval", HaPeers.HEARTBEAT_MILLIS)) {
            Await.until("the Hangar slave connects to RocketMQ",
                    () -> master.store().getHaService().getConnectionCount().get() == 1);
            master.write(ds); // RocketMQ's SYNC_MASTER answers PUT_OK only once the Hangar slave acknowledged
            long end = master.store().getMaxPhyOffset();
            Await.until("the slave holds everything", () -> slave.store().getMaxPhyOffset() == end);
            Await.dispatched(slave, ds.queueCounts());
            List<CommitLogFiles.Entry> records = CommitLogFiles.records(m);
            findings.holds("the Hangar slave reads what RocketMQ 4.9.8's master wrote",
                    Findings.snapshot(slave, ds, records), ds, records, true);
            String diff = HaPeers.differences(m, s, 0, end, FILE);
            findings.check("byte-identical commit logs", diff.isEmpty(), diff);
        }
        findings.assertNone();
    }

    @Test
    void aLateHangarSlaveStartsAtRocketMqsNewestFileAndFollowsFromThere() throws Exception {
        Path m = dir.resolve("rocketmq-master");
        Path s = dir.resolve("hangar-slave");
        Dataset before = Datasets.mixed("ha-before", "B", 250, StoreGeometry.IPV4_STORE_HOST);
        Dataset after = Datasets.mixed("ha-after", "A", 150, StoreGeometry.IPV4_STORE_HOST, 10_000);
        int port = HaPeers.freePort();
        Findings findings = new Findings();
        try (RocketSide master = RocketSide.open(HaPeers.rocketConfig(m, BrokerRole.ASYNC_MASTER, port),
                before.storeHost())) {
            master.write(before);
            long lastFileStart = master.store().getMaxPhyOffset() - master.store().getMaxPhyOffset() % FILE;
            assertTrue(lastFileStart >= 3L * FILE, "the first dataset fills several files: " + lastFileStart);
            int recordsBefore = CommitLogFiles.records(m).size();
            try (HangarSide slave = HangarSide.open(s, before.storeHost(), "brokerRole", "SLAVE",
                    "haMasterAddress", "127.0.0.1:" + port, "haSendHeartbeatInterval", HaPeers.HEARTBEAT_MILLIS)) {
                Await.until("the slave copies RocketMQ's newest file",
                        () -> slave.store().getMaxPhyOffset() == master.store().getMaxPhyOffset());
                assertEquals(lastFileStart, slave.store().getMinPhyOffset(), "the slave's log starts past 0");
                master.write(after);
                long end = master.store().getMaxPhyOffset();
                Await.until("the slave follows", () -> slave.store().getMaxPhyOffset() == end);
                Await.dispatched(slave, after.queueCounts());
                List<CommitLogFiles.Entry> records = CommitLogFiles.records(m);
                List<CommitLogFiles.Entry> afterRecords = records.subList(recordsBefore, records.size());
                // delayed messages of both datasets share SCHEDULE_TOPIC_XXXX's queues, so the second dataset's
                // queue offsets there do not start at 0: compare with what RocketMQ itself answers
                // ... except where the slave's log begins: its commit log and the shared queues start later
                List<String> diffs = Findings.snapshot(master, after, afterRecords)
                        .differences(Findings.snapshot(slave, after, afterRecords), 100).stream()
                        .filter(d -> !startsLater(d, lastFileStart)).toList();
                findings.add("the late Hangar slave answers as RocketMQ's master for every message after it joined",
                        diffs);
                for (CommitLogFiles.Entry e : records) {
                    if (!e.blank() && e.offset() >= lastFileStart) {
                        findings.check("record at " + e.offset(), slave.lookByOffset(e.offset()) != null,
                                "the slave cannot read the record at " + e.offset() + " it copied");
                    }
                }
                String diff = HaPeers.differences(m, s, lastFileStart, end, FILE);
                findings.check("byte-identical from the newest file on", diff.isEmpty(), diff);
            }
        }
        findings.assertNone();
    }

    /** "range: rocketmq=[a, b) vs hangar=[c, b)": the same end, a later start (the slave began at lastFileStart). */
    private static boolean startsLater(String difference, long lastFileStart) {
        java.util.regex.Matcher x = java.util.regex.Pattern
                .compile("(commit log range|queue \\S+ offsets): rocketmq=\\[(\\d+), (\\d+)\\) vs hangar=\\[(\\d+), (\\d+)\\)")
                .matcher(difference);
        if (!x.matches() || !x.group(3).equals(x.group(5))) {
            return false;
        }
        long hangarStart = Long.parseLong(x.group(4));
        return hangarStart > Long.parseLong(x.group(2))
                && (!x.group(1).startsWith("commit") || hangarStart == lastFileStart);
    }
}
