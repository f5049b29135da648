package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.nativeio.RecordingLibC;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** New files reserve their disk blocks, so a full disk fails at creation instead of faulting on write. */
class PreallocationTest {
    @TempDir
    Path dir;

    @Test
    void aFullDiskFailsFileCreationWithAClearErrorAndLeavesNoFile() {
        RecordingLibC libc = RecordingLibC.succeeding();
        libc.fallocateResult = 28; // ENOSPC
        IOException e = assertThrows(IOException.class,
                () -> new DefaultMappedFile(dir, 0, 4096, new NativeMemory(libc, null)));
        assertTrue(e.getMessage().contains("No space left"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("00000000000000000000")));
    }

    @Test
    void aFileSystemWithoutFallocateOnlyWarnsAndTheFileWorks() throws IOException {
        RecordingLibC libc = RecordingLibC.failing();
        NativeMemory memory = new NativeMemory(libc, null);
        DefaultMappedFile file = new DefaultMappedFile(dir, 0, 4096, memory);
        assertTrue(file.appendBytes(new byte[] {1, 2, 3}, 0, 3));
        assertEquals(1, libc.fallocates.get());
        assertEquals(1, memory.warningsLogged());
        assertTrue(file.destroy(0));
    }

    @Test
    void anExistingFileIsNotPreallocatedAgain() throws IOException {
        RecordingLibC libc = RecordingLibC.succeeding();
        new DefaultMappedFile(dir, 0, 4096, new NativeMemory(libc, null)).shutdown(0);
        new DefaultMappedFile(dir, 0, 4096, new NativeMemory(libc, null)).shutdown(0);
        assertEquals(1, libc.fallocates.get());
    }

    @Test
    void theRealLibcReservesTheBlocksOfANewFile() throws Exception {
        int size = 1 << 20;
        // the control: a file only extended to the size is sparse, so the block count can tell the difference
        Path sparse = dir.resolve("sparse");
        try (RandomAccessFile f = new RandomAccessFile(sparse.toFile(), "rw")) {
            f.setLength(size);
        }
        assertTrue(allocatedBytes(sparse) < size, "this file system keeps a merely extended file sparse");

        DefaultMappedFile file = new DefaultMappedFile(dir, 0, size, NativeMemory.system());
        assertEquals(size, Files.size(file.path()));
        assertTrue(allocatedBytes(file.path()) >= size,
                "fallocate reserved every block: " + allocatedBytes(file.path()) + " bytes allocated");
        assertTrue(file.destroy(0));
    }

    /** st_blocks * 512 (via stat(1): the JDK does not expose the block count). */
    private static long allocatedBytes(Path file) throws Exception {
        Process stat = new ProcessBuilder("stat", "-c", "%b %B", file.toString()).redirectErrorStream(true).start();
        String out = new String(stat.getInputStream().readAllBytes()).trim();
        assertEquals(0, stat.waitFor(), out);
        String[] parts = out.split(" ");
        return Long.parseLong(parts[0]) * Long.parseLong(parts[1]);
    }
}
