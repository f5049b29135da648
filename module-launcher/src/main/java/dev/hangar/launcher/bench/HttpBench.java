package dev.hangar.launcher.bench;

import dev.hangar.launcher.json.JsonReader;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.flush.LatencyHistogram;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code bench --http URL}: drives a running {@code serve} with {@code connections} kept-alive HTTP/1.1
 * connections, one thread each, every thread sending its next request as soon as the answer to the last one
 * arrived (closed loop). Three phases of {@code seconds} each, after an unmeasured warm-up of single puts:
 * <ol>
 *   <li>{@code put}: single puts of {@code size}-byte bodies;</li>
 *   <li>{@code batch}: NDJSON batch puts of {@code batch} messages of {@code size} bytes;</li>
 *   <li>{@code get}: reads of one message at a time, cycling over what the puts wrote;</li>
 *   <li>{@code commit}: consumer-offset commits, connection {@code i} committing for group {@code HttpBench-i} ever
 *   new offsets of its queue (each a CommitLog record, answered once as durable as a put).</li>
 * </ol>
 * Each phase reports requests/s, messages/s and the latency percentiles of its requests (from a shared
 * {@link LatencyHistogram}: at most 1.6 % above the true value, in fixed memory however long the phase). Thread {@code i} uses queue {@code i % 4} of the topic. A non-2xx answer or an I/O error is a
 * failure (the connection is opened again after an I/O error).
 *
 * <p>One instance per run; {@link #run} is called once.
 */
public final class HttpBench {
    private static final int QUEUES = 4;
    private static final long WARM_UP_MILLIS = 2_000;

    /** What to run. */
    public record Options(URI url, int connections, int size, int batch, int seconds, String topic) {
        public Options {
            if (url == null || !"http".equals(url.getScheme()) || url.getHost() == null) {
                throw new IllegalArgumentException("--http takes a URL like http://127.0.0.1:8080, not " + url);
            }
            if (connections < 1 || connections > 1024) {
                throw new IllegalArgumentException("--threads (connections) must be from 1 to 1024, not " + connections);
            }
            if (size < 1 || batch < 1 || seconds < 1) {
                throw new IllegalArgumentException("--size, --batch and --duration must be 1 or more");
            }
        }

        int port() {
            return url.getPort() < 0 ? 80 : url.getPort();
        }
    }

    /** What one phase measured. */
    public record PhaseResult(String phase, long requests, long messages, long failures, double seconds,
                              LatencyHistogram latencyMicros, String firstError) {
        double requestsPerSecond() {
            return requests / seconds;
        }

        double messagesPerSecond() {
            return messages / seconds;
        }

        long percentileMicros(double q) {
            return latencyMicros.percentile(q);
        }

        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("phase", phase);
            m.put("requests", requests);
            m.put("messages", messages);
            m.put("failures", failures);
            m.put("seconds", round(seconds));
            m.put("requestsPerSecond", round(requestsPerSecond()));
            m.put("messagesPerSecond", round(messagesPerSecond()));
            Map<String, Object> latency = new LinkedHashMap<>();
            latency.put("p50", percentileMicros(0.50));
            latency.put("p99", percentileMicros(0.99));
            latency.put("p999", percentileMicros(0.999));
            latency.put("max", latencyMicros.max());
            m.put("latencyMicros", latency);
            if (firstError != null) {
                m.put("firstError", firstError);
            }
            return m;
        }
    }

    /** One request kind: sends one request on a connection and says how many messages it carried. */
    @FunctionalInterface
    private interface Request {
        /** @return messages carried when the answer was a success, or -1 with the error set */
        int send(KeepAliveConnection c, int thread, long n, AtomicReference<String> error) throws IOException;
    }

    private final Options options;
    private final byte[] body;
    private final byte[] ndjson;
    private final String putPath;

    public HttpBench(Options options) {
        this.options = options;
        this.body = "x".repeat(options.size()).getBytes(StandardCharsets.US_ASCII);
        StringBuilder lines = new StringBuilder();
        String line = "{\"body\":\"" + "y".repeat(options.size()) + "\"}\n";
        for (int i = 0; i < options.batch(); i++) {
            lines.append(line);
        }
        this.ndjson = lines.toString().getBytes(StandardCharsets.US_ASCII);
        this.putPath = "/v1/topics/" + options.topic() + "/messages?queue=";
    }

    /**
     * {@code bench --http URL}: runs and prints; the exit status (1 when a request failed, 2 for bad options).
     */
    public static int command(String url, int connections, int size, int batch, int seconds, boolean json,
                              PrintWriter out, PrintWriter err) throws InterruptedException {
        HttpBench bench;
        try {
            bench = new HttpBench(new Options(URI.create(url), connections, size, batch, seconds, "HttpBench"));
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.flush();
            return 2;
        }
        try (KeepAliveConnection probe = new KeepAliveConnection(bench.options.url().getHost(), bench.options.port())) {
            probe.exchange("GET", "/health", null, Map.of());
        } catch (IOException e) {
            err.println("error: cannot reach " + url + ": " + e.getMessage() + " (is serve running there?)");
            err.flush();
            return 1;
        }
        List<PhaseResult> results = bench.run();
        if (json) {
            bench.printJson(results, out);
        } else {
            bench.printTable(results, out);
        }
        long failures = results.stream().mapToLong(PhaseResult::failures).sum();
        if (failures > 0) {
            err.println("error: " + failures + " requests failed");
            err.flush();
            return 1;
        }
        return 0;
    }

    /** Runs the warm-up and the three phases; the results in phase order. */
    public List<PhaseResult> run() throws InterruptedException {
        Request put = (c, thread, n, error) -> answer(c.exchange("POST", putPath + thread % QUEUES, body, Map.of()), 1, error);
        Request batch = (c, thread, n, error) -> answer(c.exchange("POST", putPath + thread % QUEUES, ndjson,
                Map.of("Content-Type", "application/x-ndjson")), options.batch(), error);
        long[] readable = new long[QUEUES];
        Request get = (c, thread, n, error) -> {
            int queue = thread % QUEUES;
            long offset = readable[queue] == 0 ? 0 : n % readable[queue];
            return answer(c.exchange("GET", "/v1/topics/" + options.topic() + "/queues/" + queue + "/messages?max=1&offset="
                    + offset, null, Map.of()), 1, error);
        };
        phase("warm-up", put, WARM_UP_MILLIS);
        List<PhaseResult> results = new ArrayList<>();
        results.add(phase("put", put, options.seconds() * 1000L));
        results.add(phase("batch", batch, options.seconds() * 1000L));
        for (int q = 0; q < QUEUES; q++) {
            readable[q] = maxOffset(q);
        }
        results.add(phase("get", get, options.seconds() * 1000L));
        Request commit = (c, thread, n, error) -> {
            int queue = thread % QUEUES;
            long offset = readable[queue] == 0 ? 0 : n % (readable[queue] + 1);
            return answer(c.exchange("POST", "/v1/groups/" + options.topic() + "-" + thread + "/topics/"
                    + options.topic() + "/queues/" + queue + "/offset?offset=" + offset, new byte[0], Map.of()), 1, error);
        };
        results.add(phase("commit", commit, options.seconds() * 1000L));
        return results;
    }

    private long maxOffset(int queue) {
        try (KeepAliveConnection c = new KeepAliveConnection(options.url().getHost(), options.port())) {
            KeepAliveConnection.Response r = c.exchange("GET", "/v1/topics/" + options.topic() + "/queues/" + queue
                    + "/messages?max=1&offset=0", null, Map.of());
            Object max = ((Map<?, ?>) JsonReader.parse(r.bodyText())).get("maxOffset");
            return max instanceof Long l ? l : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static int answer(KeepAliveConnection.Response r, int messages, AtomicReference<String> error) {
        if (r.status() >= 200 && r.status() < 300) {
            return messages;
        }
        error.compareAndSet(null, "HTTP " + r.status() + ": " + r.bodyText().strip());
        return -1;
    }

    private PhaseResult phase(String name, Request request, long millis) throws InterruptedException {
        int n = options.connections();
        LatencyHistogram latencies = new LatencyHistogram();
        long[] requests = new long[n];
        long[] messages = new long[n];
        long[] failures = new long[n];
        AtomicReference<String> firstError = new AtomicReference<>();
        Thread[] threads = new Thread[n];
        long deadline = System.nanoTime() + millis * 1_000_000L;
        long begin = System.nanoTime();
        for (int t = 0; t < n; t++) {
            int thread = t;
            threads[t] = new Thread(() -> {
                KeepAliveConnection c = null;
                try {
                    for (long i = 0; System.nanoTime() < deadline; i++) {
                        try {
                            if (c == null) {
                                c = new KeepAliveConnection(options.url().getHost(), options.port());
                            }
                            long start = System.nanoTime();
                            int carried = request.send(c, thread, i * n + thread, firstError);
                            latencies.record((System.nanoTime() - start) / 1000);
                            requests[thread]++;
                            if (carried < 0) {
                                failures[thread]++;
                            } else {
                                messages[thread] += carried;
                            }
                        } catch (IOException | RuntimeException e) {
                            failures[thread]++;
                            firstError.compareAndSet(null, e.toString());
                            closeQuietly(c);
                            c = null;
                        }
                    }
                } finally {
                    closeQuietly(c);
                }
            }, "hangar-http-bench-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        return new PhaseResult(name, Arrays.stream(requests).sum(), Arrays.stream(messages).sum(),
                Arrays.stream(failures).sum(), seconds, latencies, firstError.get());
    }

    private static void closeQuietly(KeepAliveConnection c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // closing after a failure: nothing more to learn
            }
        }
    }

    /** Prints the results as a table. */
    public void printTable(List<PhaseResult> results, PrintWriter out) {
        out.printf(Locale.ROOT, "HTTP benchmark of %s: %d keep-alive connections, %d-byte bodies, NDJSON batches of %d, "
                + "%d s per phase%n", options.url(), options.connections(), options.size(), options.batch(), options.seconds());
        out.printf(Locale.ROOT, "%-6s %10s %12s %12s %9s %9s %9s %9s %9s%n", "phase", "requests", "requests/s",
                "messages/s", "p50 us", "p99 us", "p99.9 us", "max us", "failures");
        for (PhaseResult r : results) {
            out.printf(Locale.ROOT, "%-6s %10d %12.0f %12.0f %9d %9d %9d %9d %9d%n", r.phase(), r.requests(),
                    r.requestsPerSecond(), r.messagesPerSecond(), r.percentileMicros(0.5), r.percentileMicros(0.99),
                    r.percentileMicros(0.999), r.latencyMicros().max(),
                    r.failures());
            if (r.firstError() != null) {
                out.println("       first failure: " + r.firstError());
            }
        }
        out.flush();
    }

    /** Prints the results as one JSON object. */
    public void printJson(List<PhaseResult> results, PrintWriter out) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("url", options.url().toString());
        m.put("connections", options.connections());
        m.put("size", options.size());
        m.put("batch", options.batch());
        m.put("secondsPerPhase", options.seconds());
        m.put("phases", results.stream().map(PhaseResult::toJson).toList());
        out.println(JsonWriter.write(m));
        out.flush();
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
