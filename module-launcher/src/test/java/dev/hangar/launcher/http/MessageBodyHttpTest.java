package dev.hangar.launcher.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.PutMessageResult;
import java.net.URLDecoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The raw body endpoints: the bytes as put, the message's figures and properties as headers. */
class MessageBodyHttpTest {
    @TempDir
    Path dir;

    @Test
    void theBodyComesBackByteForByteWithItsPropertiesAsHeaders() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir)) {
            byte[] body = new byte[256];
            for (int i = 0; i < body.length; i++) {
                body[i] = (byte) i;
            }
            PutMessageResult r = api.store.putMessage(new Message("Bin", body).queueId(1).tags("raw")
                    .keys("k1").property("Trace Id", "a=b&c d"));
            assertTrue(r.isOk());
            assertTrue(ApiServerFixture.eventually(() -> api.store.getMaxOffsetInQueue("Bin", 1) == 1));
            for (String path : new String[] {"/v1/messages/" + r.msgId() + "/body", "/v1/topics/Bin/queues/1/messages/0/body"}) {
                HttpResponse<byte[]> response = api.client.send(api.request(path).GET().build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, response.statusCode(), path);
                assertArrayEquals(body, response.body(), path);
                assertEquals("application/octet-stream", response.headers().firstValue("Content-Type").orElse(""));
                assertEquals(r.msgId(), response.headers().firstValue("X-Hangar-Msg-Id").orElse(""));
                assertEquals("1", response.headers().firstValue("X-Hangar-Queue-Id").orElse(""));
                assertEquals("0", response.headers().firstValue("X-Hangar-Queue-Offset").orElse(""));
                assertEquals("Bin", response.headers().firstValue("X-Hangar-Topic").orElse(""));
                Map<String, String> properties = new HashMap<>();
                for (String pair : response.headers().firstValue("X-Hangar-Properties").orElse("").split("&")) {
                    int eq = pair.indexOf('=');
                    properties.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
                assertEquals("a=b&c d", properties.get("Trace Id"));
                assertEquals("raw", properties.get("TAGS"));
                assertEquals("k1", properties.get("KEYS"));
            }
            assertEquals(404, api.get("/v1/topics/Bin/queues/1/messages/1/body").statusCode());
            assertTrue(api.get("/v1/topics/Bin/queues/1/messages/1/body").body().contains("0 to 1"));
            assertEquals(404, api.get("/v1/topics/Nope/queues/0/messages/0/body").statusCode());
            assertEquals(400, api.get("/v1/topics/Bin/queues/1/messages/x/body").statusCode());
            assertEquals(400, api.get("/v1/messages/zz/body").statusCode());
            assertEquals(404, api.get("/v1/messages/7F00000100002A9F00000000000FFFFF/body").statusCode());
        }
    }
}
