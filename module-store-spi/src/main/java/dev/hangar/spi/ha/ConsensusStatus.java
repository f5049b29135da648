package dev.hangar.spi.ha;

import java.util.List;

/**
 * One node's view of its consensus group.
 *
 * @param selfId              this node's peer id
 * @param role                {@code LEADER}, {@code FOLLOWER}, {@code CANDIDATE} or {@code STARTING}
 * @param leaderReady         true on a leader that takes puts (it has applied every earlier entry and readied its
 *                            log), false otherwise
 * @param term                the current term
 * @param leaderId            the leader's peer id, or empty while there is none known
 * @param leaderServeAddress  the leader's HTTP address ({@code http://host:port}) for redirects, or empty when unknown
 * @param committedOffset     the CommitLog offset a quorum holds (what reads may show)
 * @param logEnd              this node's CommitLog end
 * @param peers               every member with its progress (match offsets known on the leader only)
 * @param problem             why the group cannot take puts (no majority, no leader), or empty
 */
public record ConsensusStatus(String selfId, String role, boolean leaderReady, long term, String leaderId,
                              String leaderServeAddress, long committedOffset, long logEnd, List<Peer> peers,
                              String problem) {

    /**
     * @param id          peer id
     * @param address     its Raft address ({@code host:port})
     * @param matchOffset the CommitLog offset the leader knows it holds, or -1 when this node is not the leader
     * @param lagBytes    the leader's log end minus {@code matchOffset}, or -1 when unknown
     * @param lastContactMillis millis since the leader last heard from it, or -1 when unknown
     */
    public record Peer(String id, String address, long matchOffset, long lagBytes, long lastContactMillis) {
    }

    public boolean isLeader() {
        return "LEADER".equals(role);
    }
}
