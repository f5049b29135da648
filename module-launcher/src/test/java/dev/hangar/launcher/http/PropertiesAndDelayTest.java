package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.eventually;
import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property names keep their case over HTTP, and a delay level given over HTTP delays the message. The old
 * {@code X-Hangar-Property-<name>} header lower-cased names, which also turned {@code DELAY} into an ordinary
 * {@code delay} property: the message was delivered at once.
 */
class PropertiesAndDelayTest {
    @TempDir
    Path dir;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> onlyMessage(HttpResponse<String> read) {
        List<Map<String, Object>> messages = (List<Map<String, Object>>) json(read).get("messages");
        assertEquals(1, messages.size(), read.body());
        return messages.get(0);
    }

    @Test
    void mixedCasePropertiesGivenAsQueryParametersOrAPairsHeaderAreReadBackUnchanged() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir)) {
            HttpResponse<String> put = api.send(api.request("/v1/topics/Case/messages?property=MyKey=MixedCase"
                            + "&property=traceId%3DAbC%26x")
                    .header("X-Hangar-Properties", "OrderId=17&Region%20Name=eu%20West")
                    .header("X-Hangar-Property-LegacyName", "Kept")
                    .POST(HttpRequest.BodyPublishers.ofString("case")).build());
            assertEquals(201, put.statusCode(), put.body());
            assertTrue(eventually(() -> api.store.dispatchBehindBytes() == 0));

            Map<?, ?> properties = (Map<?, ?>) onlyMessage(api.get("/v1/topics/Case/queues/0/messages")).get("properties");
            assertEquals("MixedCase", properties.get("MyKey"));
            assertEquals("AbC&x", properties.get("traceId"), "percent-encoded '=' and '&' inside a value");
            assertEquals("17", properties.get("OrderId"));
            assertEquals("eu West", properties.get("Region Name"));
            assertEquals("Kept", properties.get("legacyname"), "the old per-name header is lower-cased, as documented");
        }
    }

    @Test
    void aDelayLevelOverHttpDelaysTheMessageAndKeepsItsProperties() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir, "", 4, 16, Map.of("messageDelayLevel", "1s 2s"))) {
            HttpResponse<String> put = api.post("/v1/topics/Later/messages?delayLevel=1&property=CorrelationId=Xy-1", "later");
            assertEquals(201, put.statusCode(), put.body());
            assertTrue(eventually(() -> api.store.dispatchBehindBytes() == 0));
            HttpResponse<String> atOnce = api.get("/v1/topics/Later/queues/0/messages");
            assertEquals(List.of(), json(atOnce).get("messages"), "not delivered at once: " + atOnce.body());

            AtomicReference<HttpResponse<String>> read = new AtomicReference<>();
            assertTrue(eventually(() -> {
                try {
                    read.set(api.get("/v1/topics/Later/queues/0/messages"));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return !((List<?>) json(read.get()).get("messages")).isEmpty();
            }), "delivered after its delay");
            Map<String, Object> message = onlyMessage(read.get());
            Map<?, ?> properties = (Map<?, ?>) message.get("properties");
            assertEquals("Xy-1", properties.get("CorrelationId"));
            assertEquals(null, properties.get("DELAY"), "cleared on delivery, as RocketMQ does");
            long delayed = (Long) message.get("storeTimestamp") - (Long) message.get("bornTimestamp");
            assertTrue(delayed >= 1000, "stored again at least the level's 1 s after it was born: " + delayed + " ms");
        }
    }

    @Test
    void waitFalseIsStoredAsRocketMqsWaitPropertyAndAnsweredAtOnce() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir, "", 4, 16, Map.of("flushDiskType", "SYNC_FLUSH"))) {
            HttpResponse<String> put = api.post("/v1/topics/NoWait/messages?wait=false", "fire and forget");
            assertEquals(201, put.statusCode(), put.body());
            assertEquals(201, api.post("/v1/topics/NoWait/messages?wait=true", "waited").statusCode());
            assertTrue(eventually(() -> api.store.dispatchBehindBytes() == 0));
            HttpResponse<String> read = api.get("/v1/topics/NoWait/queues/0/messages?max=1");
            assertEquals("false", ((Map<?, ?>) onlyMessage(read).get("properties")).get("WAIT"));
        }
    }

    @Test
    void conflictingOrOutOfRangeDelayAndWaitParametersAreRefusedBeforeTheStore() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir)) {
            long before = api.storePutCalls();
            for (String query : List.of("delayLevel=19", "delayLevel=-1", "delayLevel=x", "wait=maybe",
                    "delayLevel=2&property=DELAY=3", "property=noEquals", "property=KEYS=k",
                    "property=A=1&property=A=2")) {
                HttpResponse<String> r = api.post("/v1/topics/Bad/messages?" + query, "x");
                assertEquals(400, r.statusCode(), query + ": " + r.body());
                assertTrue(json(r).get("error") instanceof String, r.body());
            }
            HttpResponse<String> pairs = api.send(api.request("/v1/topics/Bad/messages?property=A=1")
                    .header("X-Hangar-Properties", "A=2").POST(HttpRequest.BodyPublishers.ofString("x")).build());
            assertEquals(400, pairs.statusCode(), "a name given in two carriers: " + pairs.body());
            assertEquals(before, api.storePutCalls());
        }
    }
}
