package dev.hangar.launcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
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
 * The console's consumer-groups page in headless Chromium against a real {@code serve}: the empty state on a
 * store without groups, then two groups committed over HTTP, their offsets and lags per queue, and the lag chart
 * following new commits. One browser for the class; screenshots go to target/console-screenshots/.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleGroupsBrowserTest {
    @TempDir
    static Path dir;
    private static ApiServerFixture api;
    private static HeadlessChromium browser;
    private static int loads;

    @BeforeAll
    static void startServerAndBrowser() throws Exception {
        api = new ApiServerFixture(dir, "", 4, 64);
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
    void aStoreWithoutGroupsSaysNoGroupHasCommitted() throws Exception {
        // messages but no commit: a topic is not a group
        put("Orders", 0, 1);
        open();
        WebElement empty = browser.until("the empty state", d -> d.findElements(By.id("groups-empty")).stream()
                .filter(WebElement::isDisplayed).findFirst().orElse(null));
        assertTrue(empty.getText().startsWith("No consumer group has committed yet"), empty.getText());
        assertTrue(browser.driver.findElements(By.id("groups-table")).isEmpty(), "no table of groups");
        assertTrue(browser.driver.findElements(By.id("chart-groupLag")).isEmpty(), "no chart for no group");
        browser.screenshot("groups-empty");
    }

    @Test
    @Order(2)
    void eachGroupShowsItsCommittedOffsetMaxAndLagPerQueueAndTheLagIsCharted() throws Exception {
        put("Orders", 0, 4);      // Orders/0 ends at 5 (one from the first test)
        put("Orders", 1, 3);      // Orders/1 at 3
        put("Payments", 0, 7);    // Payments/0 at 7
        commit("billing", "Orders", 0, 2);
        commit("billing", "Orders", 1, 3);
        commit("billing", "Payments", 0, 1);
        commit("audit", "Payments", 0, 4);
        open();

        WebElement audit = browser.until("the audit row", d -> d.findElement(By.cssSelector("tr[data-group='audit']")));
        assertEquals(List.of("audit", "1", "3"), cells(audit));
        assertEquals(List.of("billing", "2", "9"), cells(browser.driver.findElement(By.cssSelector("tr[data-group='billing']"))));
        // the first group by name is selected first
        browser.until("audit's queues", d -> queueRows().equals(List.of(List.of("Payments", "0", "4", "7", "3"))));

        click("tr[data-group='billing']");
        browser.until("billing's queues", d -> queueRows().equals(List.of(
                List.of("Orders", "0", "2", "5", "3"),
                List.of("Orders", "1", "3", "3", "0"),
                List.of("Payments", "0", "1", "7", "6"))));
        assertTrue(text("group-title").startsWith("billing"), text("group-title"));

        // a point per refresh: total and one line per queue, with the numbers of the table
        browser.until("three lag points", d -> chartNumber("return Hangar.groups.chart.data[1].length;") >= 3);
        assertEquals(List.of("total", "Orders/0", "Orders/1", "Payments/0"), seriesLabels());
        assertEquals(9, chartNumber("const d = Hangar.groups.chart.data[1]; return d[d.length - 1];"));
        assertEquals(6, chartNumber("const d = Hangar.groups.chart.data[4]; return d[d.length - 1];"));

        // the group catches up on Payments: the table and the chart follow without reloading the page
        commit("billing", "Payments", 0, 7);
        browser.until("billing's new lag on the chart", d ->
                chartNumber("const d = Hangar.groups.chart.data[1]; return d[d.length - 1];") == 3);
        browser.until("the table's new lag", d -> queueRows().contains(List.of("Payments", "0", "7", "7", "0")));
        assertTrue(Boolean.TRUE.equals(browser.js("const s = Hangar.groups.chart.series[1];"
                + "return !!(s._paths && s._paths.stroke instanceof Path2D);")), "uPlot drew the total lag");
        List<Long> totals = ((List<?>) browser.js("return Hangar.groups.chart.data[1];")).stream()
                .map(v -> ((Number) v).longValue()).collect(Collectors.toList());
        assertEquals(9L, totals.get(0), "the history starts before the commit: " + totals);
        assertEquals(3L, totals.get(totals.size() - 1), totals.toString());
        browser.screenshot("groups");
    }

    @Test
    @Order(3)
    void aDeletedGroupLeavesTheList() throws Exception {
        open();
        browser.until("both groups", d -> d.findElements(By.cssSelector("tr.group-row")).size() == 2);
        assertEquals(200, api.send(api.request("/v1/groups/audit").DELETE().build()).statusCode());
        browser.until("audit gone", d -> d.findElements(By.cssSelector("tr[data-group='audit']")).isEmpty());
        browser.until("billing selected instead", d -> text("group-title").startsWith("billing"));
    }

    @Test
    @Order(4)
    void aGroupOfManyQueuesIsChartedAsItsTotalLagOnly() throws Exception {
        for (int q = 0; q < 7; q++) {
            put("Wide", q, 2);
            commit("wide", "Wide", q, q % 2);
        }
        open();
        click("tr[data-group='wide']");
        browser.until("wide's seven queues", d -> queueRows().size() == 7 && text("group-title").startsWith("wide"));
        browser.until("wide's lag points", d -> chartNumber("return Hangar.groups.chart.series.length === 2"
                + " && Hangar.groups.chart.series[1].label === 'total' ? Hangar.groups.chart.data[1].length : 0;") >= 2);
        // lags 2, 1, 2, 1, 2, 1, 2
        assertEquals(11, chartNumber("const d = Hangar.groups.chart.data[1]; return d[d.length - 1];"));
        assertTrue(text("group-lag-note").startsWith("Total lag only: the group has 7 queues"), text("group-lag-note"));
    }

    private static void put(String topic, int queue, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            assertEquals(201, api.post("/v1/topics/" + topic + "/messages?queue=" + queue, "m" + i).statusCode());
        }
    }

    /**
     * Commits once the queue is there: a put is acknowledged before the dispatch thread makes its queue, and a commit
     * to a queue not made yet is a 404 (seen on a loaded machine), so a 404 is retried for a while.
     */
    private static void commit(String group, String topic, int queue, long offset) throws Exception {
        String path = "/v1/groups/" + group + "/topics/" + topic + "/queues/" + queue + "/offset";
        String body = "{\"offset\":" + offset + "}";
        long deadline = System.currentTimeMillis() + 20_000;
        var r = api.post(path, body);
        while (r.statusCode() == 404 && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
            r = api.post(path, body);
        }
        assertEquals(200, r.statusCode(), r.body());
    }

    /** Loads the console afresh on the groups page. */
    private static void open() {
        browser.driver.get(api.base + "/?load=" + (++loads) + "#groups");
    }

    /** Clicks a group's row; again if a refresh replaced the row (its lag changed) between finding and clicking. */
    private static void click(String css) {
        browser.until("a click on " + css, d -> {
            d.findElement(By.cssSelector(css)).click();
            return true;
        });
    }

    private static List<List<String>> queueRows() {
        return browser.driver.findElements(By.cssSelector("#group-queues tr.group-queue-row")).stream()
                .map(ConsoleGroupsBrowserTest::cells).collect(Collectors.toList());
    }

    private static List<String> cells(WebElement row) {
        return row.findElements(By.tagName("td")).stream().map(WebElement::getText).collect(Collectors.toList());
    }

    private static String text(String id) {
        List<WebElement> found = browser.driver.findElements(By.id(id));
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    private static long chartNumber(String script) {
        Object v = browser.js("if (!Hangar.groups.chart) { return -1; } " + script);
        return v == null ? -1 : ((Number) v).longValue();
    }

    @SuppressWarnings("unchecked")
    private static List<String> seriesLabels() {
        return (List<String>) browser.js("return Hangar.groups.chart.series.slice(1).map(s => s.label);");
    }
}
