package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What operators and clients see of replication over HTTP: health, status codes, stats and metrics. */
class ReplicationHttpTest {
    @TempDir
    Path dir;

    @Test
    void aSyncMasterWithoutASlaveIsDegradedAndAnswers503WithWhereTheMessageWasStored() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir, "", 4, 16,
                Map.of("brokerRole", "SYNC_MASTER", "haListenPort", "0"))) {
            HttpResponse<String> health = api.get("/health");
            assertEquals(200, health.statusCode());
            assertEquals("DEGRADED", json(health).get("status"));
            assertTrue(((String) json(health).get("reason")).contains("no slave"), health.body());

            HttpResponse<String> put = api.post("/v1/topics/T/messages", "stored anyway");
            assertEquals(503, put.statusCode(), put.body());
            assertEquals("SLAVE_NOT_AVAILABLE", json(put).get("status"));
            assertNotNull(json(put).get("msgId"), put.body());
            assertNotNull(json(put).get("commitLogOffset"), put.body());

            String metrics = api.get("/metrics").body();
            assertTrue(metrics.contains("hangar_ha_connected_slaves 0"), metrics);
            assertTrue(metrics.contains("hangar_ha_degraded 1"), metrics);
            String stats = api.get("/v1/stats").body();
            assertTrue(stats.contains("\"role\":\"SYNC_MASTER\"") || stats.contains("\"role\": \"SYNC_MASTER\""), stats);
        }
    }

    @Test
    void aSlaveThatStopsAcknowledgingMakesPutsA504WithTheirOffsets() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir, "", 4, 16,
                Map.of("brokerRole", "SYNC_MASTER", "haListenPort", "0", "syncFlushTimeout", "500"));
             Socket slave = new Socket()) {
            String address = api.store.replicationStatus().listenAddress();
            int colon = address.lastIndexOf(':');
            slave.connect(new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))));
            OutputStream out = slave.getOutputStream();
            out.write(ByteBuffer.allocate(8).putLong(0).array()); // reports once, then never acknowledges
            out.flush();
            assertTrue(ApiServerFixture.eventually(() -> api.store.replicationStatus().connectedSlaves() == 1
                    && api.store.replicationStatus().ackedOffset() == 0));
            assertEquals("UP", json(api.get("/health")).get("status"));
            HttpResponse<String> put = api.post("/v1/topics/T/messages", "not acknowledged");
            assertEquals(504, put.statusCode(), put.body());
            assertEquals("FLUSH_SLAVE_TIMEOUT", json(put).get("status"));
            assertNotNull(json(put).get("msgId"), put.body());
        }
    }

    @Test
    void aPutToASlaveIsA503NamingTheMaster() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir, "", 4, 16,
                Map.of("brokerRole", "SLAVE", "haMasterAddress", "127.0.0.1:9"))) {
            HttpResponse<String> put = api.post("/v1/topics/T/messages", "x");
            assertEquals(503, put.statusCode(), put.body());
            assertEquals("SERVICE_NOT_AVAILABLE", json(put).get("status"));
            assertTrue(((String) json(put).get("error")).contains("127.0.0.1:9"), put.body());
            HttpResponse<String> health = api.get("/health");
            assertEquals("DEGRADED", json(health).get("status"), health.body());
            assertEquals("SLAVE", json(health).get("role"));
        }
    }
}
