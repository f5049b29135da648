package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.queue.DefaultMappedFileQueue;
import dev.hangar.spi.mapped.MappedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pretoucher's read-ahead spares the writer the kernel's read-around: a store into a page not in the page
 * cache makes the storing thread zero-fill the pages around it first (up to {@code read_ahead_kb}, 8 MiB and
 * 20-50 ms on this project's VM, docs/PERFORMANCE.md). Counted with {@code mincore}: the pages one store brings
 * into the cache, past the touched distance and at the head of the next file, with the read-ahead (none) and
 * without it (the negative control in the same test: the read-around's pages).
 */
class PretouchReadAheadTest {
    private static final int PAGE = DirtyPages.OS_PAGE_SIZE;
    private static final int MIB = 1 << 20;
    private static final int TOUCH_AHEAD = MIB;
    /** Read-around brings in at least 128 KiB (32 pages) on any usual device; 2 048 pages on this VM. */
    private static final int READ_AROUND_AT_LEAST = 32;
    private static final int STEPS_AT_MOST = 10_000;

    @TempDir
    Path dir;

    private static DefaultMappedFileQueue commitLog(Path directory, int fileSize, NativeMemory nativeMemory) {
        MappedFileFactory files = (d, offset, size) -> new DefaultMappedFile(d, offset, size, nativeMemory);
        return new DefaultMappedFileQueue(directory, fileSize, files, files, null);
    }

    /** Steps the pretoucher (no thread of its own) until it has nothing left to do. */
    private static void stepUntilIdle(CommitLogPretoucher pretoucher) {
        for (int step = 0; step < STEPS_AT_MOST; step++) {
            if (pretoucher.touchStep() == 0) {
                return;
            }
        }
        throw new AssertionError("the pretoucher still had work after " + STEPS_AT_MOST + " steps");
    }

    private static final NativeMemory NATIVE = NativeMemory.system();

    private static long resident(DefaultMappedFile file) {
        long pages = NATIVE.residentPages(file.mappingForPretouch(), 0, file.fileSize());
        assertTrue(pages >= 0, "mincore failed: " + NATIVE.lastFailure());
        return pages;
    }

    /** Pages that one store at {@code position} brought into the page cache (the storing thread's read-around). */
    private static long pagesBroughtInByAStoreAt(DefaultMappedFile file, int position) {
        long before = resident(file);
        file.mappingForPretouch().put(position, (byte) 1);
        return resident(file) - before;
    }

    /**
     * A writer at the start of a 64 MiB file, pages touched 1 MiB ahead; then one store 24 MiB ahead, as a writer
     * that outran a starved pretoucher makes. Pages that store brought into the cache.
     */
    private static long pagesBroughtInPastTheTouchedDistance(Path directory, int readAhead) throws IOException {
        NativeMemory nativeMemory = NATIVE;
        DefaultMappedFileQueue queue = commitLog(directory, 64 * MIB, nativeMemory);
        CommitLogPretoucher pretoucher = new CommitLogPretoucher(nativeMemory,
                PretouchSettings.touchOnly(TOUCH_AHEAD, 1_000_000).withReadAhead(readAhead));
        try {
            pretoucher.watch(queue);
            MappedFile newest = queue.getLastMappedFile(0, true);
            assertTrue(newest.appendBytes(new byte[1], 0, 1));
            stepUntilIdle(pretoucher);
            assertEquals(TOUCH_AHEAD + PAGE, pretoucher.touchedUpTo(newest), "touched up to the distance");
            return pagesBroughtInByAStoreAt((DefaultMappedFile) newest, 24 * MIB);
        } finally {
            pretoucher.unwatch(queue);
            queue.destroy();
        }
    }

    @Test
    void aStorePastTheTouchedPagesButWithinTheReadDistanceZeroFillsNothingOnTheWriter() throws IOException {
        long withReadAhead = pagesBroughtInPastTheTouchedDistance(dir.resolve("read"), 32 * MIB);
        long without = pagesBroughtInPastTheTouchedDistance(dir.resolve("touch-only"), 0);

        System.out.printf("pages one store 24 MiB ahead brought into the cache: read 32 MiB ahead %d, touched "
                + "only %d%n", withReadAhead, without);
        assertTrue(without >= READ_AROUND_AT_LEAST, "negative control: without reading ahead the store should "
                + "read pages around it, but it brought in " + without + " pages");
        assertEquals(0, withReadAhead, "a store within the read-ahead distance brought " + withReadAhead
                + " pages into the cache on the writer (without the read-ahead " + without + ")");
    }

    /**
     * The writer 2 MiB before the end of a 16 MiB file whose successor the allocation service has created;
     * after the pretoucher has stepped, the pages one store into the successor's first page brings in.
     */
    private static long pagesBroughtInAtTheNextFilesHead(Path directory, int readAhead) throws IOException {
        return pagesBroughtInAtTheNextFilesHead(directory, readAhead, 0);
    }

    private static long pagesBroughtInAtTheNextFilesHead(Path directory, int readAhead, int nextFileHead)
            throws IOException {
        NativeMemory nativeMemory = NATIVE;
        int fileSize = 16 * MIB;
        DefaultMappedFileQueue queue = commitLog(directory, fileSize, nativeMemory);
        CommitLogPretoucher pretoucher = new CommitLogPretoucher(nativeMemory, PretouchSettings.touchOnly(TOUCH_AHEAD,
                1_000_000).withReadAhead(readAhead).withNextFileHead(nextFileHead));
        DefaultMappedFile next = null;
        try {
            pretoucher.watch(queue);
            MappedFile newest = queue.getLastMappedFile(0, true);
            newest.wrotePosition(fileSize - 2 * MIB);
            // created ahead, as AllocateMappedFileService does, and not yet the queue's newest
            next = new DefaultMappedFile(directory, fileSize, fileSize, nativeMemory);
            assertTrue(Files.exists(directory.resolve(MappedFileNames.of(fileSize))));
            stepUntilIdle(pretoucher);
            return pagesBroughtInByAStoreAt(next, 0);
        } finally {
            pretoucher.unwatch(queue);
            if (next != null) {
                next.destroy(0);
            }
            queue.destroy();
        }
    }

    @Test
    void theHeadOfTheNextFileIsInTheCacheBeforeTheWriterRollsIntoIt() throws IOException {
        long withReadAhead = pagesBroughtInAtTheNextFilesHead(dir.resolve("read"), 8 * MIB);
        long without = pagesBroughtInAtTheNextFilesHead(dir.resolve("touch-only"), 0);

        System.out.printf("pages the first store into the next file brought into the cache: read 8 MiB ahead %d, "
                + "touched only %d%n", withReadAhead, without);
        assertTrue(without >= READ_AROUND_AT_LEAST, "negative control: without reading ahead the first store into "
                + "a new file should read pages around it, but it brought in " + without + " pages");
        assertEquals(0, withReadAhead, "the first store into the next file brought " + withReadAhead
                + " pages into the cache on the writer (without the read-ahead " + without + ")");
    }

    /**
     * With no read distance (the default) only the next file's head is read, once the writer nears the end of its
     * file: the first store after the roll, the one store per file the touch distance never covers, then zero-fills
     * nothing on the writer. The negative control reads nothing ahead.
     */
    @Test
    void withoutAReadDistanceTheNextFilesHeadIsStillReadBeforeTheRoll() throws IOException {
        long headOnly = pagesBroughtInAtTheNextFilesHead(dir.resolve("head"), 0, 8 * MIB);
        long without = pagesBroughtInAtTheNextFilesHead(dir.resolve("nothing-read"), 0, 0);

        System.out.printf("pages the first store into the next file brought into the cache: its head read %d, "
                + "nothing read %d%n", headOnly, without);
        assertTrue(without >= READ_AROUND_AT_LEAST, "negative control: with nothing read ahead the first store into "
                + "a new file should read pages around it, but it brought in " + without + " pages");
        assertEquals(0, headOnly, "the first store into the next file brought " + headOnly
                + " pages into the cache on the writer (with nothing read ahead " + without + ")");
    }

    /**
     * The pretoucher steps every millisecond while the writer nears its file's end, and the next file may not exist
     * yet (the allocation service creates it one roll ahead, or not at all without one). Such steps must allocate
     * nothing: opening the missing file threw an exception every step, which with its stack trace cost about
     * 4.4 KB per step here, 14-18 B per put in the full run's sync-1k-64t row (docs/BENCHMARKS.md, "all store
     * threads").
     */
    @Test
    void stepsWaitingForANextFileNotCreatedYetAllocateNothing() throws IOException {
        int fileSize = 16 * MIB;
        DefaultMappedFileQueue queue = commitLog(dir, fileSize, NATIVE);
        CommitLogPretoucher pretoucher = new CommitLogPretoucher(NATIVE,
                PretouchSettings.touchOnly(TOUCH_AHEAD, 1_000_000).withNextFileHead(8 * MIB));
        try {
            pretoucher.watch(queue);
            MappedFile newest = queue.getLastMappedFile(0, true);
            newest.wrotePosition(fileSize - 2 * MIB);
            stepUntilIdle(pretoucher);
            assertTrue(Files.notExists(dir.resolve(MappedFileNames.of(fileSize))), "no next file in this test");
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            int steps = 2_000;
            for (int i = 0; i < steps; i++) {
                pretoucher.touchStep(); // warm-up: compiled code allocates what the interpreter may not elide
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < steps; i++) {
                assertEquals(0, pretoucher.touchStep(), "nothing to touch or read");
            }
            long perStep = (threads.getCurrentThreadAllocatedBytes() - before) / steps;
            System.out.printf("bytes allocated per pretouch step while the next file does not exist: %d%n", perStep);
            assertTrue(perStep <= 64, perStep + " B allocated per step waiting for the next file");
        } finally {
            pretoucher.unwatch(queue);
            queue.destroy();
        }
    }

    @Test
    void aReadDistanceShorterThanTheTouchDistanceIsRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PretouchSettings.touchOnly(4 * MIB, 1000).withReadAhead(MIB));
        assertTrue(e.getMessage().contains("0 (off) or at least the pretouch distance"), e.getMessage());
    }
}
