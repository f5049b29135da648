package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.fixture.TestConsensusProvider;
import dev.hangar.spi.ha.ConsensusStatus;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What clients and operators see of a raft node over HTTP, with two stores whose consensus status the test sets
 * ({@code haService=test-consensus}): a follower redirects every write to the leader and serves reads, answers 503
 * without a leader; /health, /v1/stats, /metrics and /v1/raft show the group; the admin endpoints call the group.
 */
class RaftHttpTest {
    private static final List<ConsensusStatus.Peer> PEERS = List.of(
            new ConsensusStatus.Peer("a", "127.0.0.1:9871", 4096, 0, 3),
            new ConsensusStatus.Peer("b", "127.0.0.1:9872", 1024, 3072, 250),
            new ConsensusStatus.Peer("c", "127.0.0.1:9873", -1, -1, -1));

    @TempDir
    Path dir;

    private ApiServerFixture leader;
    private ApiServerFixture follower;
    private TestConsensusProvider.Node leaderNode;
    private TestConsensusProvider.Node followerNode;

    @BeforeEach
    void twoNodes() throws Exception {
        leader = new ApiServerFixture(dir.resolve("a"), "", 4, 16, Map.of("haService", "test-consensus"));
        follower = new ApiServerFixture(dir.resolve("b"), "", 4, 16, Map.of("haService", "test-consensus"));
        leaderNode = TestConsensusProvider.node(dir.resolve("a").resolve("store"));
        followerNode = TestConsensusProvider.node(dir.resolve("b").resolve("store"));
        leaderNode.set(status("a", "LEADER", true, "a", leader.base, ""));
        followerNode.set(status("b", "FOLLOWER", false, "a", leader.base, ""));
    }

    @AfterEach
    void close() {
        follower.close();
        leader.close();
    }

    private static ConsensusStatus status(String self, String role, boolean ready, String leaderId, String address,
                                          String problem) {
        return new ConsensusStatus(self, role, ready, 7, leaderId, address, 4096, 4200, PEERS, problem);
    }

    @Test
    void aPutToAFollowerIsA307ToTheLeaderAndAClientFollowingItStoresTheMessageThereOnly() throws Exception {
        HttpResponse<String> redirect = follower.post("/v1/topics/Orders/messages?key=k%C3%A91&tag=paid", "hello");
        assertEquals(307, redirect.statusCode(), redirect.body());
        assertEquals(leader.base + "/v1/topics/Orders/messages?key=k%C3%A91&tag=paid",
                redirect.headers().firstValue("Location").orElse(""));
        assertEquals("a", json(redirect).get("leader"));
        assertEquals(0, follower.storePutCalls(), "the follower's store was never asked");

        HttpClient following = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpResponse<String> put = following.send(follower.request("/v1/topics/Orders/messages?key=k%C3%A91&tag=paid")
                .POST(HttpRequest.BodyPublishers.ofString("hello")).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertEquals(201, put.statusCode(), put.body());
        assertEquals("PUT_OK", json(put).get("status"));
        assertEquals(1, leader.storePutCalls());
        assertEquals(0, follower.storePutCalls());
        HttpResponse<String> body = leader.get("/v1/topics/Orders/queues/" + json(put).get("queueId")
                + "/messages/0/body");
        assertEquals("hello", body.body(), "the redirected request carried the same body");
        // a put is acknowledged before the index has it (dispatch follows the log): wait until the key is indexed
        HttpResponse<String> byKey = leader.get("/v1/topics/Orders/keys/k%C3%A91");
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        while (!byKey.body().contains("\"messages\":[{") && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(10));
            byKey = leader.get("/v1/topics/Orders/keys/k%C3%A91");
        }
        assertTrue(byKey.body().contains("paid"), "the query (key and tag) went along: " + byKey.body());
    }

    @Test
    void everyWriteOnAFollowerIsRedirectedAndReadsAreServedThere() throws Exception {
        HttpResponse<String> batch = follower.send(follower.request("/v1/topics/T/messages")
                .header("Content-Type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString("{\"body\":\"x\"}\n")).build());
        assertEquals(307, batch.statusCode(), batch.body());
        HttpResponse<String> delete = follower.send(follower.request("/v1/topics/T?confirm=T").DELETE().build());
        assertEquals(307, delete.statusCode(), delete.body());
        assertEquals(leader.base + "/v1/topics/T?confirm=T", delete.headers().firstValue("Location").orElse(""));
        assertEquals(307, follower.post("/v1/groups/g/topics/T/queues/0/offset?offset=1", "").statusCode());
        assertEquals(307, follower.post("/v1/groups/g/topics/T/reset?to=earliest", "").statusCode());
        assertEquals(307, follower.send(follower.request("/v1/groups/g").DELETE().build()).statusCode());
        assertEquals(0, follower.storePutCalls());

        assertEquals(200, follower.get("/v1/topics").statusCode());
        assertEquals(200, follower.get("/v1/groups").statusCode());
        assertEquals(200, follower.get("/v1/topics/T/queues/0/messages?offset=0").statusCode());
    }

    @Test
    void theLeaderTakesWritesItself() throws Exception {
        HttpResponse<String> put = leader.post("/v1/topics/Orders/messages", "direct");
        assertEquals(201, put.statusCode(), put.body());
        assertEquals(1, leader.storePutCalls());
    }

    @Test
    void withoutALeaderOrItsAddressAWriteIsA503WithTheReason() throws Exception {
        followerNode.set(status("b", "CANDIDATE", false, "", "", "no majority: 1 of 3 peers reachable"));
        HttpResponse<String> none = follower.post("/v1/topics/Orders/messages", "x");
        assertEquals(503, none.statusCode(), none.body());
        String reason = (String) json(none).get("error");
        assertTrue(reason.contains("no leader") && reason.contains("no majority"), reason);
        assertFalse(none.headers().firstValue("Location").isPresent());

        followerNode.set(status("b", "FOLLOWER", false, "c", "", ""));
        HttpResponse<String> unknownAddress = follower.post("/v1/topics/Orders/messages", "x");
        assertEquals(503, unknownAddress.statusCode(), unknownAddress.body());
        assertTrue(((String) json(unknownAddress).get("error")).contains("leader is c"), unknownAddress.body());

        leaderNode.set(status("a", "LEADER", false, "a", leader.base, ""));
        HttpResponse<String> notReady = leader.post("/v1/topics/Orders/messages", "x");
        assertEquals(503, notReady.statusCode(), notReady.body());
        assertTrue(((String) json(notReady).get("error")).contains("not ready"), notReady.body());
        assertEquals(0, follower.storePutCalls() + leader.storePutCalls(), "no store was asked to put");
    }

    @Test
    void healthShowsRoleLeaderAndTermAndIsDegradedWithoutAMajority() throws Exception {
        HttpResponse<String> up = follower.get("/health");
        assertEquals(200, up.statusCode(), up.body());
        Map<String, Object> h = json(up);
        assertEquals("UP", h.get("status"));
        assertEquals("FOLLOWER", h.get("role"));
        assertEquals("a", h.get("leader"));
        assertEquals(7L, h.get("term"));
        assertEquals("LEADER", json(leader.get("/health")).get("role"));

        followerNode.set(status("b", "CANDIDATE", false, "", "", "no majority: 1 of 3 peers reachable"));
        HttpResponse<String> degraded = follower.get("/health");
        assertEquals(503, degraded.statusCode(), degraded.body());
        assertEquals("DEGRADED", json(degraded).get("status"));
        assertEquals("no majority: 1 of 3 peers reachable", json(degraded).get("reason"));

        followerNode.set(status("b", "CANDIDATE", false, "", "", ""));
        HttpResponse<String> leaderless = follower.get("/health");
        assertEquals(503, leaderless.statusCode(), leaderless.body());
        assertTrue(((String) json(leaderless).get("reason")).contains("no leader"), leaderless.body());
    }

    @Test
    void statsMetricsAndRaftStatusShowTheGroup() throws Exception {
        @SuppressWarnings("unchecked")
        Map<String, Object> raft = (Map<String, Object>) json(leader.get("/v1/stats")).get("raft");
        assertEquals("LEADER", raft.get("role"));
        assertEquals(7L, raft.get("term"));
        assertEquals("a", raft.get("leaderId"));
        assertEquals(4096L, raft.get("committedOffset"));
        assertEquals(Map.of("id", "b", "address", "127.0.0.1:9872", "matchOffset", 1024L, "lagBytes", 3072L,
                "lastContactMillis", 250L), ((List<?>) raft.get("peers")).get(1));

        HttpResponse<String> status = follower.get("/v1/raft");
        assertEquals(200, status.statusCode(), status.body());
        assertEquals("FOLLOWER", json(status).get("role"));
        assertEquals(leader.base, json(status).get("leaderServeAddress"));

        String metrics = leader.get("/metrics").body();
        for (String line : List.of("hangar_raft_term 7", "hangar_raft_is_leader 1", "hangar_raft_committed_offset 4096",
                "hangar_raft_peer_match_offset{peer=\"b\"} 1024", "hangar_raft_peer_lag_bytes{peer=\"b\"} 3072",
                "hangar_raft_peer_lag_bytes{peer=\"c\"} -1")) {
            assertTrue(metrics.lines().anyMatch(line::equals), line + " in\n" + metrics);
        }
        assertTrue(follower.get("/metrics").body().lines().anyMatch("hangar_raft_is_leader 0"::equals));
    }

    @Test
    void theAdminEndpointsCallTheGroupAndRefuseBadPeers() throws Exception {
        HttpResponse<String> transfer = follower.post("/v1/raft/transfer-leader?peer=b", "");
        assertEquals(200, transfer.statusCode(), transfer.body());
        assertEquals("transfer-leader", json(transfer).get("done"));
        HttpResponse<String> add = follower.post("/v1/raft/peers?peer=d%40127.0.0.1%3A9874", "");
        assertEquals(200, add.statusCode(), add.body());
        HttpResponse<String> remove = follower.send(follower.request("/v1/raft/peers/c").DELETE().build());
        assertEquals(200, remove.statusCode(), remove.body());
        assertEquals(List.of("transferLeader b", "addPeer d@127.0.0.1:9874", "removePeer c"), followerNode.calls);

        for (String bad : List.of("/v1/raft/peers?peer=d%40127.0.0.1", "/v1/raft/peers?peer=d", "/v1/raft/peers",
                "/v1/raft/peers?peer=d%40h%3A70000", "/v1/raft/peers?peer=a%40127.0.0.1%3A1",
                "/v1/raft/peers?peer=%2Fx%40h%3A1", "/v1/raft/transfer-leader?peer=zz",
                "/v1/raft/transfer-leader?peer=b&force=1")) {
            HttpResponse<String> r = follower.post(bad, "");
            assertEquals(400, r.statusCode(), bad + ": " + r.body());
            assertTrue(json(r).get("error") instanceof String, r.body());
        }
        assertEquals(400, follower.send(follower.request("/v1/raft/peers/zz").DELETE().build()).statusCode());
        assertEquals(3, followerNode.calls.size(), "no bad request reached the group: " + followerNode.calls);

        followerNode.refuseChanges = new IllegalStateException("a configuration change is already in progress");
        HttpResponse<String> refused = follower.post("/v1/raft/transfer-leader?peer=a", "");
        assertEquals(503, refused.statusCode(), refused.body());
        assertTrue(((String) json(refused).get("error")).contains("already in progress"), refused.body());
    }

    @Test
    void aStoreOfNoGroupHasNoRaftAnywhere(@TempDir Path lone) throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(lone)) {
            HttpResponse<String> raft = api.get("/v1/raft");
            assertEquals(404, raft.statusCode(), raft.body());
            assertTrue(((String) json(raft).get("error")).contains("not a raft node"), raft.body());
            assertEquals(404, api.post("/v1/raft/transfer-leader?peer=a", "").statusCode());
            assertNull(json(api.get("/v1/stats")).get("raft"));
            assertFalse(api.get("/metrics").body().contains("hangar_raft_"));
            assertNull(json(api.get("/health")).get("leader"));
            assertEquals(201, api.post("/v1/topics/T/messages", "x").statusCode());
        }
    }

    @Test
    void theAdminEndpointsNeedTheToken(@TempDir Path other) throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(other, "s3cret", 4, 16, Map.of("haService", "test-consensus"))) {
            TestConsensusProvider.Node node = TestConsensusProvider.node(other.resolve("store"));
            node.set(status("a", "LEADER", true, "a", api.base, ""));
            assertEquals(401, api.post("/v1/raft/transfer-leader?peer=b", "").statusCode());
            assertEquals(401, api.get("/v1/raft").statusCode());
            assertEquals(List.of(), node.calls);
            HttpResponse<String> ok = api.send(api.request("/v1/raft/transfer-leader?peer=b")
                    .header("Authorization", "Bearer s3cret").POST(HttpRequest.BodyPublishers.noBody()).build());
            assertEquals(200, ok.statusCode(), ok.body());
            assertEquals(List.of("transferLeader b"), node.calls);
        }
    }
}
