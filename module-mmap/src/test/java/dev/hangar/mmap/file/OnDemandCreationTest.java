package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.mapped.SelectedRegion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new ConsumeQueue file of a cold queue (one or two units in a run, 100 000 such queues) costs the file system one
 * open, its length and one {@code pwrite}: it is not mapped for a write that goes through the channel, and it keeps
 * no file descriptor once written. Each test here fails on a file that maps itself on its first write (an
 * {@code mmap}, past the budget a {@code munmap}, and a second {@code open} per new file).
 */
class OnDemandCreationTest {
    private static final int FILE_SIZE = 300_000 * 20;

    @TempDir
    Path dir;

    @Test
    void aNewFileWhoseFirstUnitsArePwrittenIsNotMappedAndReadsBackThroughAMappingLater() throws IOException {
        MappingBudget budget = new MappingBudget(16);
        OnDemandMappedFile file = new OnDemandMappedFile(dir.resolve("topic").resolve("0"), 0, FILE_SIZE,
                NativeMemory.system(), budget);
        try {
            byte[] units = new byte[40];
            Arrays.fill(units, (byte) 7);
            units[39] = 9;
            assertTrue(file.appendBytes(units, 0, units.length));
            assertFalse(file.mapped(), "written through the channel only");
            assertEquals(0, budget.mappedFiles(), "no mapping counted against the budget");
            assertEquals(FILE_SIZE, Files.size(file.path()), "the file has its full (sparse) length");
            assertArrayEquals(units, Arrays.copyOf(Files.readAllBytes(file.path()), units.length));

            // a reader maps it: the mapping shares the page cache with the pwrite
            try (SelectedRegion region = file.selectMappedBuffer(0)) {
                assertNotNull(region);
                byte[] read = new byte[units.length];
                region.buffer().get(0, read);
                assertArrayEquals(units, read);
            }
            assertTrue(file.mapped());
            assertEquals(1, budget.mappedFiles());
        } finally {
            file.shutdown(0);
        }
    }

    @Test
    void manyNewFilesWrittenOnceHoldNeitherMappingsNorFileDescriptors() throws IOException {
        MappingBudget budget = new MappingBudget(10_000);
        long descriptorsBefore = openDescriptors();
        List<OnDemandMappedFile> files = new ArrayList<>();
        try {
            byte[] unit = new byte[20];
            for (int q = 0; q < 200; q++) {
                OnDemandMappedFile file = new OnDemandMappedFile(dir.resolve("t").resolve(Integer.toString(q)), 0,
                        FILE_SIZE, NativeMemory.system(), budget);
                files.add(file);
                unit[0] = (byte) q;
                assertTrue(file.appendBytes(unit, 0, unit.length), "queue " + q);
            }
            assertEquals(0, budget.mappedFiles(), "mapped files");
            // a little slack for anything else of the JVM; a mapped file keeps its channel open (200 here)
            long held = openDescriptors() - descriptorsBefore;
            assertTrue(held <= 2, held + " file descriptors still open after 200 files were written once");
            for (int q = 0; q < 200; q++) {
                assertEquals((byte) q, Files.readAllBytes(files.get(q).path())[0], "queue " + q);
            }
        } finally {
            files.forEach(f -> f.shutdown(0));
        }
    }

    @Test
    void aNewFileShutDownBeforeItsFirstWriteLeavesNoFileDescriptorOpen() throws IOException {
        long descriptorsBefore = openDescriptors();
        for (int q = 0; q < 50; q++) {
            OnDemandMappedFile file = new OnDemandMappedFile(dir.resolve("idle").resolve(Integer.toString(q)), 0,
                    FILE_SIZE, NativeMemory.system(), new MappingBudget(4));
            assertTrue(file.destroy(0), "destroyed");
        }
        long held = openDescriptors() - descriptorsBefore;
        assertTrue(held <= 2, held + " file descriptors still open after 50 new files were destroyed unwritten");
    }

    @Test
    void anExistingFileIsNotKeptOpenByItsObject() throws IOException {
        Path queueDir = dir.resolve("loaded");
        OnDemandMappedFile first = new OnDemandMappedFile(queueDir, 0, FILE_SIZE, NativeMemory.system(),
                new MappingBudget(4));
        assertTrue(first.appendBytes(new byte[20], 0, 20));
        first.shutdown(0);
        long descriptorsBefore = openDescriptors();
        List<OnDemandMappedFile> again = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                again.add(new OnDemandMappedFile(queueDir, 0, FILE_SIZE, NativeMemory.system(), new MappingBudget(4)));
            }
            long held = openDescriptors() - descriptorsBefore;
            assertTrue(held <= 2, held + " file descriptors held by 50 objects over an existing file");
        } finally {
            again.forEach(f -> f.shutdown(0));
        }
    }

    private static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }
}
