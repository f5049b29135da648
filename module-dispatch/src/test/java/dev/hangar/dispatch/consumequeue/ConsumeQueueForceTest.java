package dev.hangar.dispatch.consumequeue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.dispatch.support.DispatchFixture;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.CommitLogDispatcher;
import dev.hangar.spi.flush.ForceEvents;
import dev.hangar.spi.format.ConsumeQueueFormat;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the checkpoint may claim after a full ConsumeQueue flush: the flush service reads the logics timestamp,
 * flushes with {@code leastPages == 0}, then writes that timestamp. Recovery after a power cut re-dispatches only
 * what lies after it, so every unit of every queue stamped at or before it must have been forced - here, announced
 * through {@link ForceEvents}, which the power-cut harness turns into what the disk keeps. Many queues, few mapped
 * at once: most files are parked when the flush runs.
 */
class ConsumeQueueForceTest {
    private static final int QUEUES = 240;
    private static final int UNITS_PER_QUEUE = 3;
    private static final long BASE_TIME = 1_700_000_000_000L;

    @TempDir
    Path root;
    private DispatchFixture fixture;
    private CommitLogDispatcher dispatcher;
    private final Map<Path, Long> forcedEnds = new ConcurrentHashMap<>();
    private final ForceEvents.Listener recorder = new ForceEvents.Listener() {
        @Override
        public void rangeForced(Path file, long from, long to) {
            forcedEnds.merge(file.toAbsolutePath().normalize(), to, Math::max);
        }

        @Override
        public void fileForced(Path file) {
            forcedEnds.merge(file.toAbsolutePath().normalize(), Long.MAX_VALUE, Math::max);
        }
    };

    @BeforeEach
    void open() {
        fixture = new DispatchFixture(root).with(StoreConfigKeys.MAX_MAPPED_CONSUME_QUEUE_FILES, 16);
        dispatcher = fixture.open("consume-queue");
        ForceEvents.install(recorder);
    }

    @AfterEach
    void close() {
        ForceEvents.uninstall(recorder);
        dispatcher.close();
        fixture.close();
    }

    @Test
    void everyUnitTheCheckpointMayClaimIsForcedByAFullFlush() {
        long commitLogOffset = 0;
        long stamp = BASE_TIME;
        for (int round = 0; round < UNITS_PER_QUEUE; round++) {
            for (int q = 0; q < QUEUES; q++) {
                dispatcher.dispatch(fixture.message("T" + q, q % 4, round, commitLogOffset, 100, stamp++));
                commitLogOffset += 100;
            }
        }
        long claimed = fixture.checkpoint.logicsMsgTimestamp();
        assertEquals(stamp - 1, claimed, "the dispatcher stamps the checkpoint with its last written unit");

        dispatcher.flush(0);

        for (int q = 0; q < QUEUES; q++) {
            Path file = root.resolve("consumequeue").resolve("T" + q).resolve(Integer.toString(q % 4))
                    .resolve("00000000000000000000").toAbsolutePath().normalize();
            long end = forcedEnds.getOrDefault(file, 0L);
            assertTrue(end >= (long) UNITS_PER_QUEUE * ConsumeQueueFormat.UNIT_SIZE,
                    "units stamped before the checkpoint's " + claimed + " are not forced in " + file
                            + " (forced up to " + end + ")");
        }

        // a second full flush with nothing new written forces nothing again
        forcedEnds.clear();
        dispatcher.flush(0);
        assertTrue(forcedEnds.isEmpty(), "forced again without new writes: " + forcedEnds.keySet());
    }
}
