package dev.hangar.launcher.http;

import dev.hangar.spi.ha.ConsensusGroup;
import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.service.LauncherAccess;
import dev.hangar.store.service.RunningFlags;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /health}: 200 {@code {"status":"UP"}} while the store takes writes; 200 {@code {"status":"DEGRADED",
 * "reason":"..."}} when replication is degraded (a SYNC_MASTER without a slave, a slave cut off its master); 503
 * {@code {"status":"DOWN","reason":"..."}} when it does not (disk full, a logic-queue or index write error, not
 * started).
 *
 * <p>On a node of a consensus group (a {@code raft} node) {@code role} is its role in the group ({@code LEADER},
 * {@code FOLLOWER}, {@code CANDIDATE}, {@code STARTING}), with {@code self}, {@code leader}, {@code leaderReady},
 * {@code term} and {@code committedOffset}: 200 {@code UP} while the group has a leader; 503 {@code DEGRADED}
 * with the group's reason when it has none or reports a problem (no majority), since no write can succeed through
 * this node then. Thread-safe.
 */
final class HealthHandler implements Router.Handler {
    private final DefaultMessageStore store;

    HealthHandler(DefaultMessageStore store) {
        this.store = store;
    }

    @Override
    public void handle(ApiExchange exchange) {
        Map<String, Object> json = new LinkedHashMap<>();
        String reason = null;
        RunningFlags flags = LauncherAccess.runningFlags(store);
        if (!store.isStarted()) {
            reason = "the store is not started";
        } else if (!flags.isWritable()) {
            reason = flags.reason() != null ? flags.reason() : "the store is not writable: " + flags.names();
        }
        ConsensusStatus raft = store.consensus().map(ConsensusGroup::status).orElse(null);
        String degraded = reason != null ? null : raft != null ? groupProblem(raft) : replicationProblem();
        json.put("status", reason != null ? "DOWN" : degraded != null ? "DEGRADED" : "UP");
        if (raft != null) {
            json.put("role", raft.role());
            json.put("self", raft.selfId());
            json.put("leader", raft.leaderId());
            json.put("leaderReady", raft.leaderReady());
            json.put("term", raft.term());
            json.put("committedOffset", raft.committedOffset());
        } else if (store.replicationStatus() != null) {
            json.put("role", store.role().name());
        }
        if (reason != null || degraded != null) {
            json.put("reason", reason != null ? reason : degraded);
        }
        boolean serving = reason == null && (raft == null || degraded == null);
        exchange.respondJson(serving ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE, json);
    }

    /** Why the group takes no writes: the problem it reports (no majority...), or that it knows no leader. */
    private static String groupProblem(ConsensusStatus s) {
        if (s.problem() != null && !s.problem().isEmpty()) {
            return s.problem();
        }
        if (s.leaderId() == null || s.leaderId().isEmpty()) {
            return "no leader (this node is " + s.role() + " in term " + s.term() + ")";
        }
        return null;
    }

    /**
     * Why replication is degraded, or null: a SYNC_MASTER without a slave that can take its puts (they are stored
     * but answered SLAVE_NOT_AVAILABLE), or a slave that stopped copying or cannot reach its master.
     */
    private String replicationProblem() {
        dev.hangar.spi.ha.ReplicationStatus s = store.replicationStatus();
        if (s == null || s.problem().isEmpty() || s.role() == dev.hangar.spi.ha.BrokerRole.ASYNC_MASTER) {
            return null;
        }
        return s.role() + ": " + s.problem();
    }
}
