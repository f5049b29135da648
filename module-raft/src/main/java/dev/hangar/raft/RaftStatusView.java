package dev.hangar.raft;

import dev.hangar.spi.ha.BrokerRole;
import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.spi.ha.ReplicatedLog;
import dev.hangar.spi.ha.ReplicationStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;

/** Builds what operators see of a raft node from Ratis' view of the group and the state machine's offsets. */
final class RaftStatusView {
    private RaftStatusView() {
    }

    static ConsensusStatus of(RaftSettings settings, RaftServer.Division division, CommitLogStateMachine sm,
                              ReplicatedLog log, boolean ready, String problem) {
        long committed = sm.committedOffset();
        long end = log.maxOffset();
        if (division == null) {
            List<ConsensusStatus.Peer> peers = settings.peers().stream()
                    .map(p -> new ConsensusStatus.Peer(p.id(), p.address(), -1, -1, -1)).toList();
            return new ConsensusStatus(settings.selfId(), "STARTING", false, 0, "", "", committed, end, peers,
                    problem.isEmpty() ? "starting" : problem);
        }
        DivisionInfo info = division.getInfo();
        RaftPeerId leader = info.getLeaderId();
        String leaderId = leader == null ? "" : leader.toString();
        String role = info.isLeader() ? "LEADER" : info.isCandidate() ? "CANDIDATE"
                : info.isFollower() ? "FOLLOWER" : info.getCurrentRole().name();
        List<ConsensusStatus.Peer> peers = new ArrayList<>();
        RoleInfoProto roleInfo = info.isLeader() ? info.getRoleInfoProto() : null;
        long[] match = info.isLeader() ? info.getFollowerMatchIndices() : new long[0];
        List<ServerRpcProto> followers = roleInfo == null ? List.of() : roleInfo.getLeaderInfo().getFollowerInfoList();
        for (RaftPeer p : division.getRaftConf().getCurrentPeers()) {
            String id = p.getId().toString();
            long matchOffset = -1;
            long contact = -1;
            if (info.isLeader()) {
                if (id.equals(settings.selfId())) {
                    matchOffset = end;
                    contact = 0;
                } else {
                    for (int i = 0; i < followers.size(); i++) {
                        if (followers.get(i).getId().getId().toStringUtf8().equals(id)) {
                            contact = followers.get(i).getLastRpcElapsedTimeMs();
                            if (i < match.length) {
                                matchOffset = Math.max(0, sm.endAtOrBefore(match[i]));
                            }
                        }
                    }
                }
            }
            peers.add(new ConsensusStatus.Peer(id, p.getAddress(), matchOffset,
                    matchOffset < 0 ? -1 : Math.max(0, end - matchOffset), contact));
        }
        String why = problem;
        if (why.isEmpty() && leaderId.isEmpty()) {
            why = "no leader elected (a majority of " + peers.size() + " members must reach each other)";
        }
        return new ConsensusStatus(settings.selfId(), role, ready, info.getCurrentTerm(), leaderId,
                settings.httpPeers().getOrDefault(leaderId, ""), committed, end, List.copyOf(peers),
                ready || (!info.isLeader() && !leaderId.isEmpty()) ? "" : why);
    }

    /**
     * On the leader: the followers that cannot catch up because retention deleted CommitLog bytes they need (the
     * leader failed to read such bytes for a follower in this term, and their match offsets lie before this log's
     * first byte), and what the operator must do; no followers and an empty advice when none.
     */
    record Rebuild(List<ConsensusStatus.Peer> followers, String advice) {
        static final Rebuild NONE = new Rebuild(List.of(), "");
    }

    /** The {@link Rebuild} of status {@code s}: read once, then counted and shown from the same figures. */
    static Rebuild rebuildNeeded(ConsensusStatus s, CommitLogStateMachine sm, ReplicatedLog log) {
        long needed = sm.deletedRangeNeeded(s.term());
        long min = log.minOffset();
        if (!s.isLeader() || needed < 0 || min <= 0) {
            return Rebuild.NONE;
        }
        List<ConsensusStatus.Peer> behind = s.peers().stream()
                .filter(p -> !p.id().equals(s.selfId()) && p.matchOffset() >= 0 && p.matchOffset() < min).toList();
        if (behind.isEmpty()) {
            return Rebuild.NONE;
        }
        return new Rebuild(behind, "follower " + String.join(", ", behind.stream()
                .map(p -> p.id() + " (has the log up to " + p.matchOffset() + ")").toList())
                + " cannot catch up: it needs CommitLog bytes from offset " + needed + ", which retention deleted on "
                + "this leader (its log starts at " + min + "); rebuild it from a copy of a current member's store "
                + "directory (stop it, copy, start it)");
    }

    /**
     * The master/slave shaped view the store's stats already show; {@code rebuild}'s advice is the problem when the
     * group has no other, and its followers do not count as in contact: they answer heartbeats, but take nothing.
     */
    static ReplicationStatus asReplicationStatus(ConsensusStatus s, RaftSettings settings, Rebuild rebuild) {
        Set<String> stuck = rebuild.followers().stream().map(ConsensusStatus.Peer::id).collect(Collectors.toSet());
        int followersInContact = (int) s.peers().stream()
                .filter(p -> !p.id().equals(s.selfId()) && !stuck.contains(p.id()) && p.lastContactMillis() >= 0
                        && p.lastContactMillis() < 2L * settings.electionMaxMs()).count();
        long bestMatch = s.peers().stream().filter(p -> !p.id().equals(s.selfId()) && p.matchOffset() >= 0)
                .mapToLong(ConsensusStatus.Peer::matchOffset).max().orElse(-1);
        String leaderAddress = s.peers().stream().filter(p -> p.id().equals(s.leaderId()))
                .map(ConsensusStatus.Peer::address).findFirst().orElse("");
        return new ReplicationStatus(s.isLeader() ? BrokerRole.SYNC_MASTER : BrokerRole.SLAVE,
                settings.self().address(), s.isLeader() ? "" : leaderAddress, followersInContact,
                s.isLeader() ? Math.max(s.committedOffset(), bestMatch) : s.logEnd(),
                s.isLeader() ? Math.max(0, s.logEnd() - s.committedOffset()) : -1, 0, 0, 0,
                s.problem().isEmpty() ? rebuild.advice() : s.problem());
    }
}
