package dev.hangar.launcher.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.launcher.command.BenchWorkload.Plan;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A warm-up round's store rolls over to new files within its second, but never holds a message less than the run's. */
class BenchWarmupRoundConfigTest {
    private static final Path DIR = Path.of("/tmp/warm");

    private static Plan plan(int size) {
        return new Plan(1000, 0, size, 1, 1, 4, 1, 0);
    }

    @Test
    void theDefaultGeometryShrinksToSmallFilesInTheRoundsOwnDirectory() {
        StoreConfig round = BenchWarmup.roundConfig(StoreConfig.defaults(), plan(1024), DIR);
        assertEquals(64 << 20, round.commitLogFileSize());
        assertEquals(15_000 * 20, round.consumeQueueFileSize());
        assertEquals(DIR.toString(), round.get(StoreConfigKeys.STORE_PATH_ROOT_DIR));
    }

    @Test
    void filesAlreadySmallerStayAsConfigured() {
        StoreConfig small = StoreConfig.defaults().toBuilder().set("mappedFileSizeCommitLog", "1048576", "test")
                .set("mappedFileSizeConsumeQueue", "2000", "test").build();
        StoreConfig round = BenchWarmup.roundConfig(small, plan(1024), DIR);
        assertEquals(1 << 20, round.commitLogFileSize());
        assertEquals(2000, round.consumeQueueFileSize());
    }

    @Test
    void aLargeMessageGetsAFileOfEightOfThem() {
        StoreConfig round = BenchWarmup.roundConfig(StoreConfig.defaults(), plan(16 << 20), DIR);
        assertEquals(8 * ((16 << 20) + 4096), round.commitLogFileSize());
    }
}
