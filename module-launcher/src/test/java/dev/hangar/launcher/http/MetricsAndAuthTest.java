package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.store.service.LauncherAccess;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsAndAuthTest {
    /** {@code name{label="value",...} number}, as the Prometheus text format 0.0.4 has it. */
    private static final Pattern SAMPLE = Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\]|\\\\.)*\")(,[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\]|\\\\.)*\")*\\})? (\\S+)");
    private static final Pattern LE = Pattern.compile("le=\"([^\"]+)\"");

    @TempDir
    Path dir;

    @Test
    void metricsAreValidPrometheusTextWithCumulativeHistograms() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir)) {
            for (int i = 0; i < 3; i++) {
                assertEquals(201, api.post("/v1/topics/M/messages", "m" + i).statusCode());
            }
            api.post("/v1/topics/M/messages", "x".repeat(ApiServerFixture.MAX_MESSAGE_SIZE + 1));
            HttpResponse<String> metrics = api.get("/metrics");
            assertEquals(200, metrics.statusCode());
            assertTrue(metrics.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));

            Map<String, Double> samples = new LinkedHashMap<>();
            Map<String, List<double[]>> buckets = new LinkedHashMap<>();
            for (String line : metrics.body().split("\n")) {
                if (line.isEmpty() || line.startsWith("#")) {
                    assertTrue(line.isEmpty() || line.startsWith("# HELP ") || line.startsWith("# TYPE "), line);
                    continue;
                }
                Matcher m = SAMPLE.matcher(line);
                assertTrue(m.matches(), "not a sample line: " + line);
                String value = m.group(5);
                double v = value.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(value);
                samples.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), v);
                if (m.group(1).endsWith("_bucket")) {
                    Matcher le = LE.matcher(m.group(2));
                    assertTrue(le.find(), line);
                    double bound = le.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le.group(1));
                    buckets.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(new double[] {bound, v});
                }
            }
            for (String name : List.of("hangar_puts_total", "hangar_flushes_total", "hangar_dispatch_behind_bytes",
                    "hangar_disk_used_ratio", "hangar_commitlog_files", "hangar_commitlog_max_offset", "hangar_writable",
                    "hangar_put_latency_microseconds_count", "hangar_flush_latency_microseconds_count",
                    "hangar_put_failures_total{status=\"MESSAGE_ILLEGAL\"}", "hangar_group_commit_puts_total",
                    "hangar_group_commit_puts_waited_more_than_one_force_total",
                    "hangar_group_commit_gathers_total{outcome=\"bound_ran_out\"}",
                    "hangar_put_dispatch_waits_total{outcome=\"outlasted\"}", "hangar_commitlog_commit_lag_bytes")) {
                assertTrue(samples.containsKey(name), name + " missing:\n" + metrics.body());
            }
            assertEquals(3.0, samples.get("hangar_puts_total"));
            assertEquals(1.0, samples.get("hangar_put_failures_total{status=\"MESSAGE_ILLEGAL\"}"));
            assertEquals(0.0, samples.get("hangar_put_failures_total{status=\"FLUSH_DISK_TIMEOUT\"}"));
            assertEquals(1.0, samples.get("hangar_writable"));
            assertEquals(3.0, samples.get("hangar_put_latency_microseconds_count"));
            assertEquals(Set.of("hangar_put_latency_microseconds_bucket", "hangar_flush_latency_microseconds_bucket"),
                    buckets.keySet());
            buckets.forEach((name, series) -> {
                String family = name.substring(0, name.length() - "_bucket".length());
                for (int i = 1; i < series.size(); i++) {
                    assertTrue(series.get(i)[0] > series.get(i - 1)[0], name + ": le ascending");
                    assertTrue(series.get(i)[1] >= series.get(i - 1)[1], name + ": counts cumulative");
                }
                double[] last = series.get(series.size() - 1);
                assertEquals(Double.POSITIVE_INFINITY, last[0], name + " ends with +Inf");
                assertEquals(samples.get(family + "_count"), last[1], name + ": +Inf equals _count");
            });
        }
    }

    @Test
    void aPutWithASyncFlushIsAnsweredWhenItsFlushCompletes() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir, "", 4, 64, Map.of("flushDiskType", "SYNC_FLUSH"))) {
            List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> puts = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                puts.add(api.client.sendAsync(api.request("/v1/topics/Sync/messages?queue=" + (i % 2))
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("s" + i)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            for (var put : puts) {
                HttpResponse<String> response = put.get(60, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(201, response.statusCode(), response.body());
                assertEquals("PUT_OK", json(response).get("status"));
            }
            assertEquals(20, LauncherAccess.stats(api.store).putMessages());
            assertTrue(api.store.statsSnapshot().commitLog().flushedOffset() >= api.store.getMaxPhyOffset(),
                    "every answered put was flushed");
        }
    }

    @Test
    void aTokenIsRequiredOnEveryRequestWhenConfigured() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir, "s3cret", 4, 16)) {
            HttpResponse<String> none = api.post("/v1/topics/T/messages", "x");
            assertEquals(401, none.statusCode(), none.body());
            assertTrue(json(none).containsKey("error"));
            assertTrue(none.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
            HttpResponse<String> wrong = api.send(api.request("/v1/topics/T/messages").header("Authorization", "Bearer s3creT")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("x")).build());
            assertEquals(401, wrong.statusCode());
            assertEquals(401, api.get("/health").statusCode(), "health needs the token too");
            assertEquals(401, api.get("/no/such/path").statusCode(), "paths are not revealed without the token");
            assertEquals(0, api.storePutCalls());

            HttpResponse<String> right = api.send(api.request("/v1/topics/T/messages").header("Authorization", "Bearer s3cret")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("x")).build());
            assertEquals(201, right.statusCode(), right.body());
            assertEquals(1, LauncherAccess.stats(api.store).putMessages());
        }
    }
}
