package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import dev.hangar.spi.store.CommittedOffset;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Consumer groups over HTTP: commit, read from the committed offset, lag, reset, delete, and every bad input. */
class ConsumerGroupsHttpTest {
    @TempDir
    static Path dir;
    static ApiServerFixture api;

    @BeforeAll
    static void start() throws Exception {
        api = new ApiServerFixture(dir);
        for (int i = 0; i < 20; i++) {
            assertTrue(api.store.putMessage(new Message("Orders", ("order " + i).getBytes(StandardCharsets.UTF_8))
                    .queueId(i % 2).tags(i % 4 == 0 ? "created" : "paid")).isOk());
        }
        assertTrue(ApiServerFixture.eventually(() -> api.store.getMaxOffsetInQueue("Orders", 1) == 10));
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    private static HttpResponse<String> send(String method, String path, String body) throws Exception {
        return api.send(api.request(path).method(method, body == null ? BodyPublishers.noBody()
                : BodyPublishers.ofString(body)).build());
    }

    @Test
    void aGroupCommitsReadsFromItsOffsetAndShowsItsLag() throws Exception {
        HttpResponse<String> first = api.get("/v1/groups/reader/topics/Orders/queues/0/messages?max=3");
        assertEquals(200, first.statusCode(), first.body());
        Map<String, Object> read = json(first);
        assertEquals(null, read.get("committed"), "a new group starts at the queue's min offset");
        assertEquals(0L, read.get("offset"));
        assertEquals(3, ((List<?>) read.get("messages")).size());
        assertEquals(3L, read.get("nextOffset"));

        HttpResponse<String> commit = api.post("/v1/groups/reader/topics/Orders/queues/0/offset", "{\"offset\":3}");
        assertEquals(200, commit.statusCode(), commit.body());
        assertEquals(Map.of("group", "reader", "topic", "Orders", "queueId", 0L, "offset", 3L), json(commit));
        assertEquals(200, api.post("/v1/groups/reader/topics/Orders/queues/1/offset?offset=10", "").statusCode());

        Map<String, Object> next = json(api.get("/v1/groups/reader/topics/Orders/queues/0/messages?max=2"));
        assertEquals(3L, next.get("committed"));
        assertEquals(3L, ((Map<?, ?>) ((List<?>) next.get("messages")).get(0)).get("queueOffset"));

        Map<String, Object> group = json(api.get("/v1/groups/reader"));
        assertEquals("reader", group.get("group"));
        assertEquals(7L, group.get("lag"));
        Map<?, ?> topic = (Map<?, ?>) ((List<?>) group.get("topics")).get(0);
        assertEquals(List.of(Map.of("queueId", 0L, "committed", 3L, "minOffset", 0L, "maxOffset", 10L, "lag", 7L),
                Map.of("queueId", 1L, "committed", 10L, "minOffset", 0L, "maxOffset", 10L, "lag", 0L)),
                topic.get("queues"));
        List<?> groups = (List<?>) json(api.get("/v1/groups")).get("groups");
        assertTrue(groups.contains(Map.of("group", "reader", "topics", 1L, "lag", 7L)), groups.toString());
    }

    @Test
    void aGroupReadAtItsEndWaitsForTheNextMessage() throws Exception {
        assertEquals(200, api.post("/v1/groups/waiter/topics/Orders/queues/1/offset?offset=10", "").statusCode());
        CompletableFuture<HttpResponse<String>> poll = api.client.sendAsync(
                api.request("/v1/groups/waiter/topics/Orders/queues/1/messages?wait=30000").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(ApiServerFixture.eventually(() -> api.server.parkedPolls() == 1));
        assertTrue(api.store.putMessage(new Message("Orders", "late".getBytes(StandardCharsets.UTF_8)).queueId(1)).isOk());
        Map<String, Object> answer = json(poll.get());
        List<?> messages = (List<?>) answer.get("messages");
        assertEquals(1, messages.size(), answer.toString());
        assertEquals(10L, ((Map<?, ?>) messages.get(0)).get("queueOffset"));
    }

    @Test
    void resetAndDelete() throws Exception {
        HttpResponse<String> latest = api.post("/v1/groups/resetter/topics/Orders/reset?to=latest", "");
        assertEquals(200, latest.statusCode(), latest.body());
        long max0 = api.store.getMaxOffsetInQueue("Orders", 0);
        long max1 = api.store.getMaxOffsetInQueue("Orders", 1);
        assertEquals(List.of(Map.of("queueId", 0L, "offset", max0), Map.of("queueId", 1L, "offset", max1)),
                json(latest).get("queues"));
        assertEquals(200, api.post("/v1/groups/resetter/topics/Orders/reset?to=earliest", "").statusCode());
        assertEquals(List.of(new CommittedOffset("resetter", "Orders", 0, 0), new CommittedOffset("resetter", "Orders", 1, 0)),
                api.store.consumerOffsets().offsetsOf("resetter"));
        long t = api.store.getMessageStoreTimeStamp("Orders", 0, 4);
        assertEquals(200, api.post("/v1/groups/resetter/topics/Orders/reset?timestamp=" + t, "").statusCode());
        assertEquals(api.store.getOffsetInQueueByTime("Orders", 0, t),
                api.store.consumerOffsets().committed("resetter", "Orders", 0).getAsLong());

        assertEquals(200, send("DELETE", "/v1/groups/resetter", null).statusCode());
        assertEquals(404, api.get("/v1/groups/resetter").statusCode());
        assertEquals(404, send("DELETE", "/v1/groups/resetter", null).statusCode());
        assertFalse(api.store.consumerOffsets().groups().contains("resetter"));
    }

    @Test
    void metricsShowEachCommittedQueueAndItsLag() throws Exception {
        assertEquals(200, api.post("/v1/groups/metered/topics/Orders/queues/1/offset?offset=4", "").statusCode());
        long max = api.store.getMaxOffsetInQueue("Orders", 1);
        String metrics = api.get("/metrics").body();
        assertTrue(metrics.contains("hangar_consumer_committed_offset{group=\"metered\",topic=\"Orders\",queue=\"1\"} 4\n"),
                metrics);
        assertTrue(metrics.contains("hangar_consumer_lag{group=\"metered\",topic=\"Orders\",queue=\"1\"} " + (max - 4)
                + "\n"), metrics);
        assertTrue(metrics.contains("# TYPE hangar_consumer_groups gauge"), metrics);
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of("a bad group name", "POST", "/v1/groups/bad.group/topics/Orders/queues/0/offset", "{\"offset\":1}", 400, "group"),
                Arguments.of("a bad topic name", "POST", "/v1/groups/g/topics/a%20b/queues/0/offset", "{\"offset\":1}", 400, "topic"),
                Arguments.of("an unknown topic", "POST", "/v1/groups/g/topics/Nope/queues/0/offset", "{\"offset\":1}", 404, "Nope"),
                Arguments.of("an unknown queue", "POST", "/v1/groups/g/topics/Orders/queues/7/offset", "{\"offset\":1}", 404, "queue 7"),
                Arguments.of("an offset past the max", "POST", "/v1/groups/g/topics/Orders/queues/0/offset", "{\"offset\":999}", 400, "[0, "),
                Arguments.of("a negative offset", "POST", "/v1/groups/g/topics/Orders/queues/0/offset?offset=-1", "", 400, "offset"),
                Arguments.of("an offset given twice", "POST", "/v1/groups/g/topics/Orders/queues/0/offset?offset=1", "{\"offset\":1}", 400, "once"),
                Arguments.of("no offset", "POST", "/v1/groups/g/topics/Orders/queues/0/offset", "", 400, "offset"),
                Arguments.of("a body that is not JSON", "POST", "/v1/groups/g/topics/Orders/queues/0/offset", "offset=1", 400, "JSON"),
                Arguments.of("a fractional offset", "POST", "/v1/groups/g/topics/Orders/queues/0/offset", "{\"offset\":1.5}", 400, "whole"),
                Arguments.of("a body with more", "POST", "/v1/groups/g/topics/Orders/queues/0/offset", "{\"offset\":1,\"x\":2}", 400, "nothing else"),
                Arguments.of("the internal topic", "POST", "/v1/groups/g/topics/RMQ_SYS_HANGAR_CONSUMER_OFFSETS/queues/0/offset", "{\"offset\":0}", 400, "internal"),
                Arguments.of("an unknown group", "GET", "/v1/groups/nobody", null, 404, "nobody"),
                Arguments.of("deleting an unknown group", "DELETE", "/v1/groups/nobody", null, 404, "nobody"),
                Arguments.of("a bad group to show", "GET", "/v1/groups/a%2Fb", null, 400, "group"),
                Arguments.of("a reset without a target", "POST", "/v1/groups/g/topics/Orders/reset", "", 400, "earliest"),
                Arguments.of("a reset to nowhere", "POST", "/v1/groups/g/topics/Orders/reset?to=middle", "", 400, "middle"),
                Arguments.of("a reset with two targets", "POST", "/v1/groups/g/topics/Orders/reset?to=latest&timestamp=5", "", 400, "one of them"),
                Arguments.of("a reset of an unknown topic", "POST", "/v1/groups/g/topics/Nope/reset?to=latest", "", 404, "Nope"),
                Arguments.of("a group read of an unknown topic", "GET", "/v1/groups/g/topics/Nope/queues/0/messages", null, 404, "Nope"),
                Arguments.of("a group read of an unknown queue", "GET", "/v1/groups/g/topics/Orders/queues/9/messages", null, 404, "queue 9"),
                Arguments.of("a group read with a bad tag", "GET", "/v1/groups/g/topics/Orders/queues/0/messages?tag=a%7C%7C", null, 400, "empty tag"),
                Arguments.of("a group read with an offset", "GET", "/v1/groups/g/topics/Orders/queues/0/messages?offset=3", null, 400, "offset"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void badInputIsRefusedAndChangesNothing(String what, String method, String path, String body, int status,
                                            String named) throws Exception {
        var groupsBefore = api.store.consumerOffsets().groups();
        var offsetsBefore = api.store.consumerOffsets().offsetsOf("g");
        long endBefore = api.store.getMaxPhyOffset();
        HttpResponse<String> response = send(method, path, body);
        assertEquals(status, response.statusCode(), response.body());
        assertEquals(1, response.body().strip().lines().count(), "one line: " + response.body());
        String error = (String) json(response).get("error");
        assertTrue(error.contains(named), error + " should name " + named);
        assertEquals(groupsBefore, api.store.consumerOffsets().groups());
        assertEquals(offsetsBefore, api.store.consumerOffsets().offsetsOf("g"));
        assertEquals(endBefore, api.store.getMaxPhyOffset(), "nothing was written");
    }
}
