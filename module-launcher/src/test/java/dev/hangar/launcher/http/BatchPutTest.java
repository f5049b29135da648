package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.eventually;
import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.json.MiniJsonReader;
import dev.hangar.store.service.LauncherAccess;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POST /v1/topics/{topic}/messages} with an NDJSON body: many messages in one request. */
class BatchPutTest {
    @TempDir
    Path dir;

    private static HttpResponse<String> postNdjson(ApiServerFixture api, String pathAndQuery, String body) throws Exception {
        return api.send(api.request(pathAndQuery).header("Content-Type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static List<Map<String, Object>> lines(HttpResponse<String> response) {
        List<Map<String, Object>> lines = new ArrayList<>();
        response.body().lines().forEach(l -> lines.add(MiniJsonReader.object(l)));
        return lines;
    }

    /** Every message of a queue, page by page (one read returns at most maxTransferCountOnMessageInMemory). */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> read(ApiServerFixture api, String topic, int queue, int max) throws Exception {
        List<Map<String, Object>> all = new ArrayList<>();
        long offset = 0;
        while (all.size() < max) {
            Map<String, Object> page = json(api.get("/v1/topics/" + topic + "/queues/" + queue + "/messages?offset="
                    + offset + "&max=" + Math.min(1024, max - all.size())));
            List<Map<String, Object>> messages = (List<Map<String, Object>>) page.get("messages");
            if (messages.isEmpty()) {
                break;
            }
            all.addAll(messages);
            offset = (Long) page.get("nextOffset");
        }
        return all;
    }

    @Test
    void everyLineIsStoredAndAnsweredInOrderWithBatchPutsPerQueue() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir)) {
            StringBuilder body = new StringBuilder();
            int lines = 300;
            for (int i = 0; i < lines; i++) {
                int queue = i % 3 == 0 ? 1 : 0;
                body.append("{\"queue\":").append(queue).append(",\"key\":\"k").append(i).append("\",\"tag\":\"t")
                        .append(i % 2).append("\",\"properties\":{\"LineNo\":\"").append(i).append("\"},");
                body.append(i % 10 == 0 ? "\"bodyBase64\":\"" + Base64.getEncoder().encodeToString(("b" + i).getBytes(StandardCharsets.UTF_8)) + "\""
                        : "\"body\":\"b" + i + "\"").append("}\n");
            }
            long callsBefore = LauncherAccess.stats(api.store).putLatency().count();
            HttpResponse<String> response = postNdjson(api, "/v1/topics/Batch/messages", body.toString());
            assertEquals(201, response.statusCode(), response.body());
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/x-ndjson"));
            List<Map<String, Object>> results = lines(response);
            assertEquals(lines, results.size());
            long[] next = new long[2];
            for (int i = 0; i < lines; i++) {
                Map<String, Object> r = results.get(i);
                int queue = i % 3 == 0 ? 1 : 0;
                assertEquals("PUT_OK", r.get("status"), "line " + (i + 1));
                assertEquals((long) queue, r.get("queueId"));
                assertEquals(next[queue]++, r.get("queueOffset"), "offsets follow the lines within a queue");
            }
            assertEquals(lines, LauncherAccess.stats(api.store).putMessages());
            assertEquals(2, LauncherAccess.stats(api.store).putLatency().count() - callsBefore, "one batch put per queue");

            assertTrue(eventually(() -> api.store.dispatchBehindBytes() == 0));
            List<Map<String, Object>> queue1 = read(api, "Batch", 1, 1000);
            assertEquals(100, queue1.size());
            for (int n = 0; n < queue1.size(); n++) {
                Map<String, Object> m = queue1.get(n);
                int line = n * 3;
                assertEquals("b" + line, new String(Base64.getDecoder().decode((String) m.get("bodyBase64")), StandardCharsets.UTF_8));
                assertEquals("k" + line, m.get("keys"));
                assertEquals("t" + (line % 2), m.get("tags"));
                assertEquals(String.valueOf(line), ((Map<?, ?>) m.get("properties")).get("LineNo"), "the case is kept");
                assertEquals(results.get(line).get("msgId"), m.get("msgId"));
                assertEquals(results.get(line).get("commitLogOffset"), m.get("commitLogOffset"));
            }
            Map<String, Object> byKey = json(api.get("/v1/topics/Batch/keys/k7"));
            assertEquals(1, ((List<?>) byKey.get("messages")).size());
        }
    }

    @Test
    void aDelayedLineIsStoredOnItsOwnAndTheOthersStillAsABatch() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir, "", 4, 16, Map.of("messageDelayLevel", "1s"))) {
            String body = "{\"body\":\"a\"}\n{\"body\":\"later\",\"delayLevel\":1}\n{\"body\":\"b\"}\n";
            long callsBefore = LauncherAccess.stats(api.store).putLatency().count();
            HttpResponse<String> response = postNdjson(api, "/v1/topics/Mixed/messages", body);
            assertEquals(201, response.statusCode(), response.body());
            List<Map<String, Object>> results = lines(response);
            assertEquals(List.of("PUT_OK", "PUT_OK", "PUT_OK"), results.stream().map(r -> r.get("status")).toList());
            assertEquals(2, LauncherAccess.stats(api.store).putLatency().count() - callsBefore, "a batch of two and one delayed put");
            assertTrue(eventually(() -> {
                try {
                    return read(api, "Mixed", 0, 10).size() == 3;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }), "the delayed message arrives after its delay");
        }
    }

    @Test
    void aBadLineFailsTheWholeRequestNamingItsLineAndNothingIsStored() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir)) {
            String good = "{\"body\":\"ok\"}\n";
            Map<String, String> bad = Map.of(
                    "{\"body\":\"x\"", "ended",
                    "{\"body\":\"x\",\"bdy\":\"typo\"}", "unknown field",
                    "{\"body\":\"x\",\"bodyBase64\":\"eA==\"}", "exactly one",
                    "{\"queue\":-1,\"body\":\"x\"}", "queue",
                    "{\"key\":\"a b\",\"body\":\"x\"}", "key",
                    "{\"properties\":{\"KEYS\":\"k\"},\"body\":\"x\"}", "KEYS",
                    "{\"body\":\"x\",\"delayLevel\":99}", "delayLevel",
                    "[1,2]", "object");
            for (Map.Entry<String, String> e : bad.entrySet()) {
                long before = api.storePutCalls();
                HttpResponse<String> r = postNdjson(api, "/v1/topics/Bad/messages", good + "\n" + e.getKey() + "\n" + good);
                assertEquals(400, r.statusCode(), e.getKey() + ": " + r.body());
                String error = (String) json(r).get("error");
                assertTrue(error.startsWith("line 3: "), error);
                assertTrue(error.contains(e.getValue()), error);
                assertEquals(before, api.storePutCalls(), "nothing stored for " + e.getKey());
            }
            HttpResponse<String> keyParameter = postNdjson(api, "/v1/topics/Bad/messages?key=k", good);
            assertEquals(400, keyParameter.statusCode(), keyParameter.body());
            assertEquals(400, postNdjson(api, "/v1/topics/Bad/messages", "\n\n").statusCode(), "no message at all");
        }
    }

    @Test
    void theMessageCountAndBodyLimitsAreAnswered413() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir, "", 4, 16, Map.of(), s -> s.withBatchLimits(2048, 5))) {
            HttpResponse<String> tooMany = postNdjson(api, "/v1/topics/L/messages", "{\"body\":\"x\"}\n".repeat(6));
            assertEquals(413, tooMany.statusCode(), tooMany.body());
            assertTrue(((String) json(tooMany).get("error")).contains("more than 5 messages"), tooMany.body());
            assertEquals(201, postNdjson(api, "/v1/topics/L/messages", "{\"body\":\"x\"}\n".repeat(5)).statusCode());
            HttpResponse<String> tooLarge = postNdjson(api, "/v1/topics/L/messages",
                    "{\"body\":\"" + "y".repeat(2100) + "\"}\n");
            assertEquals(413, tooLarge.statusCode(), tooLarge.body());
            assertEquals(5, LauncherAccess.stats(api.store).putMessages());
        }
    }
}
