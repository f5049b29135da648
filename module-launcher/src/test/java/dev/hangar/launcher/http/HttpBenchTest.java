package dev.hangar.launcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.bench.HttpBench;
import dev.hangar.launcher.json.MiniJsonReader;
import dev.hangar.store.service.LauncherAccess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench --http} against a real server: every phase sends requests and counts what the store took. */
class HttpBenchTest {
    @TempDir
    Path dir;

    @Test
    void everyPhaseRunsOverKeptAliveConnectionsAndTheStoreHoldsWhatWasCounted() throws Exception {
        try (ApiServerFixture api = new ApiServerFixture(dir)) {
            HttpBench bench = new HttpBench(new HttpBench.Options(URI.create(api.base), 2, 100, 10, 1, "Bench"));
            long before = LauncherAccess.stats(api.store).putMessages();
            List<HttpBench.PhaseResult> results = bench.run();
            assertEquals(List.of("put", "batch", "get", "commit"), results.stream().map(HttpBench.PhaseResult::phase).toList());
            for (HttpBench.PhaseResult r : results) {
                assertEquals(0, r.failures(), r.phase() + ": " + r.firstError());
                assertTrue(r.requests() > 0, r.phase());
                assertEquals(r.requests(), r.latencyMicros().count(), "one latency per request");
            }
            HttpBench.PhaseResult put = results.get(0);
            HttpBench.PhaseResult batch = results.get(1);
            assertEquals(put.requests(), put.messages());
            assertEquals(batch.requests() * 10, batch.messages());
            HttpBench.PhaseResult commit = results.get(3);
            assertEquals(java.util.Set.of("Bench-0", "Bench-1"), api.store.consumerOffsets().groups(),
                    "each connection committed for its group");
            long warmUp = LauncherAccess.stats(api.store).putMessages() - before - put.messages() - batch.messages()
                    - commit.messages();
            assertTrue(warmUp > 0, "the warm-up puts are stored too, and only they are not counted: " + warmUp);

            StringWriter json = new StringWriter();
            bench.printJson(results, new PrintWriter(json));
            Map<String, Object> report = MiniJsonReader.object(json.toString().strip());
            List<?> phases = (List<?>) report.get("phases");
            assertEquals(4, phases.size());
            Map<?, ?> latency = (Map<?, ?>) ((Map<?, ?>) phases.get(0)).get("latencyMicros");
            assertEquals(List.of("p50", "p99", "p999", "max"), List.copyOf(latency.keySet()));
        }
    }

    @Test
    void aUrlThatIsNotHttpIsRefusedWithUsage() throws Exception {
        StringWriter err = new StringWriter();
        assertEquals(2, HttpBench.command("ftp://x", 1, 10, 10, 1, false, new PrintWriter(new StringWriter()),
                new PrintWriter(err)));
        assertTrue(err.toString().contains("http://"), err.toString());
    }
}
