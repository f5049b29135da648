package dev.hangar.store.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the checkpoint file claims: never ConsumeQueue units the ConsumeQueue flush has not forced. */
class StoreCheckpointTest {
    @TempDir
    Path dir;

    /**
     * The index flushes the checkpoint when a file rolls, while the dispatcher has already moved the in-memory logics
     * timestamp past units that may be in memory only: that flush must keep the logics timestamp the last ConsumeQueue
     * flush wrote, or recovery after a power cut starts after units that were lost.
     */
    @Test
    void aFlushForTheIndexKeepsTheLogicsTimestampTheConsumeQueueFlushWrote() {
        Path file = dir.resolve("checkpoint");
        try (StoreCheckpoint checkpoint = new StoreCheckpoint(file)) {
            checkpoint.flushWith(1_000);
            checkpoint.logicsMsgTimestamp(5_000);
            checkpoint.indexMsgTimestamp(4_000);
            checkpoint.flush();
            try (StoreCheckpoint reader = new StoreCheckpoint(file, true)) {
                assertEquals(1_000, reader.logicsMsgTimestamp(), "units dispatched after the last flushWith");
                assertEquals(4_000, reader.indexMsgTimestamp());
            }
            checkpoint.flushWith(5_000);
        }
        try (StoreCheckpoint reopened = new StoreCheckpoint(file, true)) {
            assertEquals(5_000, reopened.logicsMsgTimestamp());
        }
    }
}
