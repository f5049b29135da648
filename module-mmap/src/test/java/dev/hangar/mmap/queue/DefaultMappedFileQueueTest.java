package dev.hangar.mmap.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.file.DefaultMappedFile;
import dev.hangar.mmap.file.MappedFileFactory;
import dev.hangar.mmap.file.TestAppends;
import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.SelectedRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefaultMappedFileQueueTest {
    private static final byte[] SIXTEEN_BYTES = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    static final MappedFileFactory PLAIN = (dir, offset, size) -> new DefaultMappedFile(dir, offset, size,
            NativeMemory.system());

    @TempDir
    Path dir;
    private DefaultMappedFileQueue queue;

    static DefaultMappedFileQueue plainQueue(Path dir, int fileSize) {
        return new DefaultMappedFileQueue(dir, fileSize, PLAIN, PLAIN, null);
    }

    @AfterEach
    void destroyQueue() {
        if (queue != null) {
            queue.destroy();
        }
    }

    /** Appends {@code count} 16-byte records, rolling to a new file when the last is full. */
    private void appendSixteenByteRecords(int count, long startOffset) {
        for (int i = 0; i < count; i++) {
            MappedFile file = queue.getLastMappedFile(startOffset, true);
            assertNotNull(file);
            assertTrue(file.appendBytes(SIXTEEN_BYTES, 0, SIXTEEN_BYTES.length));
        }
    }

    @Test
    void writing1024RecordsOf16BytesRollsThrough16FilesOf1KiB() {
        queue = plainQueue(dir, 1024);
        assertNull(queue.getLastMappedFile(0, false), "no file until one is needed");
        appendSixteenByteRecords(1024, 0);

        assertEquals(16, queue.mappedFiles().size());
        for (int i = 0; i < 16; i++) {
            MappedFile file = queue.mappedFiles().get(i);
            assertEquals(i * 1024L, file.fileFromOffset());
            assertEquals(String.format("%020d", i * 1024L), file.fileName());
            assertTrue(Files.exists(dir.resolve(file.fileName())));
        }
        assertEquals(0, queue.getMinOffset());
        assertEquals(16 * 1024, queue.getMaxOffset());
        assertEquals(16 * 1024, queue.getMaxWrotePosition());
        assertSame(queue.getLastMappedFile(), queue.getLastMappedFile(0, false));
    }

    @Test
    void findsTheFileHoldingAnOffset() {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(256, 0);
        assertEquals(4, queue.mappedFiles().size());

        assertEquals(0, queue.findMappedFileByOffset(0, false).fileFromOffset());
        assertEquals(0, queue.findMappedFileByOffset(100, false).fileFromOffset());
        assertEquals(1024, queue.findMappedFileByOffset(1024, false).fileFromOffset());
        assertEquals(1024, queue.findMappedFileByOffset(2047, false).fileFromOffset());
        assertEquals(3072, queue.findMappedFileByOffset(4095, false).fileFromOffset());
        assertNull(queue.findMappedFileByOffset(4096, false), "past everything written");
        assertEquals(0, queue.findMappedFileByOffset(4096, true).fileFromOffset());
    }

    @Test
    void aQueueStartingAtANonZeroOffsetFindsNothingBelowIt() {
        queue = plainQueue(dir, 1024);
        MappedFile first = queue.getLastMappedFile(1024 + 300, true);
        assertEquals(1024, first.fileFromOffset(), "rounded down to a file boundary");
        assertEquals(1024, queue.getMinOffset());

        assertNull(queue.findMappedFileByOffset(0, false));
        assertSame(first, queue.findMappedFileByOffset(123, true));
        assertSame(first, queue.findMappedFileByOffset(1024, false));
        assertSame(first, queue.findMappedFileByOffset(2047, false));
    }

    @Test
    void findsFilesByIterationWhenTheOffsetsHaveAGap() throws IOException {
        for (long offset : new long[] {0, 2048, 3072}) {
            MappedFile file = PLAIN.create(dir, offset, 1024);
            file.shutdown(0);
        }
        queue = plainQueue(dir, 1024);
        assertTrue(queue.load());
        assertEquals(2048, queue.findMappedFileByOffset(2048 + 5, false).fileFromOffset());
        assertEquals(3072, queue.findMappedFileByOffset(3072 + 1023, false).fileFromOffset());
        assertNull(queue.findMappedFileByOffset(1024 + 5, false), "no file holds the gap");
    }

    @Test
    void eachFullFlushCompletesOneFileAndTheNextCallContinues() throws IOException {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(1024, 0);
        for (int i = 1; i <= 16; i++) {
            assertFalse(queue.flush(0), "file " + i + " was flushed");
            assertEquals(i * 1024L, queue.getFlushedWhere());
        }
        assertTrue(queue.flush(0), "nothing left to flush");
        assertEquals(16 * 1024L, queue.getFlushedWhere());
        assertEquals(0, queue.howMuchFallBehind());
    }

    @Test
    void aFlushThatSpansTwoFilesStopsAtTheEndOfTheFirst() throws IOException {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(32, 0);
        assertFalse(queue.flush(0));
        assertEquals(512, queue.getFlushedWhere());
        appendSixteenByteRecords(40, 0);
        assertEquals(1024 + 128, queue.getMaxWrotePosition());
        assertFalse(queue.flush(0));
        assertEquals(1024, queue.getFlushedWhere(), "the first file is completed");
        assertFalse(queue.flush(0));
        assertEquals(1024 + 128, queue.getFlushedWhere());
    }

    @Test
    void theStoreTimestampIsTakenFromTheLastFullFlush() throws IOException {
        queue = plainQueue(dir, 64 * 1024);
        queue.getLastMappedFile(0, true).append(TestAppends.record("first", 1000));
        assertFalse(queue.flush(0));
        assertEquals(1000, queue.getStoreTimestamp());
        queue.getLastMappedFile(0, true).append(TestAppends.record(new byte[5 * 4096], 2000));
        assertFalse(queue.flush(4));
        assertEquals(1000, queue.getStoreTimestamp(), "a partial-page flush may leave the newest record behind");
        queue.getLastMappedFile(0, true).append(TestAppends.record("third", 3000));
        assertFalse(queue.flush(0));
        assertEquals(3000, queue.getStoreTimestamp());
    }

    @Test
    void committingAPlainQueueFollowsTheWrotePosition() throws IOException {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(10, 0);
        assertFalse(queue.commit(0));
        assertEquals(160, queue.getCommittedWhere());
        assertTrue(queue.commit(0));
    }

    @Test
    void mappedMemorySizeCountsEveryMappedFile() {
        queue = plainQueue(dir, 1024);
        assertEquals(0, queue.getMappedMemorySize());
        appendSixteenByteRecords(1024, 0);
        assertEquals(16 * 1024, queue.getMappedMemorySize());
    }

    @Test
    void deletingByOffsetWaitsForAHeldFile() {
        int unitSize = 20;
        queue = plainQueue(dir, 20 * 256);
        ByteBuffer unit = ByteBuffer.allocate(unitSize);
        for (int i = 0; i < 2048; i++) {
            unit.clear();
            unit.putLong(i).putInt(1).putLong(0);
            assertTrue(queue.getLastMappedFile(0, true).appendBytes(unit.array(), 0, unitSize));
        }
        assertEquals(8, queue.mappedFiles().size());

        MappedFile first = queue.getFirstMappedFile();
        assertTrue(first.hold());
        assertEquals(0, queue.deleteExpiredFileByOffset(20480, unitSize), "a held file is not deleted");
        assertEquals(8, queue.mappedFiles().size());
        first.release();
        assertEquals(7, queue.deleteExpiredFileByOffset(20480, unitSize), "every file but the newest");
        assertEquals(1, queue.mappedFiles().size());
        assertEquals(7 * 20 * 256, queue.getMinOffset());
    }

    @Test
    void deletingByOffsetStopsAtTheFirstFileStillNeeded() {
        queue = plainQueue(dir, 20 * 4);
        ByteBuffer unit = ByteBuffer.allocate(20);
        for (int i = 0; i < 20; i++) {
            unit.clear();
            unit.putLong(i * 100L);
            queue.getLastMappedFile(0, true).appendBytes(unit.array(), 0, 20);
        }
        // files hold units pointing at 0..300, 400..700, 800..1100, ...
        assertEquals(2, queue.deleteExpiredFileByOffset(750, 20));
        assertEquals(2 * 80, queue.getMinOffset());
        assertThrows(IllegalArgumentException.class, () -> queue.deleteExpiredFileByOffset(750, 4));
    }

    @Test
    void deletingByTimeStopsAtTheFirstFileNotExpired() throws IOException {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(30 * 64, 0);
        assertEquals(30, queue.mappedFiles().size());
        FileTime longAgo = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
        for (int i = 0; i < 30; i++) {
            if (i < 5 || i > 20) {
                Files.setLastModifiedTime(queue.mappedFiles().get(i).path(), longAgo);
            }
        }
        assertEquals(5, queue.deleteExpiredFileByTime(60_000, 0, 0, false, 100));
        assertEquals(25, queue.mappedFiles().size());
        assertEquals(5 * 1024, queue.getMinOffset());
        assertFalse(Files.exists(dir.resolve(String.format("%020d", 0))));
        assertTrue(Files.exists(dir.resolve(String.format("%020d", 5 * 1024))));
    }

    @Test
    void deletingByTimeTakesAtMostABatchAndNeverTheNewestFile() {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(5 * 64, 0);
        assertEquals(3, queue.deleteExpiredFileByTime(60_000, 1, 0, true, 3));
        assertEquals(2, queue.mappedFiles().size());
        assertEquals(1, queue.deleteExpiredFileByTime(0, 0, 0, true, 10));
        assertEquals(1, queue.mappedFiles().size(), "the newest file always stays");
        assertEquals(4 * 1024, queue.getMinOffset());
    }

    @Test
    void aFileHeldDuringDeletionIsRetriedLater() {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(3 * 64, 0);
        MappedFile first = queue.getFirstMappedFile();
        SelectedRegion reader = first.selectMappedBuffer(0);
        assertEquals(0, queue.deleteExpiredFileByTime(0, 0, 120_000, true, 10));
        assertFalse(first.isAvailable(), "shut down, waiting for its reader");
        assertFalse(queue.retryDeleteFirstFile(120_000));

        reader.close();
        assertTrue(queue.retryDeleteFirstFile(120_000));
        assertEquals(1024, queue.getMinOffset());
        assertFalse(queue.retryDeleteFirstFile(120_000), "the new first file is in use, not hanging");
    }

    @Test
    void truncationTrimsTheFileHoldingTheOffsetAndDeletesLaterFiles() throws IOException {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(4 * 64, 0);
        queue.flush(0);
        queue.flush(0);
        queue.flush(0);
        assertEquals(3072, queue.getFlushedWhere());

        queue.truncateDirtyFiles(1024 + 100);
        assertEquals(2, queue.mappedFiles().size());
        MappedFile tail = queue.getLastMappedFile();
        assertEquals(1024, tail.fileFromOffset());
        assertEquals(100, tail.wrotePosition());
        assertEquals(100, tail.flushedPosition());
        assertEquals(1024 + 100, queue.getMaxOffset());
        assertEquals(1024 + 100, queue.getFlushedWhere());
        assertFalse(Files.exists(dir.resolve(String.format("%020d", 2048))));
        assertFalse(Files.exists(dir.resolve(String.format("%020d", 3072))));
        assertSame(tail, queue.getLastMappedFile(0, true), "the trimmed file takes the next append");
    }

    @Test
    void loadMapsExistingFilesInOrderAsFullyWritten() {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(3 * 64 + 5, 0);
        queue.shutdown(0);

        DefaultMappedFileQueue reopened = plainQueue(dir, 1024);
        assertTrue(reopened.load());
        assertEquals(4, reopened.mappedFiles().size());
        for (MappedFile file : reopened.mappedFiles()) {
            assertEquals(1024, file.wrotePosition());
            assertEquals(1024, file.committedPosition());
            assertEquals(1024, file.flushedPosition());
        }
        assertThrows(IllegalStateException.class, reopened::load, "loading twice would map every file twice");
        try (SelectedRegion region = reopened.findMappedFileByOffset(3072, false).selectMappedBuffer(0, 16)) {
            byte[] read = new byte[16];
            region.buffer().get(read);
            assertEquals("0123456789abcdef", new String(read, StandardCharsets.US_ASCII));
        }
        queue = reopened;
    }

    @Test
    void afterACrashLoadDeletesShortZeroFilesAtTheEndAndExtendsAShortNewestFileHoldingData() throws IOException {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(2 * 64, 0);
        queue.shutdown(0);
        byte[] partial = new byte[600];
        Arrays.fill(partial, 0, 320, (byte) 7);
        Files.write(dir.resolve(String.format("%020d", 2048)), partial);
        Files.write(dir.resolve(String.format("%020d", 3072)), new byte[100]);
        Files.write(dir.resolve(String.format("%020d", 4096)), new byte[0]);

        DefaultMappedFileQueue afterCleanShutdown = plainQueue(dir, 1024);
        assertFalse(afterCleanShutdown.load(), "after a clean shutdown a short file with data is refused");
        assertTrue(afterCleanShutdown.loadProblem().contains("another mapped file size"),
                afterCleanShutdown.loadProblem());
        assertEquals(600, Files.size(dir.resolve(String.format("%020d", 2048))), "and left as it is");

        DefaultMappedFileQueue reopened = plainQueue(dir, 1024);
        assertTrue(reopened.load(true), String.valueOf(reopened.loadProblem()));
        assertEquals(3, reopened.mappedFiles().size(), "two whole files and the extended one");
        assertEquals(1024, Files.size(dir.resolve(String.format("%020d", 2048))));
        assertEquals(7, Files.readAllBytes(dir.resolve(String.format("%020d", 2048)))[319], "its bytes are kept");
        assertFalse(Files.exists(dir.resolve(String.format("%020d", 3072))), "never written: deleted");
        assertFalse(Files.exists(dir.resolve(String.format("%020d", 4096))), "never written: deleted");
        queue = reopened;
    }

    @Test
    void loadRefusesAShortFileBeforeOneHoldingDataNamingBoth() throws IOException {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(3 * 64, 0);
        queue.shutdown(0);
        Path middle = dir.resolve(String.format("%020d", 1024));
        Files.write(middle, new byte[0]);

        DefaultMappedFileQueue reopened = plainQueue(dir, 1024);
        assertFalse(reopened.load());
        assertTrue(reopened.loadProblem().contains(middle.toString())
                && reopened.loadProblem().contains(String.format("%020d", 2048)), reopened.loadProblem());
        assertTrue(reopened.isEmpty(), "nothing stays mapped after a failed load");
        assertEquals(3, Files.list(dir).count(), "no file changed");
        queue = reopened;
    }

    @Test
    void loadRejectsAFileOfTheWrongSize() throws IOException {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(2 * 64, 0);
        queue.shutdown(0);
        // longer than the configured size: written with another size, never a file a crash cut short
        Files.write(dir.resolve(String.format("%020d", 2048)), new byte[1500]);

        DefaultMappedFileQueue reopened = plainQueue(dir, 1024);
        assertFalse(reopened.load());
        assertTrue(reopened.isEmpty(), "nothing stays mapped after a failed load");
        assertTrue(Files.exists(dir.resolve(String.format("%020d", 2048))), "the odd file is left for inspection");
        queue = reopened;
    }

    @Test
    void loadIgnoresForeignFilesAndDropsAnEmptyNewestFile() throws IOException {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(64, 0);
        queue.shutdown(0);
        Files.writeString(dir.resolve("README.txt"), "not a mapped file");
        Files.createFile(dir.resolve(String.format("%020d", 1024)));

        DefaultMappedFileQueue reopened = plainQueue(dir, 1024);
        assertTrue(reopened.load());
        assertEquals(1, reopened.mappedFiles().size());
        assertFalse(Files.exists(dir.resolve(String.format("%020d", 1024))));
        assertTrue(Files.exists(dir.resolve("README.txt")));
        reopened.destroy();
        assertTrue(Files.exists(dir), "a directory with foreign files is kept");
        Files.delete(dir.resolve("README.txt"));
    }

    @Test
    void loadingAMissingDirectoryGivesAnEmptyQueue() {
        queue = plainQueue(dir.resolve("nothing-here"), 1024);
        assertTrue(queue.load());
        assertTrue(queue.isEmpty());
        assertEquals(-1, queue.getMinOffset());
        assertEquals(0, queue.getMaxOffset());
        assertNull(queue.getFirstMappedFile());
        assertNull(queue.findMappedFileByOffset(0, true));
    }

    @Test
    void findsTheFirstFileModifiedAtOrAfterATime() throws IOException {
        queue = plainQueue(dir, 1024);
        appendSixteenByteRecords(3 * 64, 0);
        long now = System.currentTimeMillis();
        for (int i = 0; i < 3; i++) {
            Files.setLastModifiedTime(queue.mappedFiles().get(i).path(), FileTime.fromMillis(now - (3 - i) * 60_000L));
        }
        assertEquals(1024, queue.getMappedFileByTime(now - 150_000).fileFromOffset());
        assertEquals(0, queue.getMappedFileByTime(0).fileFromOffset());
        assertEquals(2048, queue.getMappedFileByTime(now + 60_000).fileFromOffset(), "else the newest");
    }

    @Test
    void destroyDeletesEveryFileAndTheDirectory() {
        Path queueDir = dir.resolve("commitlog");
        queue = plainQueue(queueDir, 1024);
        appendSixteenByteRecords(3 * 64, 0);
        queue.destroy();
        assertTrue(queue.isEmpty());
        assertFalse(Files.exists(queueDir));
        queue = null;
    }

    @Test
    void badArgumentsAreRefused() {
        queue = plainQueue(dir, 1024);
        assertThrows(IllegalArgumentException.class, () -> queue.getLastMappedFile(-1, true));
        assertThrows(IllegalArgumentException.class, () -> queue.truncateDirtyFiles(-1));
        assertThrows(IllegalArgumentException.class, () -> plainQueue(dir, 0));
        assertThrows(IllegalArgumentException.class, () -> queue.deleteExpiredFileByTime(0, 0, 0, true, 0));
    }
}
