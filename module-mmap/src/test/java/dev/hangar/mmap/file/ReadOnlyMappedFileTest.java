package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.mapped.MappedFile;
import dev.hangar.spi.mapped.SelectedRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files of a store opened read-only ({@link FileSpace#READ_ONLY}): an existing file is mapped {@code READ_ONLY} and
 * reads as written; a missing one is an error and nothing is created; a write fails naming the file and leaves its
 * bytes and modification time as they were. Mapped {@code READ_WRITE} (the code before), the appends here succeed
 * and change the file, and the missing file and its directory are created.
 */
class ReadOnlyMappedFileTest {
    private static final int FILE_SIZE = 64 * 1024;
    private static final byte[] WRITTEN = "written before".getBytes();

    @TempDir
    Path dir;

    /** Writes {@link #WRITTEN} at 0 of {@code directory/<offset 0>} and sets its mtime back an hour. */
    private Path writtenFile(Path directory) throws IOException {
        DefaultMappedFile writer = new DefaultMappedFile(directory, 0, FILE_SIZE, NativeMemory.system());
        assertTrue(writer.appendBytes(WRITTEN, 0, WRITTEN.length));
        writer.flush(0);
        writer.shutdown(0);
        Path path = writer.path();
        Files.setLastModifiedTime(path, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        return path;
    }

    private static void assertUnchanged(Path path, byte[] bytes, FileTime mtime) throws IOException {
        assertArrayEquals(bytes, Files.readAllBytes(path), "bytes of " + path);
        assertEquals(mtime, Files.getLastModifiedTime(path), "mtime of " + path);
    }

    private static void assertRefusesWrites(MappedFile file) {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> file.appendBytes(new byte[] {1, 2, 3}, 0, 3));
        assertTrue(e.getMessage().contains(file.path().toString()) && e.getMessage().contains("read-only"),
                e.getMessage());
    }

    @Test
    void aReadOnlyFileReadsAsWrittenAndRefusesWritesWithoutChangingTheFile() throws IOException {
        Path path = writtenFile(dir);
        byte[] bytes = Files.readAllBytes(path);
        FileTime mtime = Files.getLastModifiedTime(path);
        MappedFile file = MappedFileFactory.readOnly(NativeMemory.system()).create(dir, 0, FILE_SIZE);
        try {
            file.wrotePosition(WRITTEN.length); // what recovery sets, in memory only
            try (SelectedRegion region = file.selectMappedBuffer(0)) {
                assertTrue(region.buffer().isReadOnly());
                byte[] read = new byte[WRITTEN.length];
                region.buffer().get(read);
                assertArrayEquals(WRITTEN, read);
            }
            assertRefusesWrites(file);
            assertThrows(IllegalStateException.class, () -> file.append((base, target, maxBlank) -> {
                target.put((byte) 1);
                return null;
            }));
            file.flush(0);
        } finally {
            file.shutdown(0);
        }
        assertUnchanged(path, bytes, mtime);
    }

    @Test
    void aMissingFileIsAnErrorAndNeitherItNorItsDirectoryIsCreated() {
        Path missing = dir.resolve("consumequeue").resolve("T").resolve("0");
        MappingBudget budget = new MappingBudget(4);
        assertThrows(NoSuchFileException.class,
                () -> MappedFileFactory.readOnly(NativeMemory.system()).create(missing, 0, FILE_SIZE));
        assertThrows(NoSuchFileException.class,
                () -> OnDemandMappedFile.readOnly(missing, 0, FILE_SIZE, NativeMemory.system(), budget));
        assertFalse(Files.exists(dir.resolve("consumequeue")), "nothing created under " + dir);
    }

    @Test
    void anOnDemandFileMapsReadOnlyWhenUsedAndRefusesWrites() throws IOException {
        Path path = writtenFile(dir);
        byte[] bytes = Files.readAllBytes(path);
        FileTime mtime = Files.getLastModifiedTime(path);
        OnDemandMappedFile file = OnDemandMappedFile.readOnly(dir, 0, FILE_SIZE, NativeMemory.system(),
                new MappingBudget(4));
        try {
            file.wrotePosition(WRITTEN.length);
            try (SelectedRegion region = file.selectMappedBuffer(0)) {
                ByteBuffer view = region.buffer();
                assertTrue(view.isReadOnly());
                byte[] read = new byte[WRITTEN.length];
                view.get(read);
                assertArrayEquals(WRITTEN, read);
            }
            assertRefusesWrites(file);
        } finally {
            file.shutdown(0);
        }
        assertUnchanged(path, bytes, mtime);
    }
}
