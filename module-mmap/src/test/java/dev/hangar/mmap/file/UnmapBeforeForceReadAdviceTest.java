package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.LibC;
import dev.hangar.mmap.nativeio.NativeMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SYNC_FLUSH CommitLog file over the mapping keeps its page cache in small folios while it is written: from its
 * first force its mapping is advised {@code MADV_RANDOM} (the kernel then reads no pages around a fault, which is
 * what filled the cache with 2 MiB folios that every force wrote again whole), and once a force reaches the file's
 * end the advice is taken back. Read from the kernel's own view: the {@code rr} flag of the mapping in
 * {@code /proc/self/smaps}, with the plain {@link DefaultMappedFile} as the control that never has it.
 */
class UnmapBeforeForceReadAdviceTest {
    private static final int PAGE = CopyOnWriteMappedFile.PAGE;
    private static final int FILE_SIZE = 64 * PAGE;
    private static final int RECORD = 1024;

    @TempDir
    Path dir;

    private static void append(DefaultMappedFile file, int records) {
        for (int i = 0; i < records; i++) {
            assertTrue(file.append(TestAppends.record(new byte[RECORD], i + 1)).isOk());
        }
    }

    @Test
    void theMappingReadsNoPagesAroundAFaultWhileTheFileIsWrittenAndAgainOnceItIsComplete() throws IOException {
        NativeMemory nativeMemory = NativeMemory.system();
        assertTrue(nativeMemory.isAvailable(), "madvise through JNA (a dependency of the build) must be available");

        Path plainDir = Files.createDirectories(dir.resolve("plain"));
        DefaultMappedFile plain = new DefaultMappedFile(plainDir, 0, FILE_SIZE, nativeMemory);
        append(plain, 8);
        plain.flush(0);
        assertFalse(Smaps.vmFlags(plain.path()).contains("rr"), "control: a plain file keeps the default read-around");

        Path syncDir = Files.createDirectories(dir.resolve("sync"));
        UnmapBeforeForceMappedFile file = new UnmapBeforeForceMappedFile(syncDir, 0, FILE_SIZE, nativeMemory);
        assertFalse(Smaps.vmFlags(file.path()).contains("rr"), "no advice before the first force (recovery reads ahead)");
        append(file, 8);
        file.flush(0);
        assertTrue(Smaps.vmFlags(file.path()).contains("rr"), "written and forced: no read-around, so small folios; flags "
                + Smaps.vmFlags(file.path()));
        assertEquals(LibC.MADV_RANDOM, file.advice());
        append(file, 8);
        file.flush(0);
        assertTrue(Smaps.vmFlags(file.path()).contains("rr"), "still written: the advice stays");

        append(file, FILE_SIZE / RECORD - 16);
        assertTrue(file.isFull(), "the file is complete");
        file.flush(0);
        assertFalse(Smaps.vmFlags(file.path()).contains("rr"), "complete: read-around again for readers from disk; flags "
                + Smaps.vmFlags(file.path()));
        assertEquals(LibC.MADV_NORMAL, file.advice());

        assertTrue(plain.destroy(0));
        assertTrue(file.destroy(0));
    }

    @Test
    void withoutNativeCallsNothingIsAdvisedAndTheForcesProceed() throws IOException {
        UnmapBeforeForceMappedFile file = new UnmapBeforeForceMappedFile(dir, 0, FILE_SIZE,
                new NativeMemory(null, "test: no native library"));
        append(file, 8);
        assertEquals(8 * RECORD, file.flush(0));
        assertEquals(LibC.MADV_NORMAL, file.advice());
        assertFalse(Smaps.vmFlags(file.path()).contains("rr"));
        assertTrue(file.destroy(0));
    }
}
