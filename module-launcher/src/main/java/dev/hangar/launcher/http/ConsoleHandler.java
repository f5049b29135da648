package dev.hangar.launcher.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.hangar.launcher.ErrorMessages;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web console: {@code GET /} and {@code GET /console/...} answer the static files kept in the launcher's
 * resources under {@code dev/hangar/launcher/http/console/} (the chart library among them, unpacked there from its
 * webjar at build time, see module-launcher/pom.xml); every other request goes on to the API's {@link Router}.
 *
 * <p>The files are served without the bearer token: they hold no data, and the page asks for the token (a login
 * form) before its first data call, which the router checks like any other. A path is answered only when every
 * segment is a plain file or folder name ({@code [A-Za-z0-9_-]} words joined by single dots) and its extension has
 * a content type here, so {@code ..}, encoded slashes or a class file are a 404, never a file outside the folder.
 * Answers carry a strong ETag and {@code Cache-Control: no-cache}: a browser revalidates each file on every load and
 * gets a 304 while it is unchanged, so a new launcher version is never hidden behind a stale copy.
 *
 * <p>Overload and shutdown are left to the router (503 as for the API); files are read once and kept (the
 * folder is about 100 KB), misses are not. Thread-safe.
 */
final class ConsoleHandler implements HttpHandler {
    /** Where the files are, relative to this class's package. */
    static final String RESOURCE_FOLDER = "console/";
    /** The URL prefix of every file but the page itself, which is {@code /}. */
    static final String PREFIX = "/console/";
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleHandler.class);
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*");
    private static final int MAX_PATH_CHARS = 256;
    private static final Map<String, String> CONTENT_TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml",
            "png", "image/png",
            "txt", "text/plain; charset=utf-8");
    /**
     * Same-origin only: the console works on a machine without a network, and this makes the browser refuse any
     * attempt to load a script, a style or a font from elsewhere. uPlot sizes its elements through style
     * attributes, hence 'unsafe-inline' for styles (no inline script is allowed).
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; "
            + "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";

    private record StaticFile(String contentType, byte[] bytes, String etag) {
    }

    private final HttpHandler api;
    private final HttpCounters counters;
    private final BooleanSupplier stopping;
    private final Map<String, StaticFile> files = new ConcurrentHashMap<>();

    /**
     * @param api      the router every other request goes to
     * @param counters the server's answer counters (the console's answers are counted with the API's)
     * @param stopping true once the server is shutting down
     */
    ConsoleHandler(HttpHandler api, HttpCounters counters, BooleanSupplier stopping) {
        this.api = api;
        this.counters = counters;
        this.stopping = stopping;
    }

    /** True for the paths this handler answers: the page and everything under {@link #PREFIX}. */
    static boolean isConsolePath(String rawPath) {
        return rawPath.equals("/") || rawPath.startsWith(PREFIX) || rawPath.equals("/console");
    }

    @Override
    public void handle(HttpExchange raw) throws IOException {
        String path = raw.getRequestURI().getRawPath();
        if (path == null || !isConsolePath(path) || WorkerPool.isShedding() || stopping.getAsBoolean()) {
            api.handle(raw);
            return;
        }
        ApiExchange exchange = new ApiExchange(raw, counters, Router.DRAIN_HEADROOM_BYTES);
        try {
            serve(exchange, raw, path);
        } catch (RuntimeException e) {
            LOG.warn("{} {} failed", raw.getRequestMethod(), path, e);
            exchange.respondError(HttpStatus.INTERNAL_ERROR, ErrorMessages.oneLine(e));
        }
    }

    private void serve(ApiExchange exchange, HttpExchange raw, String path) {
        String method = raw.getRequestMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            exchange.respondError(HttpStatus.METHOD_NOT_ALLOWED, method + " is not allowed here; use GET or HEAD",
                    Map.of("Allow", "GET, HEAD"));
            return;
        }
        if (path.equals("/console") || path.equals(PREFIX)) {
            exchange.respond(HttpStatus.FOUND, "text/plain; charset=utf-8", new byte[0], Map.of("Location", "/"));
            return;
        }
        String name = path.equals("/") ? "index.html" : path.substring(PREFIX.length());
        Optional<StaticFile> file = checkedName(name).flatMap(this::file);
        if (file.isEmpty()) {
            exchange.respondError(HttpStatus.NOT_FOUND, "no such console file: " + UriCodec.shorten(path));
            return;
        }
        StaticFile f = file.get();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Cache-Control", "no-cache");
        headers.put("ETag", f.etag());
        headers.put("X-Content-Type-Options", "nosniff");
        if (f.contentType().startsWith("text/html")) {
            headers.put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
            headers.put("Referrer-Policy", "no-referrer");
        }
        if (f.etag().equals(raw.getRequestHeaders().getFirst("If-None-Match"))) {
            exchange.respond(HttpStatus.NOT_MODIFIED, f.contentType(), new byte[0], headers);
            return;
        }
        if (method.equals("HEAD")) {
            headers.put("Content-Length", String.valueOf(f.bytes().length));
            exchange.respond(HttpStatus.OK, f.contentType(), new byte[0], headers);
            return;
        }
        exchange.respond(HttpStatus.OK, f.contentType(), f.bytes(), headers);
    }

    /** The resource name when every segment is a plain name with a known extension; empty otherwise. */
    static Optional<String> checkedName(String name) {
        if (name.isEmpty() || name.length() > MAX_PATH_CHARS) {
            return Optional.empty();
        }
        String[] segments = name.split("/", -1);
        for (String segment : segments) {
            if (!SEGMENT.matcher(segment).matches()) {
                return Optional.empty();
            }
        }
        return contentType(name).isPresent() ? Optional.of(name) : Optional.empty();
    }

    private static Optional<String> contentType(String name) {
        int dot = name.lastIndexOf('.');
        int slash = name.lastIndexOf('/');
        if (dot < 0 || dot < slash) {
            return Optional.empty();
        }
        return Optional.ofNullable(CONTENT_TYPES.get(name.substring(dot + 1).toLowerCase(Locale.ROOT)));
    }

    /** The file, read once; only files that exist are kept, so requests for made-up names cannot grow the map. */
    private Optional<StaticFile> file(String name) {
        StaticFile known = files.get(name);
        if (known != null) {
            return Optional.of(known);
        }
        Optional<StaticFile> loaded = load(name);
        loaded.ifPresent(f -> files.putIfAbsent(name, f));
        return loaded;
    }

    private static Optional<StaticFile> load(String name) {
        try (InputStream in = ConsoleHandler.class.getResourceAsStream(RESOURCE_FOLDER + name)) {
            if (in == null) {
                return Optional.empty();
            }
            byte[] bytes = in.readAllBytes();
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            String etag = "\"" + HexFormat.of().formatHex(digest, 0, 12) + "\"";
            return Optional.of(new StaticFile(contentType(name).orElseThrow(), bytes, etag));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the console file " + name, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this runtime", e);
        }
    }
}
