package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.json.MiniJsonReader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} as an operator runs it: a separate JVM, ready when it prints its URL, stopped by SIGTERM. It must
 * answer the parked long poll, shut the store down cleanly (no abort file) and exit 0.
 */
class ServeProcessTest {
    private static final Pattern READY = Pattern.compile("listening on (http://127\\.0\\.0\\.1:(\\d+))");

    @TempDir
    Path dir;

    @Test
    void sigtermAnswersParkedPollsShutsTheStoreDownCleanlyAndExitsZero() throws Exception {
        Path store = dir.resolve("store");
        Path stderr = dir.resolve("serve.err");
        Process serve = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dhangar.log.file=false",
                StoreLauncher.class.getName(), "--store", store.toString(), "-DmappedFileSizeCommitLog=1048576",
                "serve", "--port", "0")
                .redirectError(stderr.toFile()).start();
        try {
            BufferedReader stdout = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
            String ready = CompletableFuture.supplyAsync(() -> {
                try {
                    return stdout.readLine();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(60, TimeUnit.SECONDS);
            assertNotNull(ready, () -> "serve ended before it was ready: " + read(stderr));
            Matcher m = READY.matcher(ready);
            assertTrue(m.matches(), ready);
            assertTrue(Integer.parseInt(m.group(2)) > 0, "the real port, not 0");
            String base = m.group(1);

            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> put = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/topics/Served/messages?key=s1"))
                    .POST(HttpRequest.BodyPublishers.ofString("kept")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, put.statusCode(), put.body());
            CompletableFuture<HttpResponse<String>> poll = client.sendAsync(
                    HttpRequest.newBuilder(URI.create(base + "/v1/topics/Served/queues/0/messages?offset=1&wait=60000")).build(),
                    HttpResponse.BodyHandlers.ofString());
            // the poll is parked once /v1/stats counts it
            assertTrue(waitFor(() -> {
                String stats = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/stats")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                return ((Map<?, ?>) MiniJsonReader.object(stats.strip()).get("http")).get("parkedPolls").equals(1L);
            }), "the long poll is parked");

            serve.destroy(); // SIGTERM
            assertTrue(serve.waitFor(60, TimeUnit.SECONDS), "serve stops on SIGTERM");
            assertEquals(0, serve.exitValue(), () -> "exit status; stderr:\n" + read(stderr));
            HttpResponse<String> answered = poll.get(30, TimeUnit.SECONDS);
            assertEquals(200, answered.statusCode(), answered.body());
            assertEquals(List.of(), MiniJsonReader.object(answered.body().strip()).get("messages"));
        } finally {
            serve.destroyForcibly();
        }
        assertFalse(Files.exists(store.resolve("abort")), "a clean shutdown leaves no abort file");

        LauncherRun verify = LauncherRun.of(Map.of(), "", "--store", store.toString(), "-DmappedFileSizeCommitLog=1048576", "verify");
        assertEquals(0, verify.code(), verify.toString());
        LauncherRun get = LauncherRun.of(Map.of(), "", "--store", store.toString(), "-DmappedFileSizeCommitLog=1048576",
                "query", "--topic", "Served", "--key", "s1", "--json");
        assertEquals(1, get.lines().size(), get.toString());
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static boolean waitFor(Check check) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!check.holds()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }
}
