package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.queue.DefaultMappedFileQueue;
import dev.hangar.spi.mapped.MappedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pretoucher gives the CommitLog's page cache far behind the flushed position back to the kernel
 * ({@code pageCacheKeepBehindBytes}), so new pages ahead of the writer reuse just-freed memory. Counted with
 * {@code mincore}: the pages of a flushed file still in the page cache after the pretoucher stepped, with a keep
 * distance and without one (the negative control in the same test: every page stays). And the bytes stay readable.
 */
class PageCacheRecyclerTest {
    private static final int MIB = 1 << 20;
    private static final int FILE_SIZE = 16 * MIB;
    private static final int PAGES_PER_FILE = FILE_SIZE / DirtyPages.OS_PAGE_SIZE;
    private static final int STEPS_AT_MOST = 10_000;
    private static final NativeMemory NATIVE = NativeMemory.system();

    @TempDir
    Path dir;

    /** Three files written full and flushed; then the pretoucher steps until idle. Resident pages per file. */
    private static long[] residentAfterSteps(Path directory, long keepBytes) throws IOException {
        MappedFileFactory files = (d, offset, size) -> new DefaultMappedFile(d, offset, size, NATIVE);
        DefaultMappedFileQueue queue = new DefaultMappedFileQueue(directory, FILE_SIZE, files, files, null);
        CommitLogPretoucher pretoucher = new CommitLogPretoucher(NATIVE,
                PretouchSettings.touchOnly(MIB, 1_000_000).withPageCacheKeep(keepBytes));
        try {
            pretoucher.watch(queue);
            byte[] chunk = new byte[MIB];
            Arrays.fill(chunk, (byte) 7);
            for (long at = 0; at < 3L * FILE_SIZE; at += MIB) {
                MappedFile file = queue.getLastMappedFile(at, true);
                assertTrue(file.appendBytes(chunk, 0, MIB), "append at " + at);
                // the pretoucher watches from the first flush on: step it as the store's thread would
                queue.flush(0);
                pretoucher.touchStep();
            }
            while (!queue.flush(0)) {
                // until every file is flushed
            }
            assertEquals(3L * FILE_SIZE, queue.getFlushedWhere());
            for (int step = 0; step < STEPS_AT_MOST && pretoucher.touchStep() > 0; step++) {
                // until idle
            }
            long[] resident = new long[3];
            DefaultMappedFile[] all = new DefaultMappedFile[3];
            for (int i = 0; i < 3; i++) {
                all[i] = (DefaultMappedFile) queue.findMappedFileByOffset((long) i * FILE_SIZE, false);
                resident[i] = NATIVE.residentPages(all[i].mappingForPretouch(), 0, FILE_SIZE);
                assertTrue(resident[i] >= 0, "mincore failed: " + NATIVE.lastFailure());
            }
            for (int i = 0; i < 3; i++) {
                // dropped or not, the bytes read back as written (from the disk when dropped)
                byte[] read = new byte[MIB];
                all[i].wholeFileReadView().get(FILE_SIZE - MIB, read);
                assertArrayEquals(chunk, read, "bytes of file " + i + " after the pretoucher stepped");
            }
            assertEquals(keepBytes == 0 ? 0 : 3L * FILE_SIZE - keepBytes, pretoucher.bytesOfPageCacheDropped());
            return resident;
        } finally {
            pretoucher.unwatch(queue);
            queue.destroy();
        }
    }

    @Test
    void flushedPagesFurtherBehindThanTheKeepDistanceLeaveThePageCache() throws IOException {
        long[] keep16 = residentAfterSteps(dir.resolve("keep"), FILE_SIZE);
        long[] keepAll = residentAfterSteps(dir.resolve("all"), 0);

        System.out.printf("resident pages of the three files: keep 16 MiB %s, "
                + "keep all %s%n", Arrays.toString(keep16), Arrays.toString(keepAll));
        assertEquals(PAGES_PER_FILE, keepAll[0], "negative control: without a keep distance the first "
                + "file's written pages should stay in the page cache");
        assertEquals(0, keep16[0], "pages of the first file, 32 MiB behind the flushed end, left in the cache");
        assertEquals(0, keep16[1], "pages of the second file, 16 MiB behind the flushed end, left in the cache");
        assertEquals(PAGES_PER_FILE, keep16[2], "the last 16 MiB (the keep distance) should stay cached");
    }

    @Test
    void aKeepDistanceShorterThanAStepIsRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PretouchSettings.touchOnly(MIB, 1000).withPageCacheKeep(MIB));
        assertTrue(e.getMessage().contains("at least " + PageCacheRecycler.STEP_BYTES), e.getMessage());
    }
}
