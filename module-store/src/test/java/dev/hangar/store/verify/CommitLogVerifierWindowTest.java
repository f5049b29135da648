package dev.hangar.store.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import dev.hangar.store.format.CommitLogRecordFormat;
import dev.hangar.store.verify.VerifyReport.Problem;
import dev.hangar.store.verify.VerifyReport.Severity;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CommitLog file larger than the verifier's 1 MiB read window: records cut by the window's end must be read on in
 * the next window, neither skipped nor reported as damage, and damage past the first window must still be found.
 */
class CommitLogVerifierWindowTest {
    private static final int FILE_SIZE = 4 * 1024 * 1024;
    /** About 2.7 MiB of records: the walk crosses two window ends, each inside a record (bodies are not aligned). */
    private static final int MESSAGES = 900;

    @TempDir
    Path dir;

    private StoreConfig config;
    private final List<PutMessageResult> puts = new ArrayList<>();

    @BeforeEach
    void writeAStoreLargerThanOneWindow() {
        config = TestStores.config(dir, "dispatchers", "consume-queue", "mappedFileSizeCommitLog",
                String.valueOf(FILE_SIZE));
        try (DefaultMessageStore store = new DefaultMessageStore(config)) {
            store.start();
            for (int i = 0; i < MESSAGES; i++) {
                PutMessageResult r = store.putMessage(TestStores.message("Window", i % 2, "w".repeat(3001 + i % 7)));
                assertTrue(r.isOk(), r.toString());
                puts.add(r);
            }
            TestStores.await("dispatched", () -> store.dispatchBehindBytes() == 0);
        }
    }

    @Test
    void recordsAcrossWindowEndsAreAllReadAndCounted() {
        VerifyReport r = StoreVerifier.verify(dir, config);

        assertTrue(r.healthy(), r.toString());
        assertTrue(r.problems(Severity.WARNING).isEmpty(), r.toString());
        assertEquals(MESSAGES, r.records());
        assertEquals(puts.stream().mapToLong(p -> p.appendResult().wroteBytes()).sum(), r.bytes());
        assertEquals(1, r.count(CommitLogVerifier.COMMIT_LOG_FILES));
    }

    @Test
    void aDamagedRecordPastTheFirstWindowIsFoundAtItsOffset() throws Exception {
        PutMessageResult victim = puts.get(MESSAGES - 100);
        long offset = victim.appendResult().wroteOffset();
        assertTrue(offset > 2 * 1024 * 1024, "the victim lies in the third window: " + offset);
        try (FileChannel ch = FileChannel.open(dir.resolve("commitlog").resolve(String.format("%020d", 0)),
                StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {'X'}), offset + CommitLogRecordFormat.bodyOffset(0) + 10);
        }

        VerifyReport r = StoreVerifier.verify(dir, config);

        List<Problem> errors = r.problems(Severity.ERROR);
        assertTrue(errors.stream().anyMatch(p -> p.message().contains("invalid record at commit-log offset " + offset)
                && p.message().contains("CRC")), r.toString());
        assertEquals(MESSAGES - 100, r.records(), "every record before the damaged one was read");
    }
}
