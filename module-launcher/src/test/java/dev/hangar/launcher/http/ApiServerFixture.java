package dev.hangar.launcher.http;

import dev.hangar.launcher.json.MiniJsonReader;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.service.LauncherAccess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/** A started store in a temporary directory with an {@link HttpApiServer} on an ephemeral loopback port. */
final class ApiServerFixture implements AutoCloseable {
    /** Small enough that a 413 needs only a small body: the limit is this + 64 KiB. */
    static final int MAX_MESSAGE_SIZE = 4096;

    final DefaultMessageStore store;
    final HttpApiServer server;
    final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    final String base;

    ApiServerFixture(Path dir, String token, int workers, int queue) throws IOException {
        this(dir, token, workers, queue, Map.of());
    }

    /** @param extra more configuration keys */
    ApiServerFixture(Path dir, String token, int workers, int queue, Map<String, String> extra) throws IOException {
        this(dir, token, workers, queue, extra, UnaryOperator.identity());
    }

    /** @param settings changes the server settings made from the configuration */
    ApiServerFixture(Path dir, String token, int workers, int queue, Map<String, String> extra,
                     UnaryOperator<HttpSettings> settings) throws IOException {
        StoreConfig.Builder builder = StoreConfig.builder()
                .set("storePathRootDir", dir.resolve("store").toString(), "test")
                .set("mappedFileSizeCommitLog", "1048576", "test")
                .set("maxMessageSize", String.valueOf(MAX_MESSAGE_SIZE), "test")
                .set("httpToken", token, "test");
        extra.forEach((k, v) -> builder.set(k, v, "test"));
        StoreConfig config = builder.build();
        store = new DefaultMessageStore(config);
        store.start();
        server = new HttpApiServer(store, settings.apply(HttpSettings.from(config, "127.0.0.1", 0, workers, queue)));
        server.start();
        base = server.url();
    }

    ApiServerFixture(Path dir) throws IOException {
        this(dir, "", 4, 16);
    }

    HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(60));
    }

    HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return send(request(pathAndQuery).GET().build());
    }

    HttpResponse<String> post(String pathAndQuery, String body) throws IOException, InterruptedException {
        return send(request(pathAndQuery).POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    static Map<String, Object> json(HttpResponse<String> response) {
        return MiniJsonReader.object(response.body().strip());
    }

    /** Puts accepted plus puts refused by the store: unchanged when a request never reached it. */
    long storePutCalls() {
        return LauncherAccess.stats(store).putMessages() + LauncherAccess.stats(store).putFailures().values().stream().mapToLong(Long::longValue).sum();
    }

    /** Polls {@code condition} for up to 20 s. */
    static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    @Override
    public void close() {
        try {
            server.stop();
        } finally {
            store.shutdown();
        }
    }
}
