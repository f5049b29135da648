package dev.hangar.launcher.http;

import dev.hangar.spi.ha.ConsensusGroup;
import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.store.DefaultMessageStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Sends the writes that reach a node of a consensus group (a {@code raft} node) which is not a ready leader to the
 * leader: {@code 307 Temporary Redirect} to the leader's serve address with the same path and query (a client that
 * follows it, {@code curl -L} or the JDK's client, sends the same method and body there), or {@code 503} with the
 * reason while there is no leader or its address is unknown. It decides from the store's put check (the one every
 * put passes: {@link DefaultMessageStore#replicationPutRefusal()}) and the group's status, before the handler reads
 * the body; the body is read and discarded by the answer (see {@link ApiExchange#respond}), so the
 * connection stays usable. On a store without a consensus group, and on the ready leader, the handler runs as
 * before. Thread-safe.
 */
final class LeaderGate {
    private final DefaultMessageStore store;

    LeaderGate(DefaultMessageStore store) {
        this.store = store;
    }

    /** {@code write}, run only where writes are taken; elsewhere the request is redirected or refused. */
    Router.Handler writes(Router.Handler write) {
        return exchange -> {
            // the store's own put check first: it is cheap, where the group's full status is built per call
            Optional<ConsensusGroup> group = store.consensus();
            if (group.isEmpty() || store.replicationPutRefusal() == null) {
                write.handle(exchange);
                return;
            }
            redirectOrRefuse(exchange, group.get().status());
        };
    }

    private static void redirectOrRefuse(ApiExchange exchange, ConsensusStatus s) {
        String leader = s.leaderId() == null ? "" : s.leaderId();
        String address = s.leaderServeAddress() == null ? "" : s.leaderServeAddress();
        if (s.isLeader()) {
            // this node won the election but has not readied its log yet: a redirect would point back here
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "this node (" + s.selfId() + ") was just elected "
                    + "leader of term " + s.term() + " and is not ready for writes yet; retry shortly");
        }
        if (leader.isEmpty() || leader.equals(s.selfId())) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "no leader: this node (" + s.selfId() + ", "
                    + s.role() + ") cannot take writes and knows no leader to send them to"
                    + (s.problem() == null || s.problem().isEmpty() ? "" : " (" + s.problem() + ")") + "; retry shortly");
        }
        if (address.isEmpty()) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "this node (" + s.selfId() + ") is a " + s.role()
                    + "; the leader is " + leader + " but its HTTP address is not known here; send writes to it");
        }
        String location = stripSlash(address) + exchange.rawPath()
                + (exchange.rawQuery() == null ? "" : "?" + exchange.rawQuery());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("error", "this node (" + s.selfId() + ") is a " + s.role() + ": writes go to the leader " + leader);
        json.put("leader", leader);
        json.put("location", location);
        exchange.respondJson(HttpStatus.TEMPORARY_REDIRECT, json, Map.of("Location", location));
    }

    private static String stripSlash(String address) {
        return address.endsWith("/") ? address.substring(0, address.length() - 1) : address;
    }
}
