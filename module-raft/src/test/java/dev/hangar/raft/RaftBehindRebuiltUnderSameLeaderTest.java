package dev.hangar.raft;

import static dev.hangar.raft.RaftStores.await;
import static dev.hangar.raft.RaftStores.status;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.RaftTestAccess;
import dev.hangar.store.clean.DiskSpaceMonitor;
import dev.hangar.store.clean.DiskUsageProbe;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follower whose CommitLog bytes the leader deleted, rebuilt from a copy of a member's store while the same leader
 * keeps leading (a group of five: the leader keeps a majority while two members are stopped for the copy).
 */
class RaftBehindRebuiltUnderSameLeaderTest {
    private static final String TOPIC = "Rebuilt";
    private static final int QUEUES = 2;
    /** Five nodes in one JVM on a loaded host: longer timeouts than RaftStores' keep a pause from moving leadership. */
    private static final String[] SLOW_ELECTIONS = {"raft.electionTimeoutMin", "1000", "raft.electionTimeoutMax",
        "2000"};

    @TempDir
    Path dir;

    /**
     * Catches: a leader whose sender to the far-behind follower ends (or stays at the deleted entry) for the rest of
     * its term, so the rebuilt follower never hears of the entries after its copy until leadership moves; a sender
     * that sends bytes past the gap or bytes the leader no longer has (the follower's CommitLog would differ); and a
     * replication problem that still names the rebuilt follower.
     */
    @Test
    void aRebuiltFollowerCatchesUpUnderTheLeaderThatDeletedItsBytes() throws Exception {
        String peers = RaftStores.peers(5);
        List<DefaultMessageStore> stores = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                stores.add(RaftStores.start(dir.resolve("n" + i), peers, "n" + i, SLOW_ELECTIONS));
            }
            DefaultMessageStore leader = BehindMessages.settledLeader(stores);
            ConsensusStatus before = status(leader);
            int l = index(leader);
            int f = (l + 1) % 5;
            int g = (l + 2) % 5;
            String fId = "n" + f;
            BehindMessages.put(leader, TOPIC, QUEUES, 0, 200);
            long stoppedAt = leader.getMaxPhyOffset();
            await(fId + " holds " + stoppedAt, () -> status(stores.get(f)).committedOffset() >= stoppedAt);
            stores.get(f).close();
            stores.set(f, null);
            BehindMessages.put(leader, TOPIC, QUEUES, 200, 1200);

            // the leader's disk passes diskSpaceCleanForciblyRatio: retention deletes files the stopped follower needs
            DiskSpaceMonitor disk = RaftTestAccess.diskMonitor(leader);
            disk.useProbe(DiskUsageProbe.fixedRatio(0.88));
            assertTrue(leader.executeDeleteFilesManually() > 0, "the leader deleted files");
            assertTrue(leader.getMinPhyOffset() > stoppedAt, "the leader deleted what " + fId + " needs");
            disk.useProbe(DiskUsageProbe.fixedRatio(0.50));
            disk.check();

            DefaultMessageStore behind = RaftStores.start(dir.resolve(fId), peers, fId, SLOW_ELECTIONS);
            stores.set(f, behind);
            await("the leader names " + fId + " as needing a rebuild", () -> {
                String problem = leader.replicationStatus().problem();
                return problem.contains(fId) && problem.contains("rebuild");
            });
            BehindMessages.put(leader, TOPIC, QUEUES, 1200, 1300);
            assertTrue(behind.getMaxPhyOffset() <= stoppedAt, fId + " took nothing past the gap");

            // the operator's rebuild, both stopped at once: the leader keeps three of five
            behind.close();
            stores.set(f, null);
            stores.get(g).close();
            stores.set(g, null);
            BehindMessages.replaceWithCopy(dir.resolve("n" + g), dir.resolve(fId));
            stores.set(g, RaftStores.start(dir.resolve("n" + g), peers, "n" + g, SLOW_ELECTIONS));
            DefaultMessageStore rebuilt = RaftStores.start(dir.resolve(fId), peers, fId, SLOW_ELECTIONS);
            stores.set(f, rebuilt);

            BehindMessages.put(leader, TOPIC, QUEUES, 1300, 1400);
            long end = leader.getMaxPhyOffset();
            await(fId + " caught up to " + end, () -> status(rebuilt).committedOffset() >= end);
            BehindMessages.awaitQueues(rebuilt, TOPIC, QUEUES, 1400);
            long from = stores.stream().mapToLong(DefaultMessageStore::getMinPhyOffset).max().orElseThrow();
            byte[] leaderBytes = BehindMessages.commitLog(leader, from, end);
            for (int i = 0; i < 5; i++) {
                assertArrayEquals(leaderBytes, BehindMessages.commitLog(stores.get(i), from, end),
                        "the CommitLog of n" + i + " from " + from + " differs from the leader's");
            }
            await("the leader no longer names a follower to rebuild", () -> leader.replicationStatus().problem()
                    .isEmpty());

            ConsensusStatus after = status(leader);
            assertTrue(after.isLeader(), "n" + l + " still leads");
            assertEquals(before.term(), after.term(), "no election happened meanwhile");
        } finally {
            RaftStores.closeAll(stores);
        }
    }

    private static int index(DefaultMessageStore store) {
        return Integer.parseInt(status(store).selfId().substring(1));
    }
}
