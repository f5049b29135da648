package dev.hangar.store.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import dev.hangar.store.verify.StoreVerifier;
import dev.hangar.store.verify.VerifyReport;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A store whose last files a power cut left unwritten starts by itself (the reproduction of what an operator saw on a
 * file system that drops everything not forced: the CommitLog file being written and the one created ahead, both of
 * length 0, made the store refuse to start until a person deleted them). Damage in the middle of the log is still
 * refused, naming both files.
 *
 * <p>Each case writes a store, shuts it down, changes its files the way a cut would, leaves the {@code abort} marker
 * a cut leaves, and starts it again.
 */
class UnwrittenTailFilesTest {
    private static final String TOPIC = "Tail";
    private static final int COMMIT_LOG_FILE = 64 * 1024;
    private static final int MESSAGES = 180;

    @TempDir
    Path dir;

    private record Written(long offset, int size, String body) {
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"mmap, ASYNC_FLUSH", "mmap, SYNC_FLUSH", "transient-pool, ASYNC_FLUSH", "transient-pool, SYNC_FLUSH",
            "write-window, ASYNC_FLUSH", "write-window, SYNC_FLUSH"})
    void twoEmptyTrailingCommitLogFilesAreSetAsideAndTheStoreStarts(String variant, String flush) throws Exception {
        String[] settings = {"mappedFile", variant, "flushDiskType", flush};
        List<Written> written = writeAndShutDown(settings);
        List<Path> files = commitLogFiles();
        Path newest = files.get(files.size() - 1);
        long newestStart = Long.parseLong(newest.getFileName().toString());
        truncate(newest, 0);
        Path ahead = dir.resolve("commitlog").resolve(String.format("%020d", newestStart + COMMIT_LOG_FILE));
        Files.createFile(ahead);
        cutPower();

        List<Written> kept = written.stream().filter(w -> w.offset() + w.size() <= newestStart).toList();
        assertTrue(kept.size() > 0 && kept.size() < written.size(), "the newest file held some of the messages");
        assertStartsWithExactly(kept, settings);
    }

    @Test
    void aShortNewestFileHoldingRecordsIsExtendedAndKeepsTheWholeOnes() throws Exception {
        String[] settings = {"flushDiskType", "SYNC_FLUSH"};
        List<Written> written = writeAndShutDown(settings);
        List<Path> files = commitLogFiles();
        Path newest = files.get(files.size() - 1);
        long newestStart = Long.parseLong(newest.getFileName().toString());
        long cutAt = newestStart + 10_000;
        truncate(newest, 10_000);
        cutPower();

        List<Written> kept = written.stream().filter(w -> w.offset() + w.size() <= cutAt).toList();
        assertTrue(kept.stream().anyMatch(w -> w.offset() >= newestStart), "whole records in the short file");
        assertStartsWithExactly(kept, settings);
        assertEquals(COMMIT_LOG_FILE, Files.size(newest), "extended to the configured size");
    }

    @Test
    void emptyAndZeroConsumeQueueAndIndexFilesAtTheTailAreSetAside() throws Exception {
        String[] settings = {"flushDiskType", "SYNC_FLUSH"};
        List<Written> written = writeAndShutDown(settings);
        Path queue = dir.resolve("consumequeue").resolve(TOPIC).resolve("0");
        long cqFileSize = Files.size(numbered(queue).get(0));
        long nextCq = Long.parseLong(numbered(queue).get(numbered(queue).size() - 1).getFileName().toString())
                + cqFileSize;
        Files.write(queue.resolve(String.format("%020d", nextCq)), new byte[4096]);
        Files.createFile(queue.resolve(String.format("%020d", nextCq + cqFileSize)));
        Path index = dir.resolve("index");
        List<Path> indexFiles = numbered(index);
        String lastIndex = indexFiles.get(indexFiles.size() - 1).getFileName().toString();
        Path zeroIndex = index.resolve(String.valueOf(Long.parseLong(lastIndex) + 1000));
        Files.write(zeroIndex, new byte[8192]);
        cutPower();

        assertStartsWithExactly(written, settings);
        try (DefaultMessageStore store = TestStores.started(dir, settings)) {
            Written last = written.get(written.size() - 1);
            assertEquals(1, store.queryMessage(TOPIC, "k-" + (written.size() - 1), 8, 0, Long.MAX_VALUE)
                    .messages().size(), "the newest key is found after the zero index file was set aside");
            assertTrue(last.offset() >= 0);
        }
    }

    @Test
    void anEmptyCommitLogFileInTheMiddleIsRefusedNamingBothFiles() throws Exception {
        String[] settings = {"flushDiskType", "SYNC_FLUSH"};
        writeAndShutDown(settings);
        List<Path> files = commitLogFiles();
        assertTrue(files.size() >= 3, "at least three files: " + files);
        Path middle = files.get(1);
        truncate(middle, 0);
        cutPower();

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> TestStores.started(dir, settings).close());
        String message = refused.getMessage();
        assertTrue(message.contains(middle.toString()) && message.contains(files.get(2).toString()),
                "names the empty file and the later one holding data: " + message);
        assertEquals(0, Files.size(middle), "nothing changed");
        VerifyReport report = StoreVerifier.verify(dir, TestStores.config(dir, settings));
        assertFalse(report.healthy(), "verify reports the damage too: " + report);
        assertTrue(report.toString().contains(files.get(2).getFileName().toString()), report.toString());
    }

    @Test
    void verifySaysOfflineWhatTheNextStartDoes() throws Exception {
        String[] settings = {"flushDiskType", "SYNC_FLUSH"};
        writeAndShutDown(settings);
        List<Path> files = commitLogFiles();
        Path newest = files.get(files.size() - 1);
        truncate(newest, 0);
        Path ahead = dir.resolve("commitlog").resolve(String.format("%020d",
                Long.parseLong(newest.getFileName().toString()) + COMMIT_LOG_FILE));
        Files.createFile(ahead);
        cutPower();

        VerifyReport report = StoreVerifier.verify(dir, TestStores.config(dir, settings));
        // the files are warnings, not errors: the next start handles them (the queue's units past the log's end are
        // verify's error of any unclean stop, which recovery truncates)
        assertTrue(report.problems(VerifyReport.Severity.ERROR).stream()
                .noneMatch(p -> p.file().startsWith("commitlog")), report.toString());
        List<VerifyReport.Problem> warnings = report.problems(VerifyReport.Severity.WARNING);
        assertTrue(warnings.stream().anyMatch(p -> p.file().equals(dir.relativize(newest).toString())
                && p.message().contains("next start of a writer deletes it")), report.toString());
        assertTrue(warnings.stream().anyMatch(p -> p.file().equals(dir.relativize(ahead).toString())),
                report.toString());
        assertTrue(Files.exists(newest) && Files.exists(ahead), "verify changes nothing");
    }

    private List<Written> writeAndShutDown(String[] settings) {
        List<Written> written = new ArrayList<>();
        try (DefaultMessageStore store = TestStores.started(dir, settings)) {
            for (int i = 0; i < MESSAGES; i++) {
                String body = "message " + i + " " + "x".repeat(900);
                PutMessageResult r = store.putMessage(TestStores.message(TOPIC, 0, body).keys("k-" + i));
                assertTrue(r.isOk(), "put " + i + ": " + r);
                written.add(new Written(r.appendResult().wroteOffset(), r.appendResult().wroteBytes(), body));
            }
            TestStores.await("everything dispatched", () -> store.dispatchBehindBytes() == 0);
        }
        return written;
    }

    /** Starts the store, reads the queue, checks exactly {@code expected} is there, and that a new put follows. */
    private void assertStartsWithExactly(List<Written> expected, String[] settings) {
        try (DefaultMessageStore store = TestStores.started(dir, settings)) {
            assertTrue(store.recoveryReport().abnormal(), "recovered as after a crash");
            List<String> bodies = new ArrayList<>();
            long offset = store.getMinOffsetInQueue(TOPIC, 0);
            long max = store.getMaxOffsetInQueue(TOPIC, 0);
            while (offset < max) {
                GetMessageResult r = store.getMessage("g", TOPIC, 0, offset, 32, null);
                assertFalse(r.messages().isEmpty(), "queue offset " + offset + " of " + max + ": " + r.status());
                for (StoredMessage m : r.messages()) {
                    bodies.add(new String(m.body(), java.nio.charset.StandardCharsets.UTF_8));
                    offset++;
                }
            }
            assertEquals(expected.stream().map(Written::body).toList(), bodies, "exactly the whole records are read");
            PutMessageResult next = store.putMessage(TestStores.message(TOPIC, 0, "after the cut"));
            assertTrue(next.isOk(), next.toString());
            assertEquals(expected.size(), next.appendResult().logicsOffset(), "the queue goes on without a gap");
        }
        VerifyReport report = StoreVerifier.verify(dir, TestStores.config(dir, settings));
        assertTrue(report.healthy(), report.toString());
    }

    private List<Path> commitLogFiles() throws IOException {
        return numbered(dir.resolve("commitlog"));
    }

    private static List<Path> numbered(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).sorted().toList();
        }
    }

    private static void truncate(Path file, long length) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(length);
        }
    }

    /** What a power cut leaves beside the files: the abort marker of a store that never shut down. */
    private void cutPower() throws IOException {
        Files.createFile(dir.resolve("abort"));
    }
}
