package dev.hangar.launcher.http;

import static dev.hangar.launcher.http.ApiServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.json.MiniJsonReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The web console in a real browser (headless Chromium through Selenium) against a real {@code serve}: a store on
 * a temporary directory with the HTTP server and a token. One browser for the class; the first test signs in
 * (sessionStorage keeps the token for the others). Screenshots of every page go to target/console-screenshots/.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {
    private static final String TOKEN = "console-secret";

    @TempDir
    static Path dir;
    private static ApiServerFixture api;
    private static HeadlessChromium browser;
    private static int loads;

    @BeforeAll
    static void startServerAndBrowser() throws Exception {
        api = new ApiServerFixture(dir, TOKEN, 4, 64);
        browser = HeadlessChromium.start();
    }

    @AfterAll
    static void stop() {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            if (api != null) {
                api.close();
            }
        }
    }

    @Test
    @Order(1)
    void aWrongTokenIsRefusedAndTheRightOneOpensTheOverview() throws Exception {
        browser.driver.get(api.base + "/");
        WebElement login = browser.until("the login form", d -> {
            WebElement form = d.findElement(By.id("login"));
            return form.isDisplayed() ? form : null;
        });
        assertTrue(login.getText().contains("Token required"), login.getText());
        assertTrue(!visible(browser.driver.findElement(By.id("page-overview"))), "no data page before signing in");

        signIn("not-the-token");
        String refused = browser.until("the refusal", d -> text(d, "login-error").isEmpty() ? null : text(d, "login-error"));
        assertTrue(refused.contains("refused") && refused.contains("bearer token"), refused);
        assertTrue(visible(browser.driver.findElement(By.id("login"))), "still signed out");
        browser.screenshot("login-refused");

        signIn(TOKEN);
        browser.until("the overview", d -> visible(d.findElement(By.id("page-overview"))));
        browser.until("the health banner", d -> text(d, "health-status").equals("UP"));
        assertEquals(TOKEN, browser.js("return sessionStorage.getItem('hangar.token');"));
    }

    @Test
    @Order(2)
    void theOverviewChartsDrawTheStoresFiguresAsTheyCome() throws Exception {
        open("overview");
        // puts spread over several refreshes, so the rate and the interval p99 have points to draw
        browser.until("put-rate points above zero", d -> {
            // an uneven pace, so the chart shows a rate that moves
            for (int i = loads % 4; i >= 0; i--) {
                putQuietly("Charted", "c");
            }
            loads++;
            return pointsAboveZero("putRate") >= 6;
        });
        browser.until("put-latency points", d -> {
            putQuietly("Charted", "c");
            return pointsAboveZero("putLatency") >= 2;
        });
        assertTrue(drawnPath("putRate"), "uPlot drew the put-rate series");
        assertTrue(drawnPath("putLatency"), "uPlot drew the put-latency series");
        // the interval p99 from two readings of a histogram: 100 puts between 64 and 127 µs, 99th of them at
        // 63 + 64 * 0.99 µs (interpolated as Prometheus' histogram_quantile does); nothing new in between: no point
        assertEquals(126.36, ((Number) browser.js("return Hangar.overview.intervalQuantile("
                + "[[63, 5], [127, 5], [255, 7], [Infinity, 7]], [[63, 5], [127, 105], [255, 107], [Infinity, 107]], 0.99);"))
                .doubleValue(), 0.001);
        assertEquals(null, browser.js("return Hangar.overview.intervalQuantile("
                + "[[63, 5], [127, 5], [Infinity, 5]], [[63, 5], [127, 5], [Infinity, 5]], 0.99);"));
        browser.until("disk-use points with the thresholds", d -> pointsAboveZero("disk") >= 2);
        // the disk chart's thresholds are the store's configuration, not made up by the page
        assertEquals(90L, ((Number) browser.js("const d = Hangar.overview.charts.disk.data;"
                + "return d[4][d[4].length - 1];")).longValue(), "diskSpaceWarningLevelRatio's default");
        assertTrue(text(browser.driver, "health-reason").contains("takes writes"));
        // a lone store has no slave: the replication chart says so instead of staying empty
        WebElement replication = browser.driver.findElement(By.id("chart-replicationLag"));
        assertTrue(replication.getText().contains("No replication"), replication.getText());
        browser.screenshot("overview");
    }

    @Test
    @Order(3)
    void theTopicListShowsEveryTopicWithItsQueuesAndCounts() throws Exception {
        for (int i = 0; i < 3; i++) {
            post("/v1/topics/Orders/messages?queue=" + i, "order " + i);
        }
        post("/v1/topics/Payments/messages?queue=0", "payment");
        open("topics");
        WebElement orders = browser.until("the Orders row", d -> d.findElement(By.cssSelector("tr[data-topic='Orders']")));
        assertEquals(List.of("Orders", "3", "3"), cells(orders));
        assertEquals(List.of("Payments", "1", "1"), cells(browser.driver.findElement(By.cssSelector("tr[data-topic='Payments']"))));
        orders.click();
        WebElement queue2 = browser.until("the queue rows", d -> d.findElement(By.cssSelector("#queues-table tr[data-queue='2']")));
        assertEquals(List.of("2", "0", "1", "1"), cells(queue2));
        browser.screenshot("topics");
    }

    @Test
    @Order(4)
    void aQueueIsReadNewestFirstOnePageAtATime() throws Exception {
        StringBuilder batch = new StringBuilder();
        for (int i = 0; i < 45; i++) {
            batch.append("{\"queue\": 0, \"body\": \"message ").append(i).append("\"}\n");
        }
        HttpResponse<String> put = api.send(api.request("/v1/topics/Paged/messages").header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/x-ndjson").POST(HttpRequest.BodyPublishers.ofString(batch.toString())).build());
        assertEquals(201, put.statusCode(), put.body());
        open("topics");
        browser.until("the Paged row", d -> d.findElement(By.cssSelector("tr[data-topic='Paged']"))).click();
        browser.until("queue 0", d -> d.findElement(By.cssSelector("#queues-table tr[data-queue='0']"))).click();
        assertEquals(offsets(44, 25), browser.until("the newest page", d -> pageOffsets(d.findElements(By.cssSelector("tr.message-row")), 44)));
        browser.driver.findElement(By.id("page-older")).click();
        assertEquals(offsets(24, 5), browser.until("the older page", d -> pageOffsets(d.findElements(By.cssSelector("tr.message-row")), 24)));
        browser.driver.findElement(By.id("page-older")).click();
        assertEquals(offsets(4, 0), browser.until("the oldest page", d -> pageOffsets(d.findElements(By.cssSelector("tr.message-row")), 4)));
        assertTrue(!browser.driver.findElement(By.id("page-older")).isEnabled(), "nothing older than offset 0");
        browser.driver.findElement(By.id("page-newer")).click();
        assertEquals(offsets(24, 5), browser.until("back to the newer page", d -> pageOffsets(d.findElements(By.cssSelector("tr.message-row")), 24)));
    }

    @Test
    @Order(5)
    void aMessageFoundByKeyShowsItsBodyAsJsonTextAndHex() throws Exception {
        HttpResponse<String> put = post("/v1/topics/Invoices/messages?key=INV-7&tag=paid&property=Region=eu",
                "{\"invoice\":7,\"amount\":12.5}");
        assertEquals(201, put.statusCode(), put.body());
        open("topics");
        browser.until("the lookup form", d -> visible(d.findElement(By.id("lookup-key"))));
        browser.driver.findElement(By.id("lookup-topic")).clear();
        browser.driver.findElement(By.id("lookup-topic")).sendKeys("Invoices");
        browser.driver.findElement(By.id("lookup-key")).sendKeys("INV-7");
        browser.driver.findElement(By.id("lookup-key-go")).click();
        WebElement body = browser.until("the message body", d -> d.findElement(By.cssSelector("#key-results pre.body")));
        assertEquals("{\n  \"invoice\": 7,\n  \"amount\": 12.5\n}", body.getText(), "pretty JSON");
        WebElement message = browser.driver.findElement(By.cssSelector("#key-results .message"));
        assertEquals(json(put).get("msgId"), message.getAttribute("data-msgid"));
        assertTrue(message.getText().contains("Region") && message.getText().contains("eu"), message.getText());
        assertTrue(message.getText().contains("paid"), "the tag: " + message.getText());
        browser.screenshot("message-by-key");
        message.findElement(By.cssSelector("button.view-hex")).click();
        assertTrue(body.getText().startsWith("00000000  7b 22 69 6e"), body.getText());
        message.findElement(By.cssSelector("button.view-text")).click();
        assertEquals("{\"invoice\":7,\"amount\":12.5}", body.getText());

        // the same message by its id
        browser.driver.findElement(By.id("lookup-msgid")).sendKeys((String) json(put).get("msgId"));
        browser.driver.findElement(By.id("lookup-msgid-go")).click();
        browser.until("the message by id", d -> d.findElement(By.cssSelector("#topic-detail h2")).getText()
                .equals("Message " + json(put).get("msgId")));
    }

    @Test
    @Order(6)
    void aTestMessagePutFromThePageIsReadableOverTheApi() throws Exception {
        open("put");
        browser.until("the put form", d -> visible(d.findElement(By.id("put-form"))));
        fill("put-topic", "FromConsole");
        fill("put-queue", "1");
        fill("put-key", "K-1 K-2");
        fill("put-tag", "manual");
        fill("put-properties", "Origin=console\nTrace=abc 123");
        fill("put-body", "hello from the page");
        browser.driver.findElement(By.id("put-go")).click();
        String status = browser.until("the put's answer", d -> text(d, "put-status").isEmpty() ? null : text(d, "put-status"));
        assertEquals("Stored: PUT_OK", status);
        Map<String, Object> answer = MiniJsonReader.object(text(browser.driver, "put-answer"));
        browser.screenshot("put");

        HttpResponse<String> read = get("/v1/messages/" + answer.get("msgId"));
        assertEquals(200, read.statusCode(), read.body());
        Map<String, Object> m = json(read);
        assertEquals("FromConsole", m.get("topic"));
        assertEquals(1L, ((Number) m.get("queueId")).longValue());
        assertEquals("K-1 K-2", m.get("keys"));
        assertEquals("manual", m.get("tags"));
        @SuppressWarnings("unchecked")
        Map<String, Object> properties = (Map<String, Object>) m.get("properties");
        assertEquals("console", properties.get("Origin"));
        assertEquals("abc 123", properties.get("Trace"));
        assertEquals("hello from the page", new String(Base64.getDecoder().decode((String) m.get("bodyBase64")),
                StandardCharsets.UTF_8));
    }

    @Test
    @Order(7)
    void aRefusedPutShowsTheServersReason() throws Exception {
        open("put");
        browser.until("the put form", d -> visible(d.findElement(By.id("put-form"))));
        fill("put-topic", "bad/topic");
        fill("put-body", "x");
        browser.driver.findElement(By.id("put-go")).click();
        String status = browser.until("the refusal", d -> text(d, "put-status").isEmpty() ? null : text(d, "put-status"));
        assertTrue(status.startsWith("Refused (HTTP 400)") && status.contains("topic"), status);
    }

    @Test
    @Order(8)
    void theReplicationPageSaysALoneStoreHasNoSlave() throws Exception {
        open("replication");
        String state = browser.until("the replication state", d -> text(d, "replication-state").isEmpty() ? null
                : text(d, "replication-state"));
        assertTrue(state.startsWith("Replication is off") && state.contains("ASYNC_MASTER"), state);
        browser.screenshot("replication");
    }

    @Test
    @Order(9)
    void aStoreThatRefusesWritesShowsTheReasonInsteadOfEmptyCharts(@TempDir Path full) throws Exception {
        // a real disk-full state, from the thresholds: any disk in use past 1 % is "full" for this store
        try (ApiServerFixture refusing = new ApiServerFixture(full, "", 2, 16,
                Map.of("diskSpaceWarningLevelRatio", "1", "diskSpaceCleanForciblyRatio", "1",
                        "cleanFileForciblyEnable", "false"))) {
            assertTrue(ApiServerFixture.eventually(() -> !refusing.store.statsSnapshot().writable()),
                    "the disk check marks the store not writable");
            browser.driver.get(refusing.base + "/#overview");
            browser.until("the DOWN banner", d -> text(d, "health-status").equals("DOWN"));
            String reason = text(browser.driver, "health-reason");
            assertTrue(reason.contains("disk full"), reason);
            WebElement putRate = browser.until("the put-rate chart's note",
                    d -> d.findElement(By.cssSelector("#chart-putRate .chart-note")));
            browser.until("the reason on the put-rate chart", d -> putRate.isDisplayed());
            assertTrue(putRate.getText().startsWith("Puts are refused: disk full"), putRate.getText());
            WebElement disk = browser.driver.findElement(By.cssSelector("#chart-disk .chart-note"));
            browser.until("the disk chart's note", d -> disk.isDisplayed());
            assertTrue(disk.getText().contains("Disk full"), disk.getText());
            browser.screenshot("overview-disk-full");
        }
    }

    @Test
    @Order(10)
    void aMasterShowsItsConnectedSlaveAndWhatTheSlaveAcknowledged(@TempDir Path masterDir, @TempDir Path slaveDir)
            throws Exception {
        try (ApiServerFixture master = new ApiServerFixture(masterDir, "", 2, 16,
                Map.of("brokerRole", "ASYNC_MASTER", "haListenPort", "0"));
             ApiServerFixture slave = new ApiServerFixture(slaveDir, "", 2, 16,
                     Map.of("brokerRole", "SLAVE", "haMasterAddress", master.store.replicationStatus().listenAddress()))) {
            for (int i = 0; i < 10; i++) {
                assertEquals(201, master.post("/v1/topics/Copied/messages", "copy " + i).statusCode());
            }
            long end = master.store.statsSnapshot().commitLog().maxOffset();
            assertTrue(ApiServerFixture.eventually(() -> master.store.replicationStatus().connectedSlaves() == 1
                    && master.store.replicationStatus().ackedOffset() == end), "the slave caught up");

            browser.driver.get(master.base + "/#replication");
            WebElement fields = browser.until("the master's replication figures",
                    d -> d.findElement(By.id("replication-fields")));
            Map<String, String> rows = rows(fields);
            assertEquals("ASYNC_MASTER", rows.get("Role"));
            assertEquals("1", rows.get("Slaves connected"));
            assertEquals(String.format(java.util.Locale.US, "%,d", end), rows.get("Commit log end"));
            assertEquals(rows.get("Commit log end"), rows.get("Acknowledged by a slave up to"));
            assertEquals("Slaves in step", text(browser.driver, "replication-state"));
            browser.screenshot("replication-master");

            // the overview charts the lag (zero here) instead of saying there is no replication
            browser.driver.get(master.base + "/?load=master#overview");
            browser.until("replication-lag points", d -> ((Number) browser.js("return Hangar.overview.charts"
                    + ".replicationLag.data[1].filter(v => v !== null).length;")).longValue() >= 2);
            assertTrue(!browser.driver.findElement(By.cssSelector("#chart-replicationLag .chart-note")).isDisplayed(),
                    "no note on a healthy master's replication chart");

            browser.driver.get(slave.base + "/#replication");
            Map<String, String> slaveRows = rows(browser.until("the slave's replication figures",
                    d -> d.findElement(By.id("replication-fields"))));
            assertEquals("SLAVE", slaveRows.get("Role"));
            assertEquals(master.store.replicationStatus().listenAddress(), slaveRows.get("Master"));
        }
    }

    @Test
    @Order(11)
    void aSyncMasterWithoutASlaveShowsWhyItIsDegraded(@TempDir Path lone) throws Exception {
        try (ApiServerFixture master = new ApiServerFixture(lone, "", 2, 16,
                Map.of("brokerRole", "SYNC_MASTER", "haListenPort", "0"))) {
            browser.driver.get(master.base + "/#overview");
            browser.until("the DEGRADED banner", d -> text(d, "health-status").equals("DEGRADED"));
            assertTrue(text(browser.driver, "health-reason").contains("no slave"), text(browser.driver, "health-reason"));
            WebElement note = browser.driver.findElement(By.cssSelector("#chart-replicationLag .chart-note"));
            browser.until("the replication chart's note", d -> note.isDisplayed());
            assertTrue(note.getText().startsWith("No slave is connected"), note.getText());
            browser.screenshot("overview-no-slave");
        }
    }

    @Test
    @Order(12)
    void aRaftNodeShowsItsRoleTermAndLeaderOnTheOverview(@TempDir Path node) throws Exception {
        try (ApiServerFixture follower = new ApiServerFixture(node, "", 2, 16, Map.of("haService", "test-consensus"))) {
            dev.hangar.launcher.fixture.TestConsensusProvider.node(node.resolve("store")).set(
                    new dev.hangar.spi.ha.ConsensusStatus("n2", "FOLLOWER", false, 7, "n1", "http://127.0.0.1:1", 0, 0,
                            java.util.List.of(), ""));
            browser.driver.get(follower.base + "/#overview");
            browser.until("the role tile", d -> d.findElement(By.cssSelector("#tile-role .tile-value")).getText()
                    .equals("FOLLOWER (Raft, term 7, leader n1)"));
            assertTrue(text(browser.driver, "store-state").startsWith("FOLLOWER"), text(browser.driver, "store-state"));
            assertTrue(text(browser.driver, "health-reason").contains("writes are redirected to the leader n1"),
                    text(browser.driver, "health-reason"));
            WebElement lag = browser.driver.findElement(By.cssSelector("#chart-replicationLag .chart-note"));
            browser.until("the replication chart's note", d -> lag.isDisplayed());
            assertTrue(lag.getText().startsWith("This node follows n1"), lag.getText());
            browser.screenshot("overview-raft-follower");
        }
    }

    /** A two-column table as label -> value. */
    private static Map<String, String> rows(WebElement table) {
        Map<String, String> rows = new java.util.LinkedHashMap<>();
        for (WebElement tr : table.findElements(By.tagName("tr"))) {
            rows.put(tr.findElement(By.tagName("th")).getText(), tr.findElement(By.tagName("td")).getText());
        }
        return rows;
    }

    /** The rows' first cells, newest first, once the page that starts at {@code first} is shown. */
    private static List<Long> pageOffsets(List<WebElement> rows, long first) {
        List<Long> offsets = rows.stream().map(r -> Long.parseLong(r.findElement(By.tagName("td")).getText()))
                .collect(Collectors.toList());
        return !offsets.isEmpty() && offsets.get(0) == first ? offsets : null;
    }

    private static List<Long> offsets(long newest, long oldest) {
        List<Long> list = new java.util.ArrayList<>();
        for (long o = newest; o >= oldest; o--) {
            list.add(o);
        }
        return list;
    }

    private static List<String> cells(WebElement row) {
        return row.findElements(By.tagName("td")).stream().map(WebElement::getText).collect(Collectors.toList());
    }

    /** Loads the console afresh on a page (a new query string, so the browser does not just move to the hash). */
    private static void open(String page) {
        browser.driver.get(api.base + "/?load=" + (++loads) + "#" + page);
    }

    private static void signIn(String token) {
        WebElement field = browser.driver.findElement(By.id("login-token"));
        field.clear();
        field.sendKeys(token);
        browser.driver.findElement(By.cssSelector("#login-form button")).click();
    }

    private static void fill(String id, String value) {
        WebElement field = browser.driver.findElement(By.id(id));
        field.clear();
        field.sendKeys(value);
    }

    private static boolean visible(WebElement e) {
        return e.isDisplayed();
    }

    private static String text(org.openqa.selenium.WebDriver d, String id) {
        return d.findElement(By.id(id)).getText();
    }

    /** Points of a chart's first series, as uPlot holds them, that are above zero. */
    private static long pointsAboveZero(String chart) {
        return ((Number) browser.js("return Hangar.overview.charts[arguments[0]].data[1]"
                + ".filter(v => v !== null && v > 0).length;", chart)).longValue();
    }

    /** True once uPlot has built the stroke path of a chart's first series (it builds it only when drawing). */
    private static boolean drawnPath(String chart) {
        return Boolean.TRUE.equals(browser.js("const s = Hangar.overview.charts[arguments[0]].series[1];"
                + "return !!(s._paths && s._paths.stroke instanceof Path2D);", chart));
    }

    private static HttpResponse<String> post(String pathAndQuery, String body) throws Exception {
        return api.send(api.request(pathAndQuery).header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static HttpResponse<String> get(String pathAndQuery) throws Exception {
        return api.send(api.request(pathAndQuery).header("Authorization", "Bearer " + TOKEN).GET().build());
    }

    private static void putQuietly(String topic, String body) {
        try {
            post("/v1/topics/" + topic + "/messages", body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
