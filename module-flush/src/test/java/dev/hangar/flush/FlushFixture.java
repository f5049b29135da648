package dev.hangar.flush;

import static org.junit.jupiter.api.Assertions.fail;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.flush.FlushCommitLogService;
import dev.hangar.spi.flush.FlushContext;
import dev.hangar.spi.flush.FlushStatistics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/** A target on a real file plus in-memory checkpoint, health and statistics, and a service built on them. */
final class FlushFixture implements AutoCloseable {
    static final long WAIT_BOUND_MILLIS = 20_000;

    final FileChannelFlushTarget target;
    final InMemoryCheckpoint checkpoint = new InMemoryCheckpoint();
    final RecordingStoreHealth health = new RecordingStoreHealth();
    final FlushStatistics statistics = new FlushStatistics();
    final FlushContext context;
    final FlushCommitLogService service;

    FlushFixture(Path dir, boolean writeBuffered, StoreConfig config,
                 Function<FlushContext, FlushCommitLogService> factory) throws IOException {
        this.target = new FileChannelFlushTarget(dir.resolve("00000000000000000000"), writeBuffered);
        this.context = new FlushContext(target, config, checkpoint, health, statistics);
        this.service = factory.apply(context);
    }

    /** A group commit ({@code SYNC_FLUSH}) on a real file in {@code dir}, waiters timing out after the given ms. */
    static FlushFixture groupCommit(Path dir, int syncFlushTimeoutMillis) throws IOException {
        StoreConfig config = StoreConfig.builder()
                .set(StoreConfigKeys.FLUSH_DISK_TYPE, "SYNC_FLUSH")
                .set(StoreConfigKeys.SYNC_FLUSH_TIMEOUT, syncFlushTimeoutMillis)
                .build();
        return new FlushFixture(dir, false, config, new GroupCommitFlushProvider()::create);
    }

    /** Polls {@code condition} for up to {@link #WAIT_BOUND_MILLIS}; fails with {@code what} if it never holds. */
    static void waitFor(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT_BOUND_MILLIS * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("still waiting after " + WAIT_BOUND_MILLIS + " ms for: " + what);
            }
            pause(5);
        }
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() throws IOException {
        CountDownLatch gate = target.forceGate;
        if (gate != null) {
            gate.countDown(); // a held force must not hang the shutdown below
        }
        service.shutdown();
        target.close();
    }
}
