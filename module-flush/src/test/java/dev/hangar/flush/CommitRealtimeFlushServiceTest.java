package dev.hangar.flush;

import static dev.hangar.flush.FileChannelFlushTarget.PAGE;
import static dev.hangar.flush.FlushFixture.pause;
import static dev.hangar.flush.FlushFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.store.PutMessageStatus;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitRealtimeFlushServiceTest {
    private static final int HOUR = 3_600_000;

    @TempDir
    Path dir;

    private FlushFixture commitRealtime(int commitInterval, int commitLeastPages, int commitThorough)
            throws Exception {
        // The flusher's own period is an hour: whatever it flushes in these tests, the committer woke it for.
        StoreConfig config = StoreConfig.builder()
                .set(StoreConfigKeys.COMMIT_INTERVAL_COMMIT_LOG, commitInterval)
                .set(StoreConfigKeys.COMMIT_COMMIT_LOG_LEAST_PAGES, commitLeastPages)
                .set(StoreConfigKeys.COMMIT_COMMIT_LOG_THOROUGH_INTERVAL, commitThorough)
                .set(StoreConfigKeys.FLUSH_INTERVAL_COMMIT_LOG, HOUR)
                .set(StoreConfigKeys.FLUSH_COMMIT_LOG_LEAST_PAGES, 0)
                .set(StoreConfigKeys.FLUSH_COMMIT_LOG_THOROUGH_INTERVAL, HOUR)
                .set(StoreConfigKeys.FLUSH_COMMIT_LOG_TIMED, true)
                .build();
        return new FlushFixture(dir, true, config, new CommitRealtimeFlushProvider()::create);
    }

    @Test
    void commitsTheWriteBufferThenWakesTheFlusher() throws Exception {
        try (FlushFixture f = commitRealtime(10, 0, HOUR)) {
            f.service.start();
            long end = f.target.append(3 * PAGE, 5_000);
            assertEquals(0, f.target.committedWhere(), "the bytes sit in the write buffer");

            assertEquals(PutMessageStatus.PUT_OK, f.service.handle(end, false).join());

            waitFor("the commit", () -> f.target.committedWhere() == end);
            waitFor("the flush after the commit", () -> f.target.flushedWhere() == end);
            assertTrue(f.statistics.commits() >= 1);
            assertTrue(f.statistics.flushes() >= 1);
            assertEquals(end, f.target.fileSize(), "the committed bytes are in the file");
            waitFor("the checkpoint stamp", () -> f.checkpoint.physicMsgTimestamp() == 5_000);
        }
    }

    @Test
    void commitsOnlyWholePagesUntilTheThoroughInterval() throws Exception {
        try (FlushFixture f = commitRealtime(10, 4, HOUR)) {
            f.service.start();
            f.target.append(100, 1);
            pause(300);
            assertEquals(0, f.target.committedWhere(), "100 bytes are less than 4 pages");

            long end = f.target.append(5 * PAGE, 2);
            waitFor("5 pages to be committed and flushed", () -> f.target.flushedWhere() == end);
        }
    }

    @Test
    void aCommitAskedThroughAnOffsetIgnoresTheLeastPagesWithoutWaitingForTheThoroughInterval() throws Exception {
        // an hour-long interval and thorough commit: only the ask can commit 100 bytes here (the old committer,
        // which knew no ask, committed nothing until the thorough interval)
        try (FlushFixture f = commitRealtime(HOUR, 4, HOUR)) {
            f.service.start();
            long first = f.target.append(100, 1);
            f.service.handle(first, false);
            f.service.commitThrough(first);
            waitFor("the asked-for 100 bytes to be committed", () -> f.target.committedWhere() == first);

            long second = f.target.append(200, 2);
            f.service.commitThrough(second);
            waitFor("the next ask to be committed", () -> f.target.committedWhere() == second);
            assertEquals(2, f.statistics.commits(), "one commit per ask");
        }
    }

    @Test
    void shutdownCommitsEverythingThenFlushesEverything() throws Exception {
        try (FlushFixture f = commitRealtime(HOUR, 1_000, HOUR)) {
            f.service.start();
            long end = f.target.append(PAGE + 1, 1);

            f.service.shutdown();

            assertEquals(end, f.target.committedWhere());
            assertEquals(end, f.target.flushedWhere());
            assertEquals(end, f.target.fileSize());
        }
    }

    @Test
    void failingCommitMarksTheStoreNotWritableOnceAndIsRetried() throws Exception {
        try (FlushFixture f = commitRealtime(5, 0, HOUR)) {
            f.target.failCommits = true;
            f.service.start();
            long end = f.target.append(PAGE, 1);

            waitFor("several failed commits", () -> f.statistics.flushFailures() >= 5);
            assertEquals(0, f.target.committedWhere());
            assertEquals(0, f.target.flushedWhere());
            assertEquals(1, f.health.marks.get());
            assertTrue(f.health.reason.contains("commit failed"), f.health.reason);

            f.target.failCommits = false;
            waitFor("commit and flush once the disk heals", () -> f.target.flushedWhere() == end);
        }
    }
}
