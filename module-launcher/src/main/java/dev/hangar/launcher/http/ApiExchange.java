package dev.hangar.launcher.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.hangar.launcher.json.JsonWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request and its single answer. Wraps the JDK's {@link HttpExchange} with the route's path parameters, the
 * decoded query, a bounded body read, and JSON / text answers.
 *
 * <p>An exchange may be answered from another thread than the one that received it (a put answered when its flush
 * completes, a long poll answered by the arrival listener or its timeout): the first answer wins and every later
 * attempt returns false, so two racing completions can never write twice. The path parameters and query are set
 * by the router before the handler runs and are published to other threads by the executor hand-off.
 */
final class ApiExchange {
    static final String JSON = "application/json; charset=utf-8";
    private static final Logger LOG = LoggerFactory.getLogger(ApiExchange.class);
    private static final int READ_CHUNK = 64 * 1024;

    private static final int DRAIN_CHUNK = 16 * 1024;

    private final HttpExchange exchange;
    private final HttpCounters counters;
    private final long drainLimit;
    private final AtomicBoolean answered = new AtomicBoolean();
    /** Set once a handler read the body to its end; the executor hand-off publishes it to a later answer. */
    private volatile boolean bodyConsumed;
    private Map<String, String> pathParameters = Map.of();
    private QueryParameters query = QueryParameters.parse(null);

    /**
     * @param drainLimit the most bytes of an unread request body read and discarded before answering (see
     *                   {@link #respond(int, String, byte[], Map)})
     */
    ApiExchange(HttpExchange exchange, HttpCounters counters, long drainLimit) {
        this.exchange = exchange;
        this.counters = counters;
        this.drainLimit = drainLimit;
        counters.exchangeStarted();
    }

    /** Called by the router once the route is known. */
    void bind(Map<String, String> pathParameters, QueryParameters query) {
        this.pathParameters = Map.copyOf(pathParameters);
        this.query = query;
    }

    String method() {
        return exchange.getRequestMethod();
    }

    String rawPath() {
        return exchange.getRequestURI().getRawPath();
    }

    /** The query as the client sent it (still percent-encoded), or null when there is none. */
    String rawQuery() {
        return exchange.getRequestURI().getRawQuery();
    }

    /** A decoded {@code {name}} segment of the route's path. */
    String pathParameter(String name) {
        String value = pathParameters.get(name);
        if (value == null) {
            throw new IllegalStateException("the route has no path parameter " + name);
        }
        return value;
    }

    QueryParameters query() {
        return query;
    }

    Headers requestHeaders() {
        return exchange.getRequestHeaders();
    }

    /** The declared body length, or -1 when the body is chunked or absent; a malformed header is a 400. */
    long declaredLength() {
        String text = exchange.getRequestHeaders().getFirst("Content-Length");
        if (text == null) {
            return -1;
        }
        return QueryParameters.parseLong("Content-Length", text, 0, Long.MAX_VALUE);
    }

    /**
     * Reads the whole body, refusing (413) one larger than {@code limit} bytes: by its declared length before
     * reading anything, or as soon as a chunked body passes the limit.
     */
    byte[] readBody(int limit) throws IOException {
        long declared = declaredLength();
        if (declared > limit) {
            throw tooLarge(declared + " bytes", limit);
        }
        try (InputStream in = exchange.getRequestBody()) {
            if (declared >= 0) {
                byte[] body = new byte[(int) declared];
                int read = in.readNBytes(body, 0, body.length);
                if (read < declared) {
                    throw ApiException.badRequest("the body ended after " + read + " of " + declared + " bytes");
                }
                bodyConsumed = true;
                return body;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[READ_CHUNK];
            for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                if (out.size() + (long) n > limit) {
                    throw tooLarge("over " + limit + " bytes", limit);
                }
                out.write(chunk, 0, n);
            }
            bodyConsumed = true;
            return out.toByteArray();
        }
    }

    private static ApiException tooLarge(String size, int limit) {
        return new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, "the body is " + size + "; at most " + limit
                + " bytes are accepted (maxMessageSize + " + HttpSettings.BODY_HEADROOM_BYTES + ")");
    }

    /** Answers with {@code value} as one line of JSON; false when the exchange was already answered. */
    boolean respondJson(int status, Object value) {
        return respondJson(status, value, Map.of());
    }

    /** As {@link #respondJson(int, Object)} with extra response headers ({@code Location}...). */
    boolean respondJson(int status, Object value, Map<String, String> headers) {
        return respond(status, JSON, (JsonWriter.write(value) + "\n").getBytes(StandardCharsets.UTF_8), headers);
    }

    /** Answers {@code {"error": message}}; false when the exchange was already answered. */
    boolean respondError(int status, String message) {
        return respondError(status, message, Map.of());
    }

    /** As {@link #respondError(int, String)} with extra response headers ({@code Allow}, {@code Retry-After}...). */
    boolean respondError(int status, String message, Map<String, String> headers) {
        String json = JsonWriter.write(Map.of("error", message == null ? "error" : message)) + "\n";
        return respond(status, JSON, json.getBytes(StandardCharsets.UTF_8), headers);
    }

    /** Answers with a body of the given type; false when the exchange was already answered. */
    boolean respond(int status, String contentType, byte[] body) {
        return respond(status, contentType, body, Map.of());
    }

    /**
     * As {@link #respond(int, String, byte[])} with extra response headers.
     *
     * <p>A request answered before its body was read (a refusal, a 413) first has what is left of its body read
     * and discarded, up to the drain limit: the JDK server closes a connection whose request body was not read to
     * its end, and closing a socket with unread bytes sends a TCP reset that can destroy the answer in flight
     * before the client reads it. Within the limit the connection stays open for the next request; past it the
     * answer says {@code Connection: close}.
     */
    boolean respond(int status, String contentType, byte[] body, Map<String, String> headers) {
        if (!answered.compareAndSet(false, true)) {
            return false;
        }
        counters.recordResponse(status);
        try {
            Headers h = exchange.getResponseHeaders();
            h.set("Content-Type", contentType);
            h.set("Cache-Control", "no-store");
            headers.forEach(h::set);
            if (!drainRequestBody()) {
                h.set("Connection", "close");
            }
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        } catch (IOException e) {
            // the client went away (a long poll given up, a closed connection): nothing left to tell it
            LOG.debug("could not answer {} {} with {}: {}", method(), rawPath(), status, e.toString());
        } finally {
            exchange.close();
            counters.exchangeFinished();
        }
        return true;
    }

    /** Reads and discards the rest of the request body, at most the drain limit; true when it reached the end. */
    private boolean drainRequestBody() {
        if (bodyConsumed) {
            return true;
        }
        long declared;
        try {
            declared = declaredLength();
        } catch (ApiException e) {
            return false;
        }
        if (declared > drainLimit) {
            return false;
        }
        try {
            InputStream in = exchange.getRequestBody();
            byte[] discard = new byte[DRAIN_CHUNK];
            long left = drainLimit;
            while (left > 0) {
                int n = in.read(discard, 0, (int) Math.min(discard.length, left));
                if (n < 0) {
                    bodyConsumed = true;
                    return true;
                }
                left -= n;
            }
            return in.read() < 0;
        } catch (IOException e) {
            LOG.debug("could not read the rest of the body of {} {}: {}", method(), rawPath(), e.toString());
            return false;
        }
    }

    /** Closes the exchange without an answer (when even an error cannot be written). */
    void abandon() {
        if (answered.compareAndSet(false, true)) {
            exchange.close();
            counters.exchangeFinished();
        }
    }
}
