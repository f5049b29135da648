package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.Message;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
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

/** Topic discovery, seek by time, and tag filters on queue reads, group reads and long polls. */
class TopicsSeekAndTagsHttpTest {
    @TempDir
    static Path dir;
    static ApiServerFixture api;

    @BeforeAll
    static void start() throws Exception {
        api = new ApiServerFixture(dir);
        // "Aa" and "BB" have the same String.hashCode: the ConsumeQueue cannot tell them apart
        assertEquals("Aa".hashCode(), "BB".hashCode());
        String[] tags = {"Aa", "BB", "C", "BB", "Aa", "C"};
        for (int i = 0; i < tags.length; i++) {
            put("Tagged", 0, tags[i], "t" + i);
        }
        for (int i = 0; i < 10; i++) {
            put("Timed", i % 2, "x", "m" + i);
            long stored = System.currentTimeMillis(); // not before the message's store time
            while (System.currentTimeMillis() <= stored) {
                Thread.onSpinWait(); // each message in a later millisecond: distinct store times to seek between
            }
        }
        assertTrue(ApiServerFixture.eventually(() -> api.store.getMaxOffsetInQueue("Timed", 1) == 5));
        assertTrue(api.store.consumerOffsets().commit("g", "Timed", 0, 1).isCommitted());
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    private static void put(String topic, int queue, String tag, String body) {
        Message m = new Message(topic, body.getBytes(StandardCharsets.UTF_8)).queueId(queue);
        if (tag != null) {
            m.tags(tag);
        }
        assertTrue(api.store.putMessage(m).isOk());
    }

    private static List<String> bodies(Map<String, Object> read) {
        List<String> out = new ArrayList<>();
        for (Object m : (List<?>) read.get("messages")) {
            out.add(new String(java.util.Base64.getDecoder().decode((String) ((Map<?, ?>) m).get("bodyBase64")),
                    StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void topicsAreListedWithoutTheInternalOnes() throws Exception {
        List<?> topics = (List<?>) json(api.get("/v1/topics")).get("topics");
        assertTrue(topics.contains(Map.of("topic", "Tagged", "queues", 1L, "messages", 6L)), topics.toString());
        assertTrue(topics.contains(Map.of("topic", "Timed", "queues", 2L, "messages", 10L)), topics.toString());
        assertTrue(api.store.getMaxOffsetInQueue("RMQ_SYS_HANGAR_CONSUMER_OFFSETS", 0) > 0, "a commit was stored");
        assertFalse(topics.toString().contains("RMQ_SYS"), "the internal topic is not listed: " + topics);
        Map<String, Object> timed = json(api.get("/v1/topics/Timed"));
        List<?> queues = (List<?>) timed.get("queues");
        Map<?, ?> q0 = (Map<?, ?>) queues.get(0);
        assertEquals(0L, q0.get("minOffset"));
        assertEquals(5L, q0.get("maxOffset"));
        assertEquals(5L, q0.get("messages"));
        assertEquals(api.store.getMessageStoreTimeStamp("Timed", 0, 0), q0.get("firstStoreTime"));
        assertEquals(api.store.getMessageStoreTimeStamp("Timed", 0, 4), q0.get("lastStoreTime"));
        assertEquals(404, api.get("/v1/topics/RMQ_SYS_HANGAR_CONSUMER_OFFSETS").statusCode());
    }

    @Test
    void seekByTimeAndToTheEnds() throws Exception {
        long t3 = api.store.getMessageStoreTimeStamp("Timed", 1, 3);
        Map<String, Object> byTime = json(api.get("/v1/topics/Timed/queues/1/offset?timestamp=" + t3));
        long offset = (Long) byTime.get("offset");
        assertEquals(t3, byTime.get("storeTime"), "the message stored at that time (the first of that millisecond)");
        assertTrue(offset <= 3, byTime.toString());
        assertEquals(0L, json(api.get("/v1/topics/Timed/queues/1/offset?timestamp=0")).get("offset"), "before all");
        assertEquals(4L, json(api.get("/v1/topics/Timed/queues/1/offset?timestamp=" + Long.MAX_VALUE)).get("offset"),
                "after all: the last message");
        assertEquals(0L, json(api.get("/v1/topics/Timed/queues/1/offset?at=earliest")).get("offset"));
        assertEquals(5L, json(api.get("/v1/topics/Timed/queues/1/offset?at=latest")).get("offset"));
    }

    @Test
    void aTagFilterNeverDeliversTheOtherTagOfTheSameHash() throws Exception {
        assertEquals(List.of("t0", "t4"), bodies(json(api.get("/v1/topics/Tagged/queues/0/messages?tag=Aa"))));
        assertEquals(List.of("t1", "t3"), bodies(json(api.get("/v1/topics/Tagged/queues/0/messages?tag=BB"))));
        assertEquals(List.of("t0", "t2", "t4", "t5"),
                bodies(json(api.get("/v1/topics/Tagged/queues/0/messages?tag=Aa%7C%7CC"))));
        assertEquals(6, bodies(json(api.get("/v1/topics/Tagged/queues/0/messages?tag=*"))).size());
        assertEquals(List.of("t2", "t5"),
                bodies(json(api.get("/v1/groups/tagger/topics/Tagged/queues/0/messages?tag=C"))));
    }

    @Test
    void aFilterThatMatchesNothingInALongRangeSaysWhereToGoOn() throws Exception {
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            batch.add(new Message("Noise", new byte[8]).queueId(0).tags("noise"));
            if (batch.size() == 500) {
                assertTrue(api.store.putMessages(batch).isOk());
                batch.clear();
            }
        }
        assertTrue(ApiServerFixture.eventually(() -> api.store.getMaxOffsetInQueue("Noise", 0) == 20_000));
        long offset = 0;
        int reads = 0;
        while (offset < 20_000) {
            Map<String, Object> read = json(api.get("/v1/topics/Noise/queues/0/messages?tag=rare&offset=" + offset));
            assertEquals(List.of(), read.get("messages"));
            long next = (Long) read.get("nextOffset");
            assertTrue(next > offset, "a read that filtered everything out moves on: " + read);
            offset = next;
            reads++;
        }
        assertTrue(reads >= 2, "the range is longer than one read scans: " + reads);
    }

    @Test
    void aFilteredLongPollWakesOnlyForAMatch() throws Exception {
        put("Polled", 0, "first", "p0");
        assertTrue(ApiServerFixture.eventually(() -> api.store.getMaxOffsetInQueue("Polled", 0) == 1));
        CompletableFuture<HttpResponse<String>> poll = api.client.sendAsync(
                api.request("/v1/topics/Polled/queues/0/messages?offset=1&tag=Wanted&wait=30000").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(ApiServerFixture.eventually(() -> api.server.parkedPolls() == 1));
        put("Polled", 0, "Other", "not this");
        assertTrue(ApiServerFixture.eventually(() -> api.store.getMaxOffsetInQueue("Polled", 0) == 2));
        // woken by the other tag, the poll reads, finds no match and parks again
        assertTrue(ApiServerFixture.eventually(() -> api.server.parkedPolls() == 1 && !poll.isDone()));
        assertFalse(poll.isDone(), "not answered by a message it filters out");
        put("Polled", 0, "Wanted", "this one");
        Map<String, Object> answer = json(poll.get());
        assertEquals(List.of("this one"), bodies(answer));
        assertEquals(3L, answer.get("nextOffset"));
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of("an unknown topic", "/v1/topics/Nope", 404, "Nope"),
                Arguments.of("a bad topic", "/v1/topics/a%20b", 400, "topic"),
                Arguments.of("a seek in an unknown topic", "/v1/topics/Nope/queues/0/offset?at=latest", 404, "Nope"),
                Arguments.of("a seek in an unknown queue", "/v1/topics/Timed/queues/9/offset?at=latest", 404, "queue 9"),
                Arguments.of("a seek without a target", "/v1/topics/Timed/queues/0/offset", 400, "timestamp"),
                Arguments.of("a seek with two targets", "/v1/topics/Timed/queues/0/offset?at=latest&timestamp=1", 400, "one of them"),
                Arguments.of("a seek to the middle", "/v1/topics/Timed/queues/0/offset?at=middle", 400, "middle"),
                Arguments.of("a negative time", "/v1/topics/Timed/queues/0/offset?timestamp=-1", 400, "timestamp"),
                Arguments.of("a tag expression with an empty tag", "/v1/topics/Timed/queues/0/messages?tag=%7C%7C", 400, "empty tag"),
                Arguments.of("a tag expression mixing *", "/v1/topics/Timed/queues/0/messages?tag=*%7C%7CA", 400, "*"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void badInputIsRefused(String what, String path, int status, String named) throws Exception {
        long endBefore = api.store.getMaxPhyOffset();
        HttpResponse<String> response = api.get(path);
        assertEquals(status, response.statusCode(), response.body());
        String error = (String) json(response).get("error");
        assertTrue(error.contains(named), error + " should name " + named);
        assertEquals(endBefore, api.store.getMaxPhyOffset());
    }
}
