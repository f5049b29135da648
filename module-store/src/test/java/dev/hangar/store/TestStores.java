package dev.hangar.store;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.Message;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/** Builds stores and messages for tests: small files, short intervals, a temp directory. */
public final class TestStores {
    /** Sets {@code dispatchThreads} of every test store ({@code -Dhangar.test.dispatchThreads=per-dispatcher}). */
    public static final String DISPATCH_THREADS_PROPERTY = "hangar.test.dispatchThreads";

    private TestStores() {
    }

    /** Config for a store in {@code dir} with small files; {@code extra} overrides ("key", "value", ...). */
    public static StoreConfig config(Path dir, String... extra) {
        StoreConfig.Builder b = StoreConfig.builder()
                .set("storePathRootDir", dir.toString(), "test")
                .set("mappedFileSizeCommitLog", Integer.toString(64 * 1024), "test")
                .set("mappedFileSizeConsumeQueue", Integer.toString(20 * 1000), "test")
                .set("maxHashSlotNum", "1000", "test")
                .set("maxIndexNum", "4000", "test")
                .set("flushIntervalCommitLog", "10", "test")
                .set("flushIntervalConsumeQueue", "10", "test")
                .set("commitIntervalCommitLog", "10", "test")
                .set("transientStorePoolSize", "2", "test");
        String dispatchThreads = System.getProperty(DISPATCH_THREADS_PROPERTY);
        if (dispatchThreads != null) {
            // the surefire execution "dispatch-thread-per-dispatcher" runs the dispatch-facing tests again this way
            b.set("dispatchThreads", dispatchThreads, "test");
        }
        for (int i = 0; i + 1 < extra.length; i += 2) {
            b.set(extra[i], extra[i + 1], "test");
        }
        return b.build();
    }

    public static DefaultMessageStore started(Path dir, String... extra) {
        DefaultMessageStore store = new DefaultMessageStore(config(dir, extra));
        store.start();
        return store;
    }

    public static Message message(String topic, int queueId, String body) {
        return new Message(topic, body.getBytes(StandardCharsets.UTF_8)).queueId(queueId);
    }

    public static Message message(String topic, int queueId, String body, Map<String, String> props) {
        Message m = message(topic, queueId, body);
        props.forEach(m::property);
        return m;
    }

    /** Deletes {@code root} and everything below it; nothing when it does not exist. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Waits up to 20 s for {@code condition}; fails the test with {@code what} otherwise. */
    public static void await(String what, BooleanSupplier condition) {
        await(what, condition, 20_000);
    }

    /** Waits up to {@code timeoutMillis} for {@code condition}; fails the test with {@code what} otherwise. */
    public static void await(String what, BooleanSupplier condition, long timeoutMillis) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what);
            }
        }
    }
}
