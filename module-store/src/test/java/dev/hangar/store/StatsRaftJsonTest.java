package dev.hangar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.hangar.spi.ha.ConsensusStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code raft} part of {@code stat --json} / {@code /v1/stats} (and {@code /v1/raft}): every field of the
 * consensus status by name and in order, nulls from a provider shown as empty, and no {@code raft} field at all on a
 * store of no group (the old contract, {@link StatsJsonGoldenTest}, is unchanged).
 */
class StatsRaftJsonTest {
    @Test
    void aRaftNodeShowsItsRoleTermLeaderCommittedOffsetAndPeers() {
        ConsensusStatus s = new ConsensusStatus("n2", "FOLLOWER", false, 4, "n1", "http://h1:8080", 300, 320,
                List.of(new ConsensusStatus.Peer("n1", "h1:9870", -1, -1, -1)), "");
        assertEquals("{selfId=n2, role=FOLLOWER, leaderReady=false, term=4, leaderId=n1, "
                + "leaderServeAddress=http://h1:8080, committedOffset=300, logEnd=320, peers=[{id=n1, address=h1:9870, "
                + "matchOffset=-1, lagBytes=-1, lastContactMillis=-1}], problem=}",
                StatsSnapshot.Raft.of(s).toMap().toString());
        ConsensusStatus unknown = new ConsensusStatus("n2", "CANDIDATE", false, 5, null, null, 300, 320, List.of(), null);
        Map<String, Object> m = StatsSnapshot.Raft.of(unknown).toMap();
        assertEquals("", m.get("leaderId"));
        assertEquals("", m.get("leaderServeAddress"));
        assertEquals("", m.get("problem"));
    }

    @Test
    void theRaftPartFollowsReplicationAndIsLeftOutWhenNull() {
        StatsSnapshot.Puts puts = new StatsSnapshot.Puts(0, 0, Map.of(), new StatsSnapshot.Latency(0, 0, 0, 0, 0, 0,
                List.of(0L)), 0, 0, 0);
        StatsSnapshot.Replication ha = new StatsSnapshot.Replication("ASYNC_MASTER", false, null, null, 0, 0, 0, 0, 0,
                0, null);
        StatsSnapshot.Raft raft = StatsSnapshot.Raft.of(new ConsensusStatus("n1", "LEADER", true, 1, "n1", "", 0, 0,
                List.of(), ""));
        StatsSnapshot with = new StatsSnapshot("/s", Map.of(), List.of(), true, null, puts, true, null, null, null,
                List.of(), null, null, ha, raft, null);
        assertEquals(List.of("storePath", "providers", "runningFlags", "writable", "puts", "started", "commitLog",
                "dispatch", "flush", "queues", "disk", "retention", "replication", "raft"),
                List.copyOf(with.toMap().keySet()));
        StatsSnapshot without = new StatsSnapshot("/s", Map.of(), List.of(), true, null, puts, true, null, null, null,
                List.of(), null, null, ha, null);
        assertFalse(without.toMap().containsKey("raft"));
    }
}
