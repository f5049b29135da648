package dev.hangar.launcher.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.hangar.launcher.ErrorMessages;
import dev.hangar.launcher.MessageRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one {@link HttpHandler} of the server: refuses what must never reach a handler, then dispatches by method and
 * path. In order: overload (503, see {@link WorkerPool}), shutting down (503), the bearer token (401), the path
 * (404) and the method (405, with {@code Allow}), unknown query parameters (400), a declared body over the limit
 * (413). Handlers signal a refusal with {@link ApiException}; anything else they throw is a 500. Every refusal is
 * one line of JSON, {@code {"error": "..."}}.
 *
 * <p>Routes are added before the server starts; then it is read-only and thread-safe.
 */
final class Router implements HttpHandler {
    /** Serves one route. May answer later from another thread; must answer exactly once. */
    @FunctionalInterface
    interface Handler {
        void handle(ApiExchange exchange) throws IOException;
    }

    /** A method and a path pattern such as {@code /v1/topics/{topic}/messages}, with the query parameters it takes. */
    record Route(String method, List<String> pattern, Set<String> queryParameters, Handler handler) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(Router.class);
    /** How far past the body limit an unread body is still read and discarded before answering. */
    static final int DRAIN_HEADROOM_BYTES = 1024 * 1024;

    private final List<Route> routes = new ArrayList<>();
    private final byte[] expectedToken;
    private final int maxBodyBytes;
    private final long drainLimit;
    private final HttpCounters counters;
    private final BooleanSupplier stopping;

    /**
     * @param token        the bearer token every request must carry; empty for none
     * @param maxBodyBytes the largest body any route accepts
     * @param stopping     true once the server is shutting down
     */
    Router(String token, int maxBodyBytes, HttpCounters counters, BooleanSupplier stopping) {
        this.expectedToken = token.isEmpty() ? null : token.getBytes(StandardCharsets.UTF_8);
        this.maxBodyBytes = maxBodyBytes;
        // a body just over the limit is read and discarded before its 413, so the connection stays usable
        this.drainLimit = (long) maxBodyBytes + DRAIN_HEADROOM_BYTES;
        this.counters = counters;
        this.stopping = stopping;
    }

    /** Adds a route; {@code pattern} segments in braces are path parameters. */
    Router add(String method, String pattern, Set<String> queryParameters, Handler handler) {
        List<String> segments = new ArrayList<>(List.of(pattern.substring(1).split("/")));
        routes.add(new Route(method, List.copyOf(segments), Set.copyOf(queryParameters), handler));
        return this;
    }

    @Override
    public void handle(HttpExchange raw) {
        ApiExchange exchange = new ApiExchange(raw, counters, drainLimit);
        try {
            if (WorkerPool.isShedding()) {
                exchange.respondError(HttpStatus.SERVICE_UNAVAILABLE, "the server is overloaded: every worker is busy "
                        + "and the request queue is full; retry later", Map.of("Retry-After", "1"));
                return;
            }
            if (stopping.getAsBoolean()) {
                exchange.respondError(HttpStatus.SERVICE_UNAVAILABLE, "the server is shutting down");
                return;
            }
            if (!authorized(raw)) {
                exchange.respondError(HttpStatus.UNAUTHORIZED, "missing or wrong bearer token (send 'Authorization: "
                        + "Bearer <httpToken>')", Map.of("WWW-Authenticate", "Bearer realm=\"hangar\""));
                return;
            }
            dispatch(exchange, raw);
        } catch (ApiException e) {
            exchange.respondError(e.status(), e.getMessage());
        } catch (MessageRequest.InvalidRequestException e) {
            exchange.respondError(HttpStatus.BAD_REQUEST, e.getMessage());
        } catch (IOException e) {
            LOG.debug("{} {}: {}", raw.getRequestMethod(), raw.getRequestURI().getRawPath(), e.toString());
            exchange.respondError(HttpStatus.BAD_REQUEST, "could not read the request: " + ErrorMessages.oneLine(e));
        } catch (RuntimeException e) {
            LOG.warn("{} {} failed", raw.getRequestMethod(), raw.getRequestURI().getRawPath(), e);
            exchange.respondError(HttpStatus.INTERNAL_ERROR, ErrorMessages.oneLine(e));
        } catch (Error e) {
            // answer rather than leave the client waiting, then let the error take its course
            exchange.respondError(HttpStatus.INTERNAL_ERROR, ErrorMessages.oneLine(e));
            throw e;
        }
    }

    /**
     * Runs a deferred answer (a put's flush completed, a long poll woken) so that a failure still answers the
     * exchange - 500 with the reason - instead of leaving the client waiting for ever.
     */
    static void answerSafely(ApiExchange exchange, Runnable answer) {
        try {
            answer.run();
        } catch (RuntimeException | Error e) {
            LOG.warn("{} {}: the deferred answer failed", exchange.method(), exchange.rawPath(), e);
            exchange.respondError(HttpStatus.INTERNAL_ERROR, ErrorMessages.oneLine(e));
            if (e instanceof Error error) {
                throw error;
            }
        }
    }

    private void dispatch(ApiExchange exchange, HttpExchange raw) throws IOException {
        List<String> segments = UriCodec.pathSegments(raw.getRequestURI().getRawPath());
        Set<String> allowedMethods = new TreeSet<>();
        for (Route route : routes) {
            Map<String, String> parameters = match(route.pattern(), segments);
            if (parameters == null) {
                continue;
            }
            if (!route.method().equals(raw.getRequestMethod())) {
                allowedMethods.add(route.method());
                continue;
            }
            QueryParameters query = QueryParameters.parse(raw.getRequestURI().getRawQuery());
            query.requireOnly(route.queryParameters());
            long declared = exchange.declaredLength();
            if (declared > maxBodyBytes) {
                throw new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, "the body is " + declared + " bytes; at most "
                        + maxBodyBytes + " bytes are accepted by any endpoint");
            }
            exchange.bind(parameters, query);
            route.handler().handle(exchange);
            return;
        }
        if (!allowedMethods.isEmpty()) {
            exchange.respondError(HttpStatus.METHOD_NOT_ALLOWED, raw.getRequestMethod() + " is not allowed here; use "
                    + String.join(" or ", allowedMethods), Map.of("Allow", String.join(", ", allowedMethods)));
            return;
        }
        throw new ApiException(HttpStatus.NOT_FOUND, "no such endpoint: " + UriCodec.shorten(raw.getRequestURI().getRawPath())
                + " (see GET /v1/stats, /metrics, /health, /v1/topics/{topic}/messages)");
    }

    /** The path parameters when {@code segments} fit {@code pattern}, else null. */
    private static Map<String, String> match(List<String> pattern, List<String> segments) {
        if (pattern.size() != segments.size()) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < pattern.size(); i++) {
            String p = pattern.get(i);
            if (p.startsWith("{") && p.endsWith("}")) {
                parameters.put(p.substring(1, p.length() - 1), segments.get(i));
            } else if (!p.equals(segments.get(i))) {
                return null;
            }
        }
        return parameters;
    }

    /** Compares the token in constant time, so its bytes cannot be guessed from response times. */
    private boolean authorized(HttpExchange raw) {
        if (expectedToken == null) {
            return true;
        }
        String header = raw.getRequestHeaders().getFirst("Authorization");
        String scheme = "bearer ";
        if (header == null || header.length() < scheme.length()
                || !header.substring(0, scheme.length()).toLowerCase(Locale.ROOT).equals(scheme)) {
            return false;
        }
        byte[] given = header.substring(scheme.length()).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(expectedToken, given);
    }
}
