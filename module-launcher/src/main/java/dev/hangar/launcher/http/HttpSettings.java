package dev.hangar.launcher.http;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@link HttpApiServer} listens and how much it takes on. Immutable.
 *
 * @param host                 address to bind (loopback by default: the API has no TLS)
 * @param port                 port to bind; 0 picks a free one
 * @param token                bearer token every request must carry, or empty for none
 * @param maxBodyBytes         largest request body read; larger ones are answered 413 unread
 * @param workers              threads that read requests and call the store
 * @param queueCapacity        requests waiting for a worker before new ones are answered 503
 * @param maxPending           puts awaiting their flush plus parked long polls before new ones are answered 503
 * @param shutdownGraceSeconds how long {@link HttpApiServer#stop()} waits for requests in flight
 * @param maxBatchBytes        largest NDJSON batch body read; larger ones are answered 413
 * @param maxBatchMessages     most messages (lines) in one NDJSON batch; more are answered 413
 */
public record HttpSettings(String host, int port, String token, int maxBodyBytes, int workers, int queueCapacity,
                           int maxPending, int shutdownGraceSeconds, int maxBatchBytes, int maxBatchMessages) {
    /** Room above {@code maxMessageSize} for a body, so the store (not the server) judges a body near the limit. */
    public static final int BODY_HEADROOM_BYTES = 64 * 1024;
    /** The longest {@code wait} a long poll may ask for. */
    public static final long MAX_WAIT_MILLIS = 60_000;
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8080;
    public static final int DEFAULT_WORKERS = 16;
    public static final int DEFAULT_QUEUE = 256;
    public static final int DEFAULT_MAX_PENDING = 10_000;
    public static final int DEFAULT_GRACE_SECONDS = 5;
    public static final int DEFAULT_MAX_BATCH_BYTES = 16 * 1024 * 1024;
    public static final int DEFAULT_MAX_BATCH_MESSAGES = 10_000;

    public HttpSettings {
        List<String> problems = new ArrayList<>();
        if (host == null || host.isBlank()) {
            problems.add("the host must not be empty");
        }
        if (port < 0 || port > 65_535) {
            problems.add("the port must be from 0 to 65535, not " + port);
        }
        if (maxBodyBytes < 1) {
            problems.add("the body limit must be positive");
        }
        if (workers < 1 || workers > 1024) {
            problems.add("workers must be from 1 to 1024, not " + workers);
        }
        if (queueCapacity < 1 || queueCapacity > 100_000) {
            problems.add("the queue must hold from 1 to 100000 requests, not " + queueCapacity);
        }
        if (maxPending < 1) {
            problems.add("the pending limit must be positive");
        }
        if (maxBatchBytes < 1) {
            problems.add("the batch body limit must be positive, not " + maxBatchBytes);
        }
        if (maxBatchMessages < 1) {
            problems.add("the batch message limit must be positive, not " + maxBatchMessages);
        }
        if (shutdownGraceSeconds < 0) {
            problems.add("the shutdown grace must not be negative");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        token = token == null ? "" : token;
    }

    /**
     * Settings for a store configuration: the token is {@code httpToken}, the body limit
     * {@code maxMessageSize} + {@link #BODY_HEADROOM_BYTES}.
     */
    public static HttpSettings from(StoreConfig config, String host, int port, int workers, int queueCapacity) {
        long limit = (long) config.get(StoreConfigKeys.MAX_MESSAGE_SIZE) + BODY_HEADROOM_BYTES;
        return new HttpSettings(host, port, config.get(StoreConfigKeys.HTTP_TOKEN), (int) Math.min(Integer.MAX_VALUE, limit),
                workers, queueCapacity, DEFAULT_MAX_PENDING, DEFAULT_GRACE_SECONDS, DEFAULT_MAX_BATCH_BYTES,
                DEFAULT_MAX_BATCH_MESSAGES);
    }

    /** The same settings with other NDJSON batch limits. */
    public HttpSettings withBatchLimits(int newMaxBatchBytes, int newMaxBatchMessages) {
        return new HttpSettings(host, port, token, maxBodyBytes, workers, queueCapacity, maxPending,
                shutdownGraceSeconds, newMaxBatchBytes, newMaxBatchMessages);
    }

    /** The same settings with another port (tests bind port 0). */
    public HttpSettings withPort(int newPort) {
        return new HttpSettings(host, newPort, token, maxBodyBytes, workers, queueCapacity, maxPending,
                shutdownGraceSeconds, maxBatchBytes, maxBatchMessages);
    }

    public boolean requiresToken() {
        return !token.isEmpty();
    }

    @Override
    public String toString() {
        // never print the token
        return "HttpSettings[host=" + host + ", port=" + port + ", token=" + (requiresToken() ? "***" : "none")
                + ", maxBodyBytes=" + maxBodyBytes + ", workers=" + workers + ", queueCapacity=" + queueCapacity
                + ", maxPending=" + maxPending + ", shutdownGraceSeconds=" + shutdownGraceSeconds
                + ", maxBatchBytes=" + maxBatchBytes + ", maxBatchMessages=" + maxBatchMessages + "]";
    }
}
