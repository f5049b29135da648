package dev.hangar.store.clean;

import dev.hangar.store.TestInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.MappedFileQueue;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import dev.hangar.store.service.RunningFlags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A store of small CommitLog files holding one message each (RocketMQ's clean-files test uses 55 files), with
 * helpers to age files and to build retention services around it with an injected clock and disk.
 */
final class RetentionFixture {
    static final int FILE_SIZE = 4096;
    static final int FILES = 55;
    static final String TOPIC = "Retention";
    /** A body that leaves no room for a second record in a 4 KiB file: one message per file. */
    static final String BODY = "x".repeat(3000);
    static final long TWO_HOURS = 2 * 3600 * 1000L;

    private RetentionFixture() {
    }

    /**
     * A started store whose CommitLog has {@link #FILES} files, message i in file i, all flushed. Its own retention
     * never runs a scheduled pass during a test (interval of an hour, first pass after a minute).
     */
    static DefaultMessageStore storeWithOneMessagePerFile(Path dir, String... extra) {
        List<String> settings = new ArrayList<>(List.of("mappedFileSizeCommitLog", Integer.toString(FILE_SIZE),
                "fileReservedTime", "1", "deleteWhen", "04", "cleanResourceInterval", "3600000",
                "deleteCommitLogFilesInterval", "0", "dispatchers", ""));
        settings.addAll(Arrays.asList(extra));
        DefaultMessageStore store = TestStores.started(dir, settings.toArray(String[]::new));
        TestInternals.retention(store).diskMonitor().useProbe(DiskUsageProbe.fixedRatio(0.10));
        for (int i = 0; i < FILES; i++) {
            PutMessageResult r = store.putMessage(TestStores.message(TOPIC, 0, BODY).keys("key-" + i));
            assertTrue(r.isOk(), r.toString());
            assertEquals((long) i * FILE_SIZE, r.appendResult().wroteOffset(), "one message per file");
        }
        MappedFileQueue q = queue(store);
        assertEquals(FILES, q.mappedFiles().size());
        TestStores.await("every full file flushed", () -> q.getFlushedWhere() >= (long) (FILES - 1) * FILE_SIZE);
        return store;
    }

    static MappedFileQueue queue(DefaultMessageStore store) {
        return TestInternals.commitLog(store).queue();
    }

    /** Sets the modification time of the first {@code count} files {@code millisAgo} into the past. */
    static void age(MappedFileQueue q, int count, long millisAgo) throws IOException {
        List<MappedFile> files = q.mappedFiles();
        FileTime then = FileTime.fromMillis(System.currentTimeMillis() - millisAgo);
        for (int i = 0; i < count; i++) {
            Files.setLastModifiedTime(files.get(i).path(), then);
        }
    }

    /** A clock stopped at half past {@code hour}, UTC. */
    static Clock clockAtHour(int hour) {
        return Clock.fixed(LocalDate.of(2026, 1, 15).atTime(hour, 30).toInstant(ZoneOffset.UTC), ZoneOffset.UTC);
    }

    /** A CommitLog cleaner for {@code store} with its own flags, a disk used to {@code ratio} and a fixed clock. */
    static CleanCommitLogService cleaner(DefaultMessageStore store, double ratio, Clock clock, RunningFlags flags) {
        RetentionPolicy policy = RetentionPolicy.from(store.config());
        DiskSpaceMonitor disk = new DiskSpaceMonitor(TestInternals.root(store), DiskUsageProbe.fixedRatio(ratio), flags, policy);
        return new CleanCommitLogService(queue(store), disk, policy, clock);
    }
}
