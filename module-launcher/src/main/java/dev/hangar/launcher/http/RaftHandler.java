package dev.hangar.launcher.http;

import dev.hangar.launcher.ErrorMessages;
import dev.hangar.spi.ha.ConsensusGroup;
import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.StatsSnapshot;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The consensus group of a {@code raft} node over HTTP ({@code store-launcher raft ...} talks to these):
 * <pre>
 *   GET    /v1/raft                              this node's view: role, term, leader, committed offset, peers
 *   POST   /v1/raft/transfer-leader?peer=ID      hand leadership to member ID
 *   POST   /v1/raft/peers?peer=ID@HOST:PORT      add a member (it catches up before it counts)
 *   DELETE /v1/raft/peers/{id}                   remove a member
 * </pre>
 * A change is answered once the group applied it (200 with the status after it), 400 for a malformed or unknown
 * peer, 503 with the group's reason when it refused, 504 when it did not finish within {@link #CHANGE_BOUND} (it may
 * still complete: check {@code GET /v1/raft}). Every endpoint is a 404 on a store that belongs to no group. These
 * endpoints are not redirected to the leader (see {@link LeaderGate}): the group forwards a change itself.
 * Thread-safe.
 */
final class RaftHandler {
    static final Set<String> PEER_QUERY = Set.of("peer");
    /** How long a change may take before the answer is a 504: a new member first catches up. */
    static final Duration CHANGE_BOUND = Duration.ofSeconds(60);
    private static final Pattern PEER_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** {@code id@host:port}, the host a name, an IPv4 address or a bracketed IPv6 address. */
    private static final Pattern PEER = Pattern.compile("([^@]+)@(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9.-]+):([0-9]{1,5})");

    private final DefaultMessageStore store;
    private final Executor responder;

    /** @param responder answers the changes that complete later */
    RaftHandler(DefaultMessageStore store, Executor responder) {
        this.store = store;
        this.responder = responder;
    }

    void status(ApiExchange exchange) {
        exchange.respondJson(HttpStatus.OK, StatsSnapshot.Raft.of(group().status()).toMap());
    }

    void transferLeader(ApiExchange exchange) {
        ConsensusGroup group = group();
        String id = peerId(requiredPeer(exchange));
        requireMember(group.status(), id);
        change(exchange, group, "transfer-leader", id, g -> g.transferLeader(id));
    }

    void addPeer(ApiExchange exchange) {
        ConsensusGroup group = group();
        String peer = requiredPeer(exchange);
        var m = PEER.matcher(peer);
        if (!m.matches() || Integer.parseInt(m.group(3)) < 1 || Integer.parseInt(m.group(3)) > 65535) {
            throw ApiException.badRequest("peer must be ID@HOST:PORT (e.g. n4@10.0.0.4:9870, port 1-65535), not '"
                    + UriCodec.shorten(peer) + "'");
        }
        String id = peerId(m.group(1));
        if (group.status().peers().stream().anyMatch(p -> p.id().equals(id))) {
            throw ApiException.badRequest("peer " + id + " is already a member of the group; remove it first to "
                    + "change its address");
        }
        change(exchange, group, "add-peer", peer, g -> g.addPeer(peer));
    }

    void removePeer(ApiExchange exchange) {
        ConsensusGroup group = group();
        String id = peerId(exchange.pathParameter("id"));
        requireMember(group.status(), id);
        change(exchange, group, "remove-peer", id, g -> g.removePeer(id));
    }

    private ConsensusGroup group() {
        return store.consensus().orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND, "this store is not a raft "
                + "node (it belongs to no consensus group; start it with haService=raft)"));
    }

    private static String requiredPeer(ApiExchange exchange) {
        String peer = exchange.query().single("peer");
        if (peer == null || peer.isBlank()) {
            throw ApiException.badRequest("query parameter 'peer' is required");
        }
        return peer.strip();
    }

    private static String peerId(String id) {
        if (!PEER_ID.matcher(id).matches()) {
            throw ApiException.badRequest("a peer id is 1-64 letters, digits, '_' or '-' (as in raft.peers), "
                    + "not '" + UriCodec.shorten(id) + "'");
        }
        return id;
    }

    private static void requireMember(ConsensusStatus s, String id) {
        List<String> ids = s.peers().stream().map(ConsensusStatus.Peer::id).toList();
        if (!ids.contains(id)) {
            throw ApiException.badRequest("peer " + id + " is not a member of the group (members: "
                    + (ids.isEmpty() ? "none known" : String.join(", ", ids)) + ")");
        }
    }

    private void change(ApiExchange exchange, ConsensusGroup group, String what, String peer,
                        Function<ConsensusGroup, CompletableFuture<Void>> call) {
        CompletableFuture<Void> applied;
        try {
            // a copy: the bound must not complete the group's own future
            applied = call.apply(group).copy().orTimeout(CHANGE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(what + " " + peer + ": " + ErrorMessages.oneLine(e));
        }
        applied.whenCompleteAsync((done, failure) -> Router.answerSafely(exchange, () -> {
            if (failure == null) {
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("done", what);
                json.put("peer", peer);
                json.put("raft", StatsSnapshot.Raft.of(group.status()).toMap());
                exchange.respondJson(HttpStatus.OK, json);
                return;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof TimeoutException) {
                exchange.respondError(HttpStatus.GATEWAY_TIMEOUT, what + " " + peer + " did not finish within "
                        + CHANGE_BOUND.toSeconds() + " s; it may still complete (see GET /v1/raft)");
            } else if (cause instanceof IllegalArgumentException) {
                exchange.respondError(HttpStatus.BAD_REQUEST, what + " " + peer + ": " + ErrorMessages.oneLine(cause));
            } else {
                exchange.respondError(HttpStatus.SERVICE_UNAVAILABLE, what + " " + peer + " was refused by the group: "
                        + ErrorMessages.oneLine(cause));
            }
        }), responder);
    }
}
