package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.eventually;
import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.store.service.LauncherAccess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With every worker busy and the queue full, a request is answered 503 at once instead of waiting or vanishing. */
class OverloadTest {
    @TempDir
    Path dir;

    @Test
    void aRequestBeyondTheWorkersAndTheQueueIsAnswered503() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir, "", 1, 1);
             Socket slow = new Socket("127.0.0.1", api.server.address().getPort())) {
            // the only worker reads a body that arrives slowly
            OutputStream out = slow.getOutputStream();
            out.write(("POST /v1/topics/Slow/messages HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\n\r\nab")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertTrue(eventually(() -> api.server.busyWorkers() == 1), "the worker is busy with the slow body");

            CompletableFuture<HttpResponse<String>> queued = api.client.sendAsync(api.request("/health").GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(eventually(() -> api.server.queuedRequests() == 1), "the second request waits in the queue");

            HttpResponse<String> shed = api.get("/health");
            assertEquals(503, shed.statusCode(), shed.body());
            assertTrue(((String) json(shed).get("error")).contains("overloaded"), shed.body());
            assertEquals("1", shed.headers().firstValue("Retry-After").orElse(""));

            out.write("cd".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader reader = new BufferedReader(new InputStreamReader(slow.getInputStream(), StandardCharsets.US_ASCII));
            assertEquals("HTTP/1.1 201 Created", reader.readLine());
            assertEquals(200, queued.get(30, TimeUnit.SECONDS).statusCode(), "the queued request is served after all");
            assertEquals(1, LauncherAccess.stats(api.store).putMessages());
        }
    }
}
