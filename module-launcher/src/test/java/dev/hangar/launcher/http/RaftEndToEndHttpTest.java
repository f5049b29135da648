package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.StoreLauncher;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.assembly.ProviderRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real stores of {@code haService=raft} (module-raft on Apache Ratis), each behind its HTTP server: a client
 * that follows redirects can put through any node and the message is readable on every node; followers answer
 * writes with a 307 to the leader the group elected; /health and /v1/raft agree on the leader; a leadership
 * transfer through HTTP moves the writes.
 */
class RaftEndToEndHttpTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final List<DefaultMessageStore> stores = new ArrayList<>();
    private final List<HttpApiServer> servers = new ArrayList<>();
    private final HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final HttpClient following = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NORMAL).build();

    @AfterEach
    void stop() {
        servers.forEach(HttpApiServer::stop);
        for (DefaultMessageStore s : stores) {
            s.shutdown();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Three nodes n0..n2, each with its Raft port and its HTTP port known to the others. */
    private List<String> startGroup() throws IOException {
        List<String> raft = new ArrayList<>();
        List<String> http = new ArrayList<>();
        List<Integer> httpPorts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            raft.add("n" + i + "@127.0.0.1:" + freePort());
            int port = freePort();
            httpPorts.add(port);
            http.add("n" + i + "@127.0.0.1:" + port);
        }
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            StoreConfig.Builder b = StoreConfig.builder();
            ProviderRegistry.discover(null).declaredKeys().forEach(b::declare);
            StoreConfig config = b.set("storePathRootDir", dir.resolve("n" + i).toString(), "test")
                    .set("mappedFileSizeCommitLog", "1048576", "test")
                    .set("haService", "raft", "test")
                    .set("raft.peers", String.join(",", raft), "test")
                    .set("raft.selfId", "n" + i, "test")
                    .set("raft.httpPeers", String.join(",", http), "test")
                    .set("raft.electionTimeoutMin", "500", "test")
                    .set("raft.electionTimeoutMax", "1000", "test")
                    .build();
            DefaultMessageStore store = new DefaultMessageStore(config);
            stores.add(store);
            store.start();
            HttpApiServer server = new HttpApiServer(store, HttpSettings.from(config, "127.0.0.1", httpPorts.get(i), 4, 16));
            servers.add(server);
            server.start();
            urls.add(server.url());
        }
        return urls;
    }

    private ConsensusStatus status(int node) {
        return stores.get(node).consensus().orElseThrow().status();
    }

    /** The index of the ready leader every node knows, waiting for it. */
    private int leader() throws InterruptedException {
        int[] found = {-1};
        await("a ready leader that every node knows", () -> {
            for (int i = 0; i < 3; i++) {
                ConsensusStatus s = status(i);
                if (s.isLeader() && s.leaderReady() && status((i + 1) % 3).leaderId().equals(s.selfId())
                        && status((i + 2) % 3).leaderId().equals(s.selfId())) {
                    found[0] = i;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    private HttpResponse<String> send(HttpClient client, HttpRequest request) throws IOException, InterruptedException {
        return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static HttpRequest post(String url, String body) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET().build();
    }

    @Test
    void writesThroughAnyNodeLandOnTheElectedLeaderAndAreReadableEverywhere() throws Exception {
        List<String> urls = startGroup();
        int leader = leader();
        int follower = (leader + 1) % 3;
        String leaderId = "n" + leader;

        HttpResponse<String> redirect = send(plain, post(urls.get(follower) + "/v1/topics/Orders/messages?queue=0", "a"));
        assertEquals(307, redirect.statusCode(), redirect.body());
        assertEquals(urls.get(leader) + "/v1/topics/Orders/messages?queue=0",
                redirect.headers().firstValue("Location").orElse(""));

        for (int i = 0; i < 3; i++) {
            HttpResponse<String> put = send(following, post(urls.get(i) + "/v1/topics/Orders/messages?queue=0",
                    "through n" + i));
            assertEquals(201, put.statusCode(), "through n" + i + ": " + put.body());
            assertEquals(i, (long) (Long) json(put).get("queueOffset"));
        }
        for (int i = 0; i < 3; i++) {
            int node = i;
            await("n" + i + " shows the three messages", () -> stores.get(node).getMaxOffsetInQueue("Orders", 0) == 3);
            HttpResponse<String> body = send(plain, get(urls.get(i) + "/v1/topics/Orders/queues/0/messages/2/body"));
            assertEquals("through n2", body.body(), "a read on n" + i);
            Map<String, Object> health = json(send(plain, get(urls.get(i) + "/health")));
            assertEquals("UP", health.get("status"), "n" + i + ": " + health);
            assertEquals(leaderId, health.get("leader"), "n" + i + ": " + health);
            assertEquals(i == leader ? "LEADER" : "FOLLOWER", health.get("role"));
        }
        Map<String, Object> raft = json(send(plain, get(urls.get(leader) + "/v1/raft")));
        assertEquals(leaderId, raft.get("leaderId"));
        String metrics = send(plain, get(urls.get(leader) + "/metrics")).body();
        assertTrue(metrics.lines().anyMatch("hangar_raft_is_leader 1"::equals), metrics);

        // the CLI against the leader: every follower's match offset reaches the leader's end
        long end = stores.get(leader).getMaxPhyOffset();
        for (int i = 0; i < 3; i++) {
            String id = "n" + i;
            await(id + "'s match offset " + end + " on the leader", () -> status(leader).peers().stream()
                    .anyMatch(p -> p.id().equals(id) && p.matchOffset() == end));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = StoreLauncher.run(new String[] {"raft", "status", "--url", urls.get(leader)}, Map.of(),
                InputStream.nullInputStream(), new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, code, out + "\n" + err);
        List<String> lines = out.toString().lines().toList();
        assertEquals("node " + leaderId + ": LEADER, term " + status(leader).term(), lines.get(0), out.toString());
        for (int i = 0; i < 3; i++) {
            String id = "n" + i;
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(id + " ") && l.matches(".*\\s" + end + "\\s+0\\s.*")),
                    id + " with match offset " + end + " and lag 0:\n" + out);
        }
    }

    @Test
    void aLeadershipTransferThroughHttpMovesTheWrites() throws Exception {
        List<String> urls = startGroup();
        int leader = leader();
        int next = (leader + 2) % 3;
        HttpResponse<String> transfer = send(plain, post(urls.get((leader + 1) % 3)
                + "/v1/raft/transfer-leader?peer=n" + next, ""));
        assertEquals(200, transfer.statusCode(), transfer.body());
        await("n" + next + " leads", () -> status(next).isLeader() && status(next).leaderReady());
        assertEquals(next, leader());
        HttpResponse<String> redirect = send(plain, post(urls.get(leader) + "/v1/topics/T/messages", "x"));
        assertEquals(307, redirect.statusCode(), redirect.body());
        assertEquals(urls.get(next) + "/v1/topics/T/messages", redirect.headers().firstValue("Location").orElse(""));
    }
}
