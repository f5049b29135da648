package dev.hangar.launcher.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * One headless Chromium driven by Selenium through Debian's chromedriver, for the console's browser tests. The
 * browser and driver are taken from {@code /usr/bin} (Debian's {@code chromium} and {@code chromium-driver}
 * packages, which .ci/run installs) or from {@code -Dhangar.chromium=} / {@code -Dhangar.chromedriver=}; when
 * either is missing or the browser cannot start, {@link #start()} throws with what to install: these tests never
 * skip. Both paths are given to Selenium, so it never looks for (or downloads) a browser itself.
 */
final class HeadlessChromium implements AutoCloseable {
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    final ChromeDriver driver;

    private HeadlessChromium(ChromeDriver driver) {
        this.driver = driver;
    }

    static HeadlessChromium start() {
        Path browser = Path.of(System.getProperty("hangar.chromium", "/usr/bin/chromium"));
        Path chromedriver = Path.of(System.getProperty("hangar.chromedriver", "/usr/bin/chromedriver"));
        for (Path p : List.of(browser, chromedriver)) {
            if (!Files.isExecutable(p)) {
                throw new IllegalStateException("the console's browser tests need Chromium and its driver, and " + p
                        + " is missing: apt-get install -y chromium chromium-driver (.ci/run does it), or give "
                        + "-Dhangar.chromium=PATH -Dhangar.chromedriver=PATH");
            }
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        // root in a container: no sandbox; a fixed window so screenshots and layouts are the same on every run
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1000", "--hide-scrollbars", "--no-first-run", "--disable-extensions");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort().build();
        try {
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().scriptTimeout(DEADLINE);
            return new HeadlessChromium(driver);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Chromium could not start (" + browser + " with " + chromedriver + "): "
                    + e.getMessage(), e);
        }
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /**
     * Waits until {@code condition} answers a value other than null or false, for up to 30 s; fails with
     * {@code what} and the page's text otherwise.
     */
    <T> T until(String what, Function<WebDriver, T> condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() - deadline < 0) {
            try {
                T value = condition.apply(driver);
                if (value != null && !Boolean.FALSE.equals(value)) {
                    return value;
                }
            } catch (RuntimeException e) {
                // an element not there yet, or replaced while read: look again
                last = e;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("waited " + DEADLINE.toSeconds() + " s for " + what + (last == null ? "" : " (last: "
                + last.getMessage().lines().findFirst().orElse("") + ")") + "; the page says:\n"
                + js("return document.body.innerText;"));
    }

    /** Writes a PNG of the window to target/console-screenshots/{name}.png for review. */
    Path screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path file = SCREENSHOTS.resolve(name + ".png");
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        return file;
    }

    @Override
    public void close() {
        driver.quit();
    }
}
