package dev.hangar.launcher.http;

import dev.hangar.store.DefaultMessageStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /v1/stats}: the store's statistics snapshot (as {@code stat --json} prints it) plus the server's own
 * figures under {@code http}. Thread-safe.
 */
final class StatsHandler implements Router.Handler {
    private final DefaultMessageStore store;
    private final Supplier<Map<String, Object>> serverStats;

    StatsHandler(DefaultMessageStore store, Supplier<Map<String, Object>> serverStats) {
        this.store = store;
        this.serverStats = serverStats;
    }

    @Override
    public void handle(ApiExchange exchange) {
        Map<String, Object> json = new LinkedHashMap<>(store.statsSnapshot().toMap());
        json.put("http", serverStats.get());
        exchange.respondJson(HttpStatus.OK, json);
    }
}
