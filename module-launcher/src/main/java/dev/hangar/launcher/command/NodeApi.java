package dev.hangar.launcher.command;

import dev.hangar.launcher.LauncherException;
import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.json.JsonReader;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.MalformedURLException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * The HTTP API of a running node ({@code store-launcher serve}) as commands that cannot open the store themselves
 * (its directory is locked by the serving process) use it: one request, its JSON answer, and every failure as one
 * clear line. On {@link HttpURLConnection} (java.base), so the runtime image needs no further JDK module.
 * Not thread-safe; one per invocation.
 */
final class NodeApi {
    /** The longest answer waited for: a membership change is answered once the group applied it (at most 60 s). */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    /** A non-error answer: its status and JSON object. */
    record Answer(int status, Map<String, Object> json) {
    }

    private final String base;
    private final String token;

    /**
     * @param url   {@code http://host:port} of the node
     * @param token its {@code httpToken}, or empty
     * @throws LauncherException (usage) when {@code url} is not an http URL with a host
     */
    NodeApi(String url, String token) {
        String trimmed = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        try {
            URI uri = new URI(trimmed);
            if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null
                    || (uri.getPath() != null && !uri.getPath().isEmpty())) {
                throw new URISyntaxException(url, "not http://HOST:PORT");
            }
        } catch (URISyntaxException e) {
            throw new LauncherException("--url must be http://HOST:PORT of a running store-launcher serve, not '"
                    + url + "'", null, StoreLauncher.EXIT_USAGE);
        }
        this.base = trimmed;
        this.token = token;
    }

    String url() {
        return base;
    }

    /**
     * Sends one request without a body and returns the 2xx answer.
     *
     * @throws LauncherException when the node cannot be reached, or answers with an error (its message, naming the
     *                           node; a 404 also says the node may not be a raft node)
     */
    Answer call(String method, String pathAndQuery) {
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) URI.create(base + pathAndQuery).toURL().openConnection();
            c.setRequestMethod(method);
            c.setInstanceFollowRedirects(false);
            c.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
            c.setReadTimeout((int) READ_TIMEOUT.toMillis());
            if (!token.isEmpty()) {
                c.setRequestProperty("Authorization", "Bearer " + token);
            }
            int status = c.getResponseCode();
            InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
            String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Map<String, Object> json = parse(status, body);
            if (status >= 200 && status < 300) {
                return new Answer(status, json);
            }
            Object error = json.get("error");
            String reason = error instanceof String s ? s : body.strip();
            throw new LauncherException(switch (status) {
                case 401 -> base + " wants its httpToken (give --token or -DhttpToken=...): " + reason;
                case 404 -> base + ": " + reason;
                default -> base + " answered " + status + ": " + reason;
            });
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new LauncherException("bad URL " + base + pathAndQuery + ": " + e.getMessage(), e,
                    StoreLauncher.EXIT_USAGE);
        } catch (ConnectException | UnknownHostException | SocketTimeoutException e) {
            throw new LauncherException("cannot reach the node at " + base + " (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + "); is store-launcher serve running there? Point --url at it", e);
        } catch (IOException e) {
            throw new LauncherException("talking to " + base + " failed: " + e, e);
        } finally {
            if (c != null) {
                c.disconnect();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> parse(int status, String body) {
        try {
            Object value = JsonReader.parse(body);
            if (value instanceof Map<?, ?> map) {
                return (Map<String, Object>) map;
            }
        } catch (IllegalArgumentException e) {
            // not JSON: not one of our nodes (or a proxy's page); said below
        }
        if (status >= 400) {
            return Map.of("error", body.isBlank() ? "(no body)" : body.strip().lines().findFirst().orElse(""));
        }
        throw new LauncherException(base + " answered " + status + " with something other than a JSON object: is it a "
                + "store-launcher serve?");
    }
}
