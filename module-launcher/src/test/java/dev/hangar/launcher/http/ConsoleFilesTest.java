package dev.hangar.launcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's static files over plain HTTP ({@link ConsoleHandler}): served without the token while the data
 * stays behind it, with their content types and revalidation headers, and nothing outside the console's folder.
 */
class ConsoleFilesTest {
    private static final String TOKEN = "files-secret";
    private ApiServerFixture api;

    @BeforeEach
    void start(@TempDir Path dir) throws IOException {
        api = new ApiServerFixture(dir, TOKEN, 2, 16);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void thePageAndItsFilesLoadWithoutTheTokenButTheDataDoesNot() throws Exception {
        HttpResponse<String> page = api.get("/");
        assertEquals(200, page.statusCode());
        assertEquals("text/html; charset=utf-8", page.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(page.body().contains("<title>Hangar console</title>"));
        assertEquals(ConsoleHandler.CONTENT_SECURITY_POLICY,
                page.headers().firstValue("Content-Security-Policy").orElseThrow());
        // every script and style the page names is served, from this server only
        Matcher src = Pattern.compile("(?:src|href)=\"(/console/[^\"]+)\"").matcher(page.body());
        int files = 0;
        while (src.find()) {
            HttpResponse<String> file = api.get(src.group(1));
            assertEquals(200, file.statusCode(), src.group(1));
            String type = file.headers().firstValue("Content-Type").orElseThrow();
            assertTrue(type.equals(src.group(1).endsWith(".js") ? "text/javascript; charset=utf-8"
                    : "text/css; charset=utf-8"), src.group(1) + ": " + type);
            files++;
        }
        assertTrue(files >= 8, "uPlot's script and style and the console's own: " + files);
        assertFalse(page.body().contains("http://") || page.body().contains("https://"), "nothing from elsewhere");

        assertEquals(401, api.get("/v1/stats").statusCode());
        assertEquals(401, api.get("/health").statusCode());
    }

    @Test
    void theChartLibraryComesFromItsWebjar() throws Exception {
        HttpResponse<String> uplot = api.get("/console/vendor/uplot/uPlot.iife.min.js");
        assertEquals(200, uplot.statusCode());
        assertTrue(uplot.body().contains("uPlot"), "the library itself");
        assertTrue(uplot.body().length() > 20_000, "the whole minified library: " + uplot.body().length());
    }

    @Test
    void anUnchangedFileIsRevalidatedWith304() throws Exception {
        HttpResponse<String> first = api.get("/console/app.js");
        assertEquals("no-cache", first.headers().firstValue("Cache-Control").orElseThrow());
        String etag = first.headers().firstValue("ETag").orElseThrow();
        HttpResponse<String> again = api.send(api.request("/console/app.js").header("If-None-Match", etag).GET().build());
        assertEquals(304, again.statusCode());
        assertEquals("", again.body());
        HttpResponse<String> other = api.send(api.request("/console/app.js").header("If-None-Match", "\"stale\"").GET().build());
        assertEquals(200, other.statusCode());
        assertEquals(first.body(), other.body());
    }

    @Test
    void pathsOutsideTheConsoleFolderAreNotFound() throws Exception {
        for (String path : List.of("/console/../ConsoleHandler.class", "/console/%2e%2e/ConsoleHandler.class",
                "/console/..%2fConsoleHandler.class", "/console/vendor/../../ConsoleHandler.class",
                "/console//app.js", "/console/./app.js", "/console/ConsoleHandler.class", "/console/vendor/uplot/LICENSE",
                "/console/nothing.js", "/console/app.js%00.css", "/console/.hidden.js", "/console/app..js", "/console/../console/app.js")) {
            String answer = rawGet(path);
            assertTrue(answer.startsWith("HTTP/1.1 404") || answer.startsWith("HTTP/1.1 400"), path + " -> "
                    + answer.lines().findFirst().orElse(""));
            assertFalse(answer.contains("\u00ca\u00fe\u00ba\u00be"), path + " answered a class file");
        }
    }

    @Test
    void onlyGetAndHeadReadTheConsole() throws Exception {
        HttpResponse<String> post = api.send(api.request("/").POST(HttpRequest.BodyPublishers.ofString("x")).build());
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
        HttpResponse<String> head = api.send(api.request("/console/api.js").method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
    }

    @Test
    void theConsoleFolderItselfLeadsToThePage() throws Exception {
        HttpResponse<String> folder = api.get("/console/");
        assertEquals(302, folder.statusCode());
        assertEquals("/", folder.headers().firstValue("Location").orElseThrow());
    }

    /** A GET with the path exactly as given (java.net.URI and the HTTP client would refuse or normalise some). */
    private String rawGet(String path) throws IOException {
        URI base = URI.create(api.base);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
