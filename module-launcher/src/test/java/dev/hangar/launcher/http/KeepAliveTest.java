package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.eventually;
import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.bench.KeepAliveConnection;
import dev.hangar.store.service.LauncherAccess;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} as real clients use it: many requests over one kept-alive connection. Every earlier test opened a
 * connection per request, which hid a 40 ms stall per request (Nagle's algorithm against delayed ACKs).
 */
class KeepAliveTest {
    private static final int REQUESTS = 200;

    @TempDir
    Path dir;

    /**
     * The regression test of the 44 ms per request: the JDK server leaves TCP_NODELAY off unless told, so every
     * answer's second write waited for the client's delayed ACK. Checked on the server's own socket, which a
     * round-trip time on a loaded machine could not show reliably.
     */
    @Test
    void manyPutsOverOneKeptAliveHttpClientConnectionRunOnASocketWithTcpNoDelay() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir)) {
            byte[] body = "k".repeat(1024).getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < REQUESTS; i++) {
                HttpResponse<String> put = api.send(api.request("/v1/topics/KeepAlive/messages")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
                assertEquals(201, put.statusCode(), put.body());
            }
            assertEquals(REQUESTS, LauncherAccess.stats(api.store).putMessages());
            List<SocketChannel> connections = JdkServerConnections.channels(api.server.jdkServer());
            assertEquals(1, connections.size(), "every put came over the one kept-alive connection");
            assertTrue(JdkServerConnections.allNoDelay(connections), "TCP_NODELAY on the server's socket");
        }
    }

    @Test
    void requestsOverOneRawKeptAliveConnectionShareOneServerSocketWithTcpNoDelay() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir);
             KeepAliveConnection connection = new KeepAliveConnection("127.0.0.1", api.server.address().getPort())) {
            byte[] body = "r".repeat(1024).getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < REQUESTS; i++) {
                KeepAliveConnection.Response r = i % 2 == 0
                        ? connection.exchange("POST", "/v1/topics/Raw/messages", body, Map.of())
                        : connection.exchange("GET", "/v1/topics/Raw/queues/0/messages?offset=0&max=1", null, Map.of());
                assertTrue(r.status() == 201 || r.status() == 200, r.bodyText());
            }
            List<SocketChannel> connections = JdkServerConnections.channels(api.server.jdkServer());
            assertEquals(1, connections.size());
            assertTrue(JdkServerConnections.allNoDelay(connections));
        }
    }

    @Test
    void idleKeptAliveConnectionsHoldNoWorker() throws Exception {
        int workers = 2;
        try (ApiServerFixture api = new ApiServerFixture(dir, "", workers, 4)) {
            int port = api.server.address().getPort();
            List<KeepAliveConnection> idle = new ArrayList<>();
            try {
                for (int i = 0; i < 40; i++) {
                    KeepAliveConnection c = new KeepAliveConnection("127.0.0.1", port);
                    idle.add(c);
                    assertEquals(200, c.exchange("GET", "/health", null, Map.of()).status());
                }
                // 40 open connections, 2 workers: none of them is held while its connection is idle
                assertTrue(eventually(() -> api.server.busyWorkers() == 0 && api.server.queuedRequests() == 0));
                assertEquals(40, JdkServerConnections.channels(api.server.jdkServer()).size(), "all 40 still open");
                assertEquals(200, api.get("/health").statusCode(), "a new client is served");
                for (KeepAliveConnection c : idle) {
                    int port0 = c.localPort();
                    assertEquals(201, c.exchange("POST", "/v1/topics/Idle/messages", new byte[] {'x'}, Map.of()).status());
                    assertEquals(port0, c.localPort());
                }
                assertEquals(40, LauncherAccess.stats(api.store).putMessages(), "every idle connection was still open and served");
            } finally {
                for (KeepAliveConnection c : idle) {
                    c.close();
                }
            }
        }
    }

    @Test
    void aBodyRefusedUnreadIsDiscardedSoTheConnectionServesTheNextRequest() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir);
             KeepAliveConnection connection = new KeepAliveConnection("127.0.0.1", api.server.address().getPort())) {
            byte[] oversized = new byte[ApiServerFixture.MAX_MESSAGE_SIZE + HttpSettings.BODY_HEADROOM_BYTES + 1];
            for (int i = 0; i < 20; i++) {
                KeepAliveConnection.Response tooLarge = connection.exchange("POST", "/v1/topics/T/messages", oversized, Map.of());
                assertEquals(413, tooLarge.status(), tooLarge.bodyText());
                assertTrue(tooLarge.bodyText().contains("at most"), tooLarge.bodyText());
                KeepAliveConnection.Response refused = connection.exchange("POST", "/v1/topics/bad.topic/messages",
                        "x".repeat(95).getBytes(StandardCharsets.UTF_8), Map.of());
                assertEquals(400, refused.status(), refused.bodyText());
                assertEquals(201, connection.exchange("POST", "/v1/topics/T/messages", new byte[] {'y'}, Map.of()).status(),
                        "the same connection serves the next request");
            }
            assertEquals(20, LauncherAccess.stats(api.store).putMessages());
        }
    }

    @Test
    void refusalsOfUnreadBodiesReachAKeptAliveHttpClientWhole() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir)) {
            String oversized = "x".repeat(ApiServerFixture.MAX_MESSAGE_SIZE + HttpSettings.BODY_HEADROOM_BYTES + 1);
            for (int i = 0; i < 30; i++) {
                HttpResponse<String> r = api.post("/v1/topics/T/messages", oversized);
                assertEquals(413, r.statusCode(), r.body());
                assertTrue(((String) json(r).get("error")).contains("at most"), r.body());
                assertEquals(400, api.post("/v1/topics/T/messages?qeue=1", "x".repeat(95)).statusCode());
            }
        }
    }

    @Test
    void aBodyFarOverTheDrainLimitIsRefusedWithConnectionClose() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir);
             java.net.Socket socket = new java.net.Socket("127.0.0.1", api.server.address().getPort())) {
            socket.setSoTimeout(30_000);
            // the largest body any endpoint takes is an NDJSON batch's
            byte[] body = new byte[HttpSettings.DEFAULT_MAX_BATCH_BYTES + Router.DRAIN_HEADROOM_BYTES + 1];
            java.io.OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/topics/T/messages HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // a real client sends its body while the answer comes; the server stops reading it and closes
            Thread sender = new Thread(() -> {
                try {
                    out.write(body);
                    out.flush();
                } catch (java.io.IOException expected) {
                    // the server closed the connection
                }
            });
            sender.start();
            java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            assertTrue(in.readLine().startsWith("HTTP/1.1 413 "));
            List<String> headers = new ArrayList<>();
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                headers.add(line.toLowerCase(java.util.Locale.ROOT));
            }
            assertTrue(headers.contains("connection: close"), headers.toString());
            sender.join(30_000);
            assertEquals(0, LauncherAccess.stats(api.store).putMessages());
        }
    }
}
