package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.mapped.SelectedRegion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SYNC_FLUSH force over the mapping: the pages a force covers wholly are out of the process's page table when
 * write-back runs, so it has no page-table entry to write-protect and flush from the TLB page by page. Counted
 * from {@code /proc/self/smaps} (the file's mapping's resident pages), with the plain {@link DefaultMappedFile} as
 * the control that keeps every written page mapped.
 */
class UnmapBeforeForceMappedFileTest {
    private static final int PAGE = CopyOnWriteMappedFile.PAGE;
    private static final int FILE_SIZE = 64 * PAGE;
    private static final int RECORD = 1024;

    @TempDir
    Path dir;

    private static byte[] pattern(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** Appends {@code count} 1 KiB records (records straddle pages, as the CommitLog's do) and returns them. */
    private static byte[] appendRecords(DefaultMappedFile file, int count, long seed) {
        byte[] all = new byte[count * RECORD];
        for (int i = 0; i < count; i++) {
            byte[] record = pattern(RECORD, seed + i);
            System.arraycopy(record, 0, all, i * RECORD, RECORD);
            assertTrue(file.append(TestAppends.record(record, i + 1)).isOk());
        }
        return all;
    }

    /** Resident pages of this process's mapping of {@code file}, from /proc/self/smaps. */
    private static long mappedPages(Path file) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        String name = file.toAbsolutePath().toString();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).endsWith(" " + name)) {
                for (int j = i + 1; j < lines.size(); j++) {
                    String line = lines.get(j);
                    if (line.startsWith("Rss:")) {
                        long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
                        return kib * 1024 / PAGE;
                    }
                }
            }
        }
        throw new AssertionError("no mapping of " + name + " in /proc/self/smaps");
    }

    private static byte[] readBack(DefaultMappedFile file, int length) {
        try (SelectedRegion region = file.selectMappedBuffer(0)) {
            assertNotNull(region);
            byte[] read = new byte[length];
            region.buffer().get(read);
            return read;
        }
    }

    @Test
    void aForceLeavesOnlyThePageStillBeingFilledMappedWhereThePlainFileKeepsEveryWrittenPage() throws IOException {
        assertTrue(PAGE > 0, "the kernel page size was read");
        NativeMemory nativeMemory = NativeMemory.system();
        assertTrue(nativeMemory.isAvailable(), "madvise through JNA (a dependency of the build) must be available");
        int pages = UnmapBeforeForceMappedFile.MIN_PAGES + 4;
        int records = pages * PAGE / RECORD + 1;
        int written = records * RECORD;

        Path plainDir = Files.createDirectories(dir.resolve("plain"));
        DefaultMappedFile plain = new DefaultMappedFile(plainDir, 0, FILE_SIZE, nativeMemory);
        appendRecords(plain, records, 7);
        assertEquals(written, plain.flush(0));
        long plainMapped = mappedPages(plain.path());
        assertTrue(plainMapped >= pages, "control: the plain force left the written pages mapped, so write-back had "
                + "to write-protect each of them; mapped " + plainMapped);

        Path unmapDir = Files.createDirectories(dir.resolve("unmap"));
        UnmapBeforeForceMappedFile file = new UnmapBeforeForceMappedFile(unmapDir, 0, FILE_SIZE, nativeMemory);
        appendRecords(file, records, 7);
        assertEquals(written, file.flush(0));
        long mapped = mappedPages(file.path());
        assertTrue(mapped <= 1, "only the page still being filled stays mapped; mapped " + mapped);
        assertEquals((long) pages * PAGE, file.unmappedBytes(), "the whole pages below the forced position");

        assertTrue(plain.destroy(0));
        assertTrue(file.destroy(0));
    }

    @Test
    void everyByteStaysReadableAndReachesTheFileAcrossForces() throws IOException {
        UnmapBeforeForceMappedFile file = new UnmapBeforeForceMappedFile(dir, 0, FILE_SIZE, NativeMemory.system());
        int least = UnmapBeforeForceMappedFile.MIN_PAGES;
        byte[] first = appendRecords(file, (least + 2) * PAGE / RECORD + 3, 11);
        assertEquals(first.length, file.flush(0));
        assertArrayEquals(first, readBack(file, first.length), "read again through the mapping after the drop");
        long afterFirst = file.unmappedBytes();

        // The writer keeps filling the page that held the first force's end, then more pages.
        byte[] second = appendRecords(file, (least + 1) * PAGE / RECORD + 2, 99);
        int total = first.length + second.length;
        assertEquals(total, file.flush(0));
        assertTrue(file.unmappedBytes() > afterFirst, "the second force dropped the pages it completed");

        byte[] expected = Arrays.copyOf(first, total);
        System.arraycopy(second, 0, expected, first.length, second.length);
        assertArrayEquals(expected, readBack(file, total), "the mapping shows every byte written");
        assertArrayEquals(expected, Arrays.copyOf(Files.readAllBytes(file.path()), total), "the file holds them");
        assertTrue(file.destroy(0));
    }

    /** A force of a few pages (a small closed-loop group) keeps them mapped: no native call, nothing allocated. */
    @Test
    void aForceOfFewerThanTheLeastPagesLeavesThemMapped() throws IOException {
        UnmapBeforeForceMappedFile file = new UnmapBeforeForceMappedFile(dir, 0, FILE_SIZE, NativeMemory.system());
        byte[] bytes = appendRecords(file, (UnmapBeforeForceMappedFile.MIN_PAGES - 1) * PAGE / RECORD, 3);
        assertEquals(bytes.length, file.flush(0));
        assertEquals(0, file.unmappedBytes());
        assertTrue(mappedPages(file.path()) >= UnmapBeforeForceMappedFile.MIN_PAGES - 1);
        assertTrue(file.destroy(0));
    }

    @Test
    void withoutNativeCallsTheForceProceedsAndNothingIsDropped() throws IOException {
        NativeMemory none = new NativeMemory(null, "test: no native library");
        UnmapBeforeForceMappedFile file = new UnmapBeforeForceMappedFile(dir, 0, FILE_SIZE, none);
        byte[] bytes = appendRecords(file, (UnmapBeforeForceMappedFile.MIN_PAGES + 1) * PAGE / RECORD + 1, 5);
        assertEquals(bytes.length, file.flush(0));
        assertEquals(0, file.unmappedBytes());
        assertArrayEquals(bytes, Arrays.copyOf(Files.readAllBytes(file.path()), bytes.length));
        assertTrue(file.destroy(0));
    }
}
