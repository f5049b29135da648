package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.eventually;
import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.store.service.LauncherAccess;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP API end to end: a real store, a real server on an ephemeral loopback port, java.net.http as client. */
class HttpApiServerTest {
    private static final List<String> MESSAGE_FIELDS = List.of("topic", "queueId", "queueOffset", "commitLogOffset",
            "msgId", "storeTimestamp", "bornTimestamp", "sysFlag", "flag", "keys", "tags", "properties", "bodyCrc",
            "bodySize", "bodyBase64");

    @TempDir
    Path dir;
    ApiServerFixture api;

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture(dir);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private static String body(Map<?, ?> message) {
        return new String(Base64.getDecoder().decode((String) message.get("bodyBase64")), StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> messages(Map<String, Object> json) {
        return (List<Map<String, Object>>) json.get("messages");
    }

    @Test
    void aPutIsReadBackWithItsKeysTagAndHeaderProperties() throws Exception {
        HttpResponse<String> put = api.send(api.request("/v1/topics/Orders/messages?queue=2&key=o-17&key=c-9&tag=new")
                .header("X-Hangar-Property-Region", "eu")
                .header("X-Hangar-Property", "orderId=17")
                .POST(HttpRequest.BodyPublishers.ofString("hello http")).build());
        assertEquals(201, put.statusCode(), put.body());
        Map<String, Object> putJson = json(put);
        // the same result as put --json on the command line (MessageRequest.resultJson)
        assertEquals(List.of("status", "msgId", "topic", "queueId", "queueOffset", "commitLogOffset"),
                List.copyOf(putJson.keySet()));
        assertEquals("Orders", putJson.get("topic"));
        assertEquals("PUT_OK", putJson.get("status"));
        assertEquals(2L, putJson.get("queueId"));
        assertEquals(0L, putJson.get("queueOffset"));
        assertEquals(0L, putJson.get("commitLogOffset"));
        // readable once dispatched, a moment after the put
        assertTrue(eventually(() -> api.store.dispatchBehindBytes() == 0));

        HttpResponse<String> get = api.get("/v1/topics/Orders/queues/2/messages?offset=0&max=10");
        assertEquals(200, get.statusCode(), get.body());
        Map<String, Object> read = json(get);
        assertEquals("FOUND", read.get("status"));
        assertEquals(1L, read.get("nextOffset"));
        assertEquals(0L, read.get("minOffset"));
        assertEquals(1L, read.get("maxOffset"));
        Map<String, Object> message = messages(read).get(0);
        assertEquals(MESSAGE_FIELDS, List.copyOf(message.keySet()), "the fields of get --json, in its order");
        assertEquals("hello http", body(message));
        assertEquals(putJson.get("msgId"), message.get("msgId"));
        assertEquals("o-17 c-9", message.get("keys"));
        assertEquals("new", message.get("tags"));
        Map<?, ?> properties = (Map<?, ?>) message.get("properties");
        assertEquals("eu", properties.get("region"), "header names are case-insensitive: taken in lower case");
        assertEquals("17", properties.get("orderId"), "X-Hangar-Property: name=value keeps the case");
    }

    @Test
    void aParkedLongPollIsAnsweredWithTheMessageThatArrives() throws Exception {
        CompletableFuture<HttpResponse<String>> poll = api.client.sendAsync(
                api.request("/v1/topics/Waiting/queues/0/messages?offset=0&wait=10000").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(eventually(() -> api.server.parkedPolls() == 1), "the read of an empty queue is parked");
        assertFalse(poll.isDone());

        assertEquals(201, api.post("/v1/topics/Waiting/messages", "wake up").statusCode());

        HttpResponse<String> answer = poll.get(30, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode(), answer.body());
        Map<String, Object> read = json(answer);
        assertEquals("FOUND", read.get("status"));
        assertEquals(1, messages(read).size());
        assertEquals("wake up", body(messages(read).get(0)));
        assertEquals(1L, read.get("nextOffset"));
        assertEquals(0, api.server.parkedPolls());
    }

    @Test
    void aLongPollWhoseWaitEndsIsAnsweredEmpty() throws Exception {
        assertEquals(201, api.post("/v1/topics/Quiet/messages", "first").statusCode());
        HttpResponse<String> answer = api.get("/v1/topics/Quiet/queues/0/messages?offset=1&wait=200");
        assertEquals(200, answer.statusCode(), answer.body());
        Map<String, Object> read = json(answer);
        assertEquals("OFFSET_OVERFLOW_ONE", read.get("status"));
        assertEquals(List.of(), read.get("messages"));
        assertEquals(1L, read.get("nextOffset"));
        assertEquals(0, api.server.parkedPolls());
    }

    @Test
    void aLongPollFurtherOnIsNotWokenByAMessageBeforeItsOffset() throws Exception {
        CompletableFuture<HttpResponse<String>> poll = api.client.sendAsync(
                api.request("/v1/topics/Later/queues/0/messages?offset=1&wait=10000").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(eventually(() -> api.server.parkedPolls() == 1));
        assertEquals(201, api.post("/v1/topics/Later/messages", "offset 0").statusCode());
        assertTrue(eventually(() -> api.store.dispatchBehindBytes() == 0));
        assertEquals(1, api.server.parkedPolls(), "offset 0 is not what the poll waits for");
        assertEquals(201, api.post("/v1/topics/Later/messages", "offset 1").statusCode());
        Map<String, Object> read = json(poll.get(30, TimeUnit.SECONDS));
        assertEquals("offset 1", body(messages(read).get(0)));
    }

    @Test
    void messagesAreFoundByKeyAndByMessageId() throws Exception {
        Map<String, Object> first = json(api.post("/v1/topics/Keys/messages?key=k1", "one"));
        api.post("/v1/topics/Keys/messages?key=k2", "two");
        api.post("/v1/topics/Keys/messages?key=k1", "three");
        assertTrue(eventually(() -> api.store.dispatchBehindBytes() == 0));

        Map<String, Object> byKey = json(api.get("/v1/topics/Keys/keys/k1"));
        assertEquals("Keys", byKey.get("topic"));
        assertEquals("k1", byKey.get("key"));
        assertEquals(List.of("one", "three"), messages(byKey).stream().map(HttpApiServerTest::body).sorted().toList());
        assertEquals(1, messages(json(api.get("/v1/topics/Keys/keys/k1?max=1"))).size());
        assertEquals(List.of(), json(api.get("/v1/topics/Keys/keys/none")).get("messages"));

        HttpResponse<String> byId = api.get("/v1/messages/" + first.get("msgId"));
        assertEquals(200, byId.statusCode(), byId.body());
        Map<String, Object> message = json(byId);
        assertEquals(MESSAGE_FIELDS, List.copyOf(message.keySet()));
        assertEquals("one", body(message));

        String beyondTheLog = ((String) first.get("msgId")).substring(0, 16) + "00000000FFFFFF00";
        HttpResponse<String> missing = api.get("/v1/messages/" + beyondTheLog);
        assertEquals(404, missing.statusCode(), missing.body());
        assertTrue(json(missing).containsKey("error"));
    }

    @Test
    void statsAndHealthAnswerJson() throws Exception {
        api.post("/v1/topics/S/messages", "x");
        HttpResponse<String> stats = api.get("/v1/stats");
        assertEquals(200, stats.statusCode());
        Map<String, Object> snapshot = json(stats);
        assertEquals(Boolean.TRUE, snapshot.get("writable"));
        assertEquals(1L, ((Map<?, ?>) snapshot.get("puts")).get("messages"));
        assertNotNull(((Map<?, ?>) snapshot.get("http")).get("responses"));

        HttpResponse<String> health = api.get("/health");
        assertEquals(200, health.statusCode());
        assertEquals(Map.of("status", "UP"), json(health));
        assertTrue(health.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    }

    @Test
    void aStoreThatCannotWriteIsReportedDownAndRefusesPutsWith503() throws Exception {
        LauncherAccess.runningFlags(api.store).markNotWritable("disk trouble in a test", null);
        HttpResponse<String> health = api.get("/health");
        assertEquals(503, health.statusCode());
        assertEquals("DOWN", json(health).get("status"));
        assertTrue(((String) json(health).get("reason")).contains("disk trouble in a test"), health.body());

        HttpResponse<String> put = api.post("/v1/topics/T/messages", "x");
        assertEquals(503, put.statusCode(), put.body());
        assertEquals("SERVICE_NOT_AVAILABLE", json(put).get("status"));
        assertTrue(((String) json(put).get("error")).contains("disk trouble in a test"), put.body());
        assertEquals(null, json(put).get("msgId"));
    }

    @Test
    void aBodyWithinTheHeadroomButOverMaxMessageSizeIsRefusedByTheStoreWith400() throws Exception {
        HttpResponse<String> put = api.post("/v1/topics/T/messages", "x".repeat(ApiServerFixture.MAX_MESSAGE_SIZE + 1));
        assertEquals(400, put.statusCode(), put.body());
        assertEquals("MESSAGE_ILLEGAL", json(put).get("status"));
        assertNotNull(json(put).get("error"));
    }

    @Test
    void stoppingAnswersParkedLongPollsAndThenRefusesConnections() throws Exception {
        CompletableFuture<HttpResponse<String>> poll = api.client.sendAsync(
                api.request("/v1/topics/Parked/queues/0/messages?wait=60000").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(eventually(() -> api.server.parkedPolls() == 1));
        api.server.stop();
        HttpResponse<String> answer = poll.get(30, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(List.of(), json(answer).get("messages"));
        assertEquals(0, api.server.parkedPolls());
    }

    @Test
    void everyPutStatusHasItsHttpStatus() {
        assertEquals(201, PutMessageHandler.httpStatus(dev.hangar.spi.store.PutMessageStatus.PUT_OK));
        assertEquals(400, PutMessageHandler.httpStatus(dev.hangar.spi.store.PutMessageStatus.MESSAGE_ILLEGAL));
        assertEquals(400, PutMessageHandler.httpStatus(dev.hangar.spi.store.PutMessageStatus.PROPERTIES_SIZE_EXCEEDED));
        assertEquals(503, PutMessageHandler.httpStatus(dev.hangar.spi.store.PutMessageStatus.SERVICE_NOT_AVAILABLE));
        assertEquals(503, PutMessageHandler.httpStatus(dev.hangar.spi.store.PutMessageStatus.OS_PAGE_CACHE_BUSY));
        assertEquals(504, PutMessageHandler.httpStatus(dev.hangar.spi.store.PutMessageStatus.FLUSH_DISK_TIMEOUT));
        assertEquals(500, PutMessageHandler.httpStatus(dev.hangar.spi.store.PutMessageStatus.CREATE_MAPPED_FILE_FAILED));
        assertEquals(500, PutMessageHandler.httpStatus(dev.hangar.spi.store.PutMessageStatus.UNKNOWN_ERROR));
        assertEquals(504, PutMessageHandler.httpStatus(dev.hangar.spi.store.PutMessageStatus.FLUSH_SLAVE_TIMEOUT));
        assertEquals(503, PutMessageHandler.httpStatus(dev.hangar.spi.store.PutMessageStatus.SLAVE_NOT_AVAILABLE));
        // whatever status the store gains, only PUT_OK is a success
        for (dev.hangar.spi.store.PutMessageStatus s : dev.hangar.spi.store.PutMessageStatus.values()) {
            int http = PutMessageHandler.httpStatus(s);
            assertEquals(s == dev.hangar.spi.store.PutMessageStatus.PUT_OK, http >= 200 && http < 300, s + " -> " + http);
            assertTrue(http >= 200 && http < 600, s + " -> " + http);
        }
    }
}
