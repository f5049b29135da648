package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every class of bad request gets its status and a one-line {@code {"error": "..."}}, and never reaches the store:
 * the store's put count (accepted and refused) does not move.
 */
class BadRequestTest {
    @TempDir
    static Path dir;
    static ApiServerFixture api;

    @BeforeAll
    static void start() throws Exception {
        api = new ApiServerFixture(dir);
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    static Stream<Arguments> badRequests() {
        String oversized = "x".repeat(ApiServerFixture.MAX_MESSAGE_SIZE + HttpSettings.BODY_HEADROOM_BYTES + 1);
        return Stream.of(
                Arguments.of("a topic with a dot", "POST", "/v1/topics/bad.topic/messages", "x", Map.of(), 400),
                Arguments.of("a topic with an encoded slash", "POST", "/v1/topics/..%2Fescape/messages", "x", Map.of(), 400),
                Arguments.of("a topic too long", "POST", "/v1/topics/" + "t".repeat(128) + "/messages", "x", Map.of(), 400),
                Arguments.of("a queue that is not a number", "POST", "/v1/topics/T/messages?queue=abc", "x", Map.of(), 400),
                Arguments.of("a negative queue", "POST", "/v1/topics/T/messages?queue=-1", "x", Map.of(), 400),
                Arguments.of("a queue given twice", "POST", "/v1/topics/T/messages?queue=1&queue=2", "x", Map.of(), 400),
                Arguments.of("a key with a space", "POST", "/v1/topics/T/messages?key=a%20b", "x", Map.of(), 400),
                Arguments.of("an unknown parameter", "POST", "/v1/topics/T/messages?qeue=1", "x", Map.of(), 400),
                Arguments.of("a reserved property", "POST", "/v1/topics/T/messages", "x",
                        Map.of("X-Hangar-Property", "KEYS=sneaky"), 400),
                Arguments.of("a property header without =", "POST", "/v1/topics/T/messages", "x",
                        Map.of("X-Hangar-Property", "novalue"), 400),
                Arguments.of("a body over the limit", "POST", "/v1/topics/T/messages", oversized, Map.of(), 413),
                Arguments.of("a bad topic in a read", "GET", "/v1/topics/a%20b/queues/0/messages", null, Map.of(), 400),
                Arguments.of("a queue id that is not a number", "GET", "/v1/topics/T/queues/x/messages", null, Map.of(), 400),
                Arguments.of("a negative offset", "GET", "/v1/topics/T/queues/0/messages?offset=-5", null, Map.of(), 400),
                Arguments.of("max 0", "GET", "/v1/topics/T/queues/0/messages?max=0", null, Map.of(), 400),
                Arguments.of("a wait over a minute", "GET", "/v1/topics/T/queues/0/messages?wait=60001", null, Map.of(), 400),
                Arguments.of("a misspelt wait", "GET", "/v1/topics/T/queues/0/messages?wiat=100", null, Map.of(), 400),
                Arguments.of("a message id that is not hex", "GET", "/v1/messages/zz", null, Map.of(), 400),
                Arguments.of("a key query with a bad max", "GET", "/v1/topics/T/keys/k?max=lots", null, Map.of(), 400),
                Arguments.of("an unknown path", "GET", "/v2/everything", null, Map.of(), 404),
                Arguments.of("a path one segment short", "GET", "/v1/topics/T", null, Map.of(), 404),
                Arguments.of("DELETE on stats", "DELETE", "/v1/stats", null, Map.of(), 405),
                Arguments.of("GET on the put path", "GET", "/v1/topics/T/messages", null, Map.of(), 405),
                Arguments.of("POST on health", "POST", "/health", "x", Map.of(), 405));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void isRefusedWithAJsonErrorBeforeTheStore(String what, String method, String path, String body,
                                               Map<String, String> headers, int status) throws Exception {
        long putCallsBefore = api.storePutCalls();
        HttpRequest.Builder request = api.request(path)
                .method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body));
        headers.forEach(request::header);
        HttpResponse<String> response = api.send(request.build());

        assertEquals(status, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        assertEquals(1, response.body().strip().lines().count(), "one line: " + response.body());
        Map<String, Object> error = json(response);
        assertEquals(1, error.size(), response.body());
        assertInstanceOf(String.class, error.get("error"));
        assertFalse(((String) error.get("error")).isBlank());
        assertEquals(putCallsBefore, api.storePutCalls(), "the store was not asked");
        if (status == 405) {
            assertTrue(response.headers().firstValue("Allow").isPresent());
        }
        try (Stream<Path> files = Files.list(Path.of(api.store.statsSnapshot().storePath()).resolve("consumequeue"))) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().contains("escape")));
        } catch (java.nio.file.NoSuchFileException e) {
            // no queue yet: nothing escaped either
        }
    }
}
