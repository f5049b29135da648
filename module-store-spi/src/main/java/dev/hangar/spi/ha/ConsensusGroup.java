package dev.hangar.spi.ha;

import java.util.concurrent.CompletableFuture;

/**
 * The view and the controls of a replication group that elects its writer (a Raft group): what
 * {@code raft status}, {@code /v1/stats}, {@code /metrics} and {@code /health} show, and the online changes an
 * operator makes. The futures complete when the group has applied the change, or exceptionally with the reason.
 */
public interface ConsensusGroup {

    /** A consistent snapshot: cheap, from any thread. */
    ConsensusStatus status();

    /** Asks the leader to hand leadership to {@code peerId} (a member of the group). */
    CompletableFuture<Void> transferLeader(String peerId);

    /** Adds a peer ({@code id@host:port}); it catches up from the leader before it counts towards a majority. */
    CompletableFuture<Void> addPeer(String peer);

    /** Removes a peer by id. */
    CompletableFuture<Void> removePeer(String peerId);
}
