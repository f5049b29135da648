package dev.hangar.launcher.http;

import dev.hangar.store.DefaultMessageStore;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /health}: 200 {@code {"status":"UP"}} while the store takes writes; 503
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
        if (store.runtime() == null) {
            reason = "the store is not started";
        } else if (!store.runningFlags().isWritable()) {
            reason = store.runningFlags().reason() != null ? store.runningFlags().reason()
                    : "the store is not writable: " + store.runningFlags().names();
        }
        json.put("status", reason == null ? "UP" : "DOWN");
        if (reason != null) {
            json.put("reason", reason);
        }
        exchange.respondJson(reason == null ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE, json);
    }
}
