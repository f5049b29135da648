package dev.hangar.launcher.http;

import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.service.LauncherAccess;
import dev.hangar.store.service.RunningFlags;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /health}: 200 {@code {"status":"UP"}} while the store takes writes; 200 {@code {"status":"DEGRADED",
 * "reason":"..."}} when replication is degraded (a SYNC_MASTER without a slave, a slave cut off its master); 503
 * {@code {"status":"DOWN","reason":"..."}} when it does not (disk full, a logic-queue or index write error, not
 * started). Thread-safe.
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
        String degraded = reason == null ? replicationProblem() : null;
        json.put("status", reason != null ? "DOWN" : degraded != null ? "DEGRADED" : "UP");
        if (store.replicationStatus() != null) {
            json.put("role", store.role().name());
        }
        if (reason != null || degraded != null) {
            json.put("reason", reason != null ? reason : degraded);
        }
        exchange.respondJson(reason == null ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE, json);
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
