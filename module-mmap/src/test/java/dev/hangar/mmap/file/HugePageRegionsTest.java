package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.mapped.MappedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HugePageRegions}: 2 MiB pages for the regions ahead of a CommitLog writer while it writes at least
 * {@code 16 MiB} per flush interval, none below half of that, nothing for a region the writer is already in, and the
 * next file's head prepared in 2 MiB pages through its own mapping while the rate calls for it.
 */
class HugePageRegionsTest {
    private static final int REGION = HugePageRegions.REGION;
    /** Long enough that regions are decided past the distance decided ahead of the pages touched. */
    private static final int FILE_SIZE = 32 * REGION;
    private static final long MS = 1_000_000;

    @TempDir
    Path dir;

    private static HugePageAdvice advice() {
        HugePageAdvice advice = HugePageAdvice.of(NativeMemory.system());
        assumeTrue(advice.effective(), "SKIPPED: " + advice.describe() + " on this machine: nothing to observe");
        return advice;
    }

    @Test
    void theRateThatTurnsHugePagesOnFollowsTheFlushInterval() {
        HugePageRegions atDefault = new HugePageRegions(HugePageAdvice.none(), 500);
        assertEquals(32L << 20, atDefault.onBytesPerSecond(), "16 MiB per 500 ms: at most 1/8 more bytes written");
        assertEquals(8L << 20, new HugePageRegions(HugePageAdvice.none(), 2000).onBytesPerSecond());
        assertThrows(IllegalArgumentException.class, () -> new HugePageRegions(HugePageAdvice.none(), 0));
    }

    @Test
    void theChoiceTurnsOnAtTheRateAndOffOnlyBelowHalfOfIt() {
        HugePageRegions regions = new HugePageRegions(HugePageAdvice.none(), 500);
        HugePageRegions.Track t = new HugePageRegions.Track();
        long on = regions.onBytesPerSecond();
        long offset = 0;
        long now = 0;
        assertTrue(t.huge(), "a new queue starts with 2 MiB pages");
        regions.observe(t, offset, now);
        offset += on / 20 - 1;
        now += 100 * MS;
        regions.observe(t, offset, now);
        assertFalse(t.huge(), "just under half the rate at the first sample: off");
        offset += on / 10 + 1;
        now += 100 * MS;
        regions.observe(t, offset, now);
        assertTrue(t.huge(), "at the rate: on");
        offset += on / 10 * 6 / 10;
        now += 100 * MS;
        regions.observe(t, offset, now);
        assertTrue(t.huge(), "60 % of the rate: still on (hysteresis)");
        offset += on / 100;
        now += 50 * MS;
        regions.observe(t, offset, now);
        assertTrue(t.huge(), "a sample shorter than 100 ms is not taken");
        now += 100 * MS;
        regions.observe(t, offset, now);
        assertFalse(t.huge(), "a fifteenth of the rate over the sample: off");
        offset += on / 10 * 8 / 10;
        now += 100 * MS;
        regions.observe(t, offset, now);
        assertFalse(t.huge(), "80 % of the rate: stays off until the rate itself");
    }

    @Test
    void aBurstAfterAQuietSpellTurnsHugePagesOnBeforeItsWindowEnds() {
        HugePageRegions regions = new HugePageRegions(HugePageAdvice.none(), 500);
        HugePageRegions.Track t = new HugePageRegions.Track();
        long on = regions.onBytesPerSecond();
        regions.observe(t, 0, 0);
        regions.observe(t, 0, 100 * MS);
        assertFalse(t.huge(), "quiet");
        regions.observe(t, on / 20, 110 * MS);
        assertFalse(t.huge(), "half of what the rate writes in a window, 10 ms in: not yet");
        regions.observe(t, on / 10 + 1, 115 * MS);
        assertTrue(t.huge(), "a window's worth at the rate within 15 ms: on without waiting for the window's end");
    }

    @Test
    void aNewFilesHeadIsAdvisedWhenItIsMadeAndNothingIsTouched() throws IOException {
        HugePageRegions regions = new HugePageRegions(advice(), 500);
        MappedFileFactory plain = (d, offset, size) -> new DefaultMappedFile(d, offset, size, NativeMemory.system());
        DefaultMappedFile file = (DefaultMappedFile) regions.adviseHeads(plain, 3 * 1024 * 1024).create(dir, 0,
                FILE_SIZE);
        List<List<String>> mappings = Smaps.mappingsOf(file.path());
        assertEquals(2, mappings.size(), "the head (two regions) and the rest: " + mappings);
        assertTrue(flags(mappings.get(0)).containsAll(List.of("hg", "rr")), "huge pages, no read-around");
        assertFalse(flags(mappings.get(1)).contains("hg"));
        assertEquals(0, Smaps.kilobytes(file.path(), "Rss"), "nothing faulted in");
        assertTrue(file.destroy(0));
    }

    @Test
    void regionsAheadAreAdvisedWhileTheRateIsHighAndTheWritersRegionNever() throws IOException {
        HugePageRegions regions = new HugePageRegions(advice(), 500);
        DefaultMappedFile file = new DefaultMappedFile(dir, 0, FILE_SIZE, NativeMemory.system());
        HugePageRegions.Track t = fast(regions);
        // the writer is inside region 0: touching [its next page, 4 MiB) decides regions 1 to 9 (16 MiB on)
        touch(regions, t, file, 4096, 2L * REGION);
        long decided = (2L * REGION + HugePageRegions.DECIDE_AHEAD) / REGION - 1;
        assertEquals(decided, regions.hugeRegions());
        assertEquals(0, regions.smallRegions());
        List<List<String>> mappings = Smaps.mappingsOf(file.path());
        assertEquals(3, mappings.size(), "region 0 as it was, the regions decided advised (one mapping), the rest as "
                + "it was: " + mappings);
        assertFalse(flags(mappings.get(0)).contains("hg"), "the writer's region keeps its pages");
        assertTrue(flags(mappings.get(1)).contains("hg"));
        assertFalse(flags(mappings.get(2)).contains("hg"));

        regions.observe(t, 64L << 20, 300 * MS);
        assertFalse(t.huge(), "nothing written for 200 ms");
        touch(regions, t, file, 2L * REGION, 4L * REGION);
        assertEquals(decided, regions.hugeRegions(), "decided regions are not decided again");
        assertEquals(0, regions.smallRegions(), "the regions touched now were decided ahead already");
        touch(regions, t, file, 16L * REGION, 18L * REGION);
        assertEquals(2, regions.smallRegions(), "two regions touched while nothing is written: 4 KiB pages, and "
                + "none decided ahead of them");
        assertTrue(file.destroy(0));
    }

    @Test
    void theNextFilesHeadIsPreparedIn2MiBPagesOnlyWhileTheRateIsHigh() throws IOException {
        Next next = next();
        HugePageRegions regions = new HugePageRegions(advice(), 500);
        HugePageRegions.Track t = new HugePageRegions.Track();
        int head = 3 * 1024 * 1024;
        regions.observe(t, 0, 0);
        regions.observe(t, 1L << 20, 100 * MS);
        assertEquals(-1, regions.prepareNextHead(t, next.path(), next.lookup(), head, 1 << 20),
                "a low rate: read as without huge pages");
        regions.observe(t, 64L << 20, 200 * MS);
        assertEquals(-1, regions.prepareNextHead(t, dir.resolve(MappedFileNames.of(2L * FILE_SIZE)), next.lookup(),
                head, 1 << 20),
                "a file not created yet: read as without huge pages");

        int pages = 0;
        for (int step = 0; step < 10; step++) {
            pages += regions.prepareNextHead(t, next.path(), next.lookup(), head, 1 << 20);
        }
        assertEquals(head / 4096, pages, "faulted in a megabyte per step, then nothing more to do");
        assertEquals(2, regions.hugeRegions(), "3 MiB of head: two regions advised");
        assertTrue(Smaps.vmFlags(next.file().path()).contains("hg"));
        assertEquals(2 * REGION / 1024, Smaps.kilobytes(next.file().path(), "Rss"),
                "the head's two 2 MiB pages and nothing more are mapped");
        assertEquals(0, next.file().flush(0), "faulted in readable: nothing to write back");
        assertTrue(next.file().destroy(0));
    }

    @Test
    void aRolledIntoFileKeepsTheDecisionsMadeForItsHead() throws IOException {
        Next next = next();
        HugePageRegions regions = new HugePageRegions(advice(), 500);
        HugePageRegions.Track t = fast(regions);
        while (regions.prepareNextHead(t, next.path(), next.lookup(), REGION, 1 << 20) > 0) {
            assertTrue(regions.hugeRegions() <= 1);
        }
        // the writer rolled in and is at its first page: the pretoucher touches from the second
        touch(regions, t, next.file(), 4096, 2L * REGION);
        assertEquals((2L * REGION + HugePageRegions.DECIDE_AHEAD) / REGION, regions.hugeRegions(),
                "the head's region once, then the regions after it");
        List<List<String>> mappings = Smaps.mappingsOf(next.file().path());
        assertEquals(2, mappings.size(), "regions 0 and 1 advised alike (one mapping), the rest not: " + mappings);
        assertTrue(flags(mappings.get(0)).contains("hg"));
        assertTrue(next.file().destroy(0));
    }

    /**
     * A queue that starts slowly and then speeds up: the regions advised once the rate is high are made of 2 MiB pages
     * from the switch on, because every region ahead of the writer, the small ones too, is advised no read-around.
     * Without that, a fault on a small page starts a stream of the kernel's file read-ahead that runs on ahead of
     * the faults and fills the regions after the switch with small folios (probes: 8 of the 40 MiB touched after the
     * switch in 2 MiB pages with no such advice, 32 with it on the huge regions only, 40 with it everywhere).
     */
    @Test
    void afterASlowStartTheRegionsAdvisedAreMadeOf2MiBPagesPastTheReadAheadStream() throws IOException {
        HugePageRegions regions = new HugePageRegions(advice(), 500);
        NativeMemory nativeMemory = NativeMemory.system();
        DefaultMappedFile file = new DefaultMappedFile(dir, 0, FILE_SIZE, nativeMemory);
        HugePageRegions.Track t = new HugePageRegions.Track();
        regions.observe(t, 0, 0);
        regions.observe(t, 1L << 20, 100 * MS);
        assertFalse(t.huge(), "slow");
        long step = 1 << 20;
        long slowEnd = 8L << 20;
        long end = 48L << 20;
        assertTrue(file.hold());
        try {
            for (long from = 0; from < end; from += step) {
                if (from == slowEnd) {
                    regions.observe(t, 64L << 20, 200 * MS);
                    assertTrue(t.huge(), "fast from here on");
                }
                regions.beforeTouch(t, file, file.mappingForPretouch(), from, from + step);
                assertTrue(nativeMemory.madvise(file.mappingForPretouch().slice((int) from, (int) step), step,
                        dev.hangar.mmap.nativeio.LibC.MADV_POPULATE_WRITE));
            }
        } finally {
            file.release();
        }
        long pmd = Smaps.kilobytes(file.path(), "FilePmdMapped");
        assertEquals(40 * 1024, pmd, "of the 40 MiB touched after the switch, " + pmd + " kB in 2 MiB pages");
        assertTrue(file.destroy(0));
    }

    @Test
    void aFileTheWriterLeftGetsItsReadAroundBack() throws IOException {
        HugePageRegions regions = new HugePageRegions(advice(), 500);
        DefaultMappedFile first = new DefaultMappedFile(dir, 0, FILE_SIZE, NativeMemory.system());
        DefaultMappedFile second = new DefaultMappedFile(dir, FILE_SIZE, FILE_SIZE, NativeMemory.system());
        HugePageRegions.Track t = new HugePageRegions.Track();
        touch(regions, t, first, 4096, 4L * REGION);
        assertTrue(Smaps.mappingsOf(first.path()).stream().anyMatch(m -> flags(m).contains("rr")),
                "ahead of the writer: no read-around");
        touch(regions, t, second, 4096, 4L * REGION);
        for (List<String> mapping : Smaps.mappingsOf(first.path())) {
            assertFalse(flags(mapping).contains("rr"), "left: read-around again, for readers from disk: " + mapping);
        }
        assertTrue(Smaps.mappingsOf(first.path()).stream().anyMatch(m -> flags(m).contains("hg")),
                "the huge-page advice stays");
        assertTrue(Smaps.mappingsOf(second.path()).stream().anyMatch(m -> flags(m).contains("rr")));
        assertTrue(first.destroy(0));
        assertTrue(second.destroy(0));
    }

    @Test
    void aFileTheWriterWentThroughBetweenTwoLooksGetsItsReadAroundBackToo() throws IOException {
        HugePageRegions regions = new HugePageRegions(advice(), 500);
        MappedFileFactory files = regions.adviseHeads((d, offset, size) -> new DefaultMappedFile(d, offset, size,
                NativeMemory.system()), 4 * REGION);
        List<MappedFile> queue = List.of(files.create(dir, 0, FILE_SIZE), files.create(dir, FILE_SIZE, FILE_SIZE),
                files.create(dir, 2L * FILE_SIZE, FILE_SIZE));
        MappedFile crossed = queue.get(1);
        assertTrue(Smaps.mappingsOf(crossed.path()).stream().anyMatch(m -> flags(m).contains("rr")),
                "a new file's head: no read-around");
        HugePageRegions.Track t = new HugePageRegions.Track();
        regions.newestFile(t, queue.get(0), offset -> queue.get((int) (offset / FILE_SIZE)));
        regions.newestFile(t, queue.get(2), offset -> queue.get((int) (offset / FILE_SIZE)));
        for (List<String> mapping : Smaps.mappingsOf(crossed.path())) {
            assertFalse(flags(mapping).contains("rr"), "written whole between two looks: read-around again "
                    + mapping);
        }
        assertTrue(Smaps.mappingsOf(queue.get(2).path()).stream().anyMatch(m -> flags(m).contains("rr")),
                "the file entered keeps its advice until the writer leaves it");
        for (MappedFile file : queue) {
            assertTrue(file.destroy(0));
        }
    }

    /** The file after a first one of {@link #FILE_SIZE}, created ahead, and a lookup that finds it by its path. */
    private record Next(Path path, DefaultMappedFile file, Function<Path, MappedFile> lookup) {
    }

    private Next next() throws IOException {
        DefaultMappedFile file = new DefaultMappedFile(dir, FILE_SIZE, FILE_SIZE, NativeMemory.system());
        return new Next(file.path(), file, p -> p.equals(file.path()) ? file : null);
    }

    /** A track whose first sample saw 64 MiB written in 100 ms: huge pages, decided ahead. */
    private static HugePageRegions.Track fast(HugePageRegions regions) {
        HugePageRegions.Track t = new HugePageRegions.Track();
        regions.observe(t, 0, 0);
        regions.observe(t, 64L << 20, 100 * MS);
        assertTrue(t.huge());
        return t;
    }

    private static void touch(HugePageRegions regions, HugePageRegions.Track t, DefaultMappedFile file, long from,
                              long to) {
        assertTrue(file.hold());
        try {
            regions.beforeTouch(t, file, file.mappingForPretouch(), from, to);
        } finally {
            file.release();
        }
    }

    private static List<String> flags(List<String> mapping) {
        for (String line : mapping) {
            if (line.startsWith("VmFlags:")) {
                return List.of(line.substring("VmFlags:".length()).trim().split("\\s+"));
            }
        }
        throw new AssertionError("no VmFlags in " + mapping);
    }
}
