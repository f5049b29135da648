package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code DELETE /v1/topics/{topic}?confirm={topic}}, and every bad request to it. */
class TopicDeleteHttpTest {
    @TempDir
    static Path dir;
    static ApiServerFixture api;

    @BeforeAll
    static void start() throws Exception {
        api = new ApiServerFixture(dir);
        for (int i = 0; i < 6; i++) {
            put("Kept", i % 2, "k" + i);
            put("Doomed", i % 3, "d" + i);
        }
        assertTrue(ApiServerFixture.eventually(() -> api.store.getMaxOffsetInQueue("Doomed", 2) == 2));
        assertTrue(api.store.consumerOffsets().commit("g", "Doomed", 0, 1).isCommitted());
        assertTrue(api.store.consumerOffsets().commit("g", "Kept", 0, 1).isCommitted());
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    private static void put(String topic, int queue, String body) {
        assertTrue(api.store.putMessage(new Message(topic, body.getBytes(StandardCharsets.UTF_8)).queueId(queue)).isOk());
    }

    private static HttpResponse<String> delete(String path) throws Exception {
        return api.send(api.request(path).method("DELETE", BodyPublishers.noBody()).build());
    }

    @Test
    void aConfirmedDeletionDropsTheQueuesAndOffsetsAndNewPutsStartAtZero() throws Exception {
        put("Gone", 0, "old0");
        put("Gone", 0, "old1");
        assertTrue(ApiServerFixture.eventually(() -> api.store.getMaxOffsetInQueue("Gone", 0) == 2));
        assertTrue(api.store.consumerOffsets().commit("g2", "Gone", 0, 2).isCommitted());

        HttpResponse<String> r = delete("/v1/topics/Gone?confirm=Gone");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(Map.of("topic", "Gone", "deleted", true, "queues", 1L), json(r));
        assertEquals(404, api.get("/v1/topics/Gone").statusCode());
        // a queue read answers as for a topic that never existed (a long poll may wait for it to come)
        HttpResponse<String> gone = api.get("/v1/topics/Gone/queues/0/messages");
        assertEquals(200, gone.statusCode(), gone.body());
        assertEquals("NO_MATCHED_LOGIC_QUEUE", json(gone).get("status"));
        assertEquals(OptionalLong.empty(), api.store.consumerOffsets().committed("g2", "Gone", 0));
        assertTrue(!Files.exists(dir.resolve("consumequeue/Gone")), "its ConsumeQueue directory is gone");
        assertEquals(404, delete("/v1/topics/Gone?confirm=Gone").statusCode(), "a second deletion finds nothing");

        HttpResponse<String> again = api.post("/v1/topics/Gone/messages?queue=0", "new0");
        assertEquals(201, again.statusCode(), again.body());
        assertTrue(ApiServerFixture.eventually(() -> api.store.getMaxOffsetInQueue("Gone", 0) == 1));
        HttpResponse<String> read = api.get("/v1/topics/Gone/queues/0/messages?offset=0");
        assertEquals(200, read.statusCode(), read.body());
        assertTrue(read.body().contains(java.util.Base64.getEncoder().encodeToString("new0".getBytes())), read.body());
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of("no confirmation", "/v1/topics/Doomed", 400, "?confirm=Doomed"),
                Arguments.of("an empty confirmation", "/v1/topics/Doomed?confirm=", 400, "?confirm=Doomed"),
                Arguments.of("another topic's name", "/v1/topics/Doomed?confirm=Kept", 400, "'Kept'"),
                Arguments.of("a confirmation given twice", "/v1/topics/Doomed?confirm=Doomed&confirm=Doomed", 400, "confirm"),
                Arguments.of("an unknown parameter", "/v1/topics/Doomed?confirm=Doomed&force=1", 400, "force"),
                Arguments.of("the consumer-offset topic", "/v1/topics/RMQ_SYS_HANGAR_CONSUMER_OFFSETS"
                        + "?confirm=RMQ_SYS_HANGAR_CONSUMER_OFFSETS", 400, "store's own"),
                Arguments.of("the schedule topic", "/v1/topics/SCHEDULE_TOPIC_XXXX?confirm=SCHEDULE_TOPIC_XXXX", 400,
                        "store's own"),
                Arguments.of("a bad topic name", "/v1/topics/a%2Fb?confirm=a%2Fb", 400, "topic"),
                Arguments.of("an unknown topic", "/v1/topics/Nobody?confirm=Nobody", 404, "Nobody"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void badRequestsAreRefusedAndChangeNothing(String what, String path, int status, String named) throws Exception {
        long endBefore = api.store.getMaxPhyOffset();
        HttpResponse<String> response = delete(path);
        assertEquals(status, response.statusCode(), response.body());
        assertEquals(1, response.body().strip().lines().count(), "one line: " + response.body());
        String error = (String) json(response).get("error");
        assertTrue(error.contains(named), error + " should name " + named);
        assertEquals(endBefore, api.store.getMaxPhyOffset(), "nothing was written");
        assertEquals(1, api.store.getMaxOffsetInQueue("Doomed", 0) == 2 ? 1 : 0, "Doomed keeps its queues");
        assertEquals(OptionalLong.of(1), api.store.consumerOffsets().committed("g", "Doomed", 0));
        assertEquals(3, api.store.getMaxOffsetInQueue("Kept", 0));
    }
}
