package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.nativeio.RecordingLibC;
import dev.hangar.mmap.pool.TransientStorePool;
import dev.hangar.spi.mapped.SelectedRegion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit backlog of several {@link PooledMappedFile#COMMIT_STEP_BYTES} steps lands byte for byte at the same
 * positions of the file, readers see exactly the committed bytes, and the flush puts them on disk.
 */
class PooledCommitStepsTest {
    private static final int FILE_SIZE = 3 * PooledMappedFile.COMMIT_STEP_BYTES;
    private static final NativeMemory NATIVE = new NativeMemory(RecordingLibC.succeeding(), null);

    @TempDir
    Path dir;
    private TransientStorePool pool;

    @BeforeEach
    void createPool() {
        pool = new TransientStorePool(1, FILE_SIZE, NATIVE);
        pool.init();
    }

    @AfterEach
    void destroyPool() {
        pool.destroy();
    }

    private static byte[] pattern(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + seed + (i >>> 12));
        }
        return bytes;
    }

    @Test
    void aBacklogOfSeveralStepsIsCommittedByteForByteAndReachesTheFile() throws IOException {
        PooledMappedFile file = new PooledMappedFile(dir, 0, FILE_SIZE, pool, NATIVE);
        int backlog = 2 * PooledMappedFile.COMMIT_STEP_BYTES + 12_345;
        byte[] data = pattern(backlog, 7);
        assertTrue(file.appendBytes(data, 0, data.length));
        assertNull(file.selectMappedBuffer(0), "nothing committed, nothing readable");

        assertEquals(backlog, file.commit(0));
        assertEquals(backlog, file.readPosition());
        try (SelectedRegion region = file.selectMappedBuffer(0)) {
            byte[] read = new byte[region.size()];
            region.buffer().get(read);
            assertArrayEquals(data, read, "every step landed at its own position");
        }
        assertEquals(backlog, file.flush(0));
        byte[] onDisk = Arrays.copyOf(Files.readAllBytes(file.path()), backlog);
        assertArrayEquals(data, onDisk);

        byte[] rest = pattern(FILE_SIZE - backlog, 11);
        assertTrue(file.appendBytes(rest, 0, rest.length));
        assertEquals(FILE_SIZE, file.commit(1000), "a full file commits whatever the page count");
        assertFalse(file.hasWriteBuffer(), "full and committed: the buffer went back");
        assertEquals(1, pool.availableBufferNums());
        assertEquals(FILE_SIZE, file.flush(0));
        byte[] whole = Files.readAllBytes(file.path());
        assertArrayEquals(data, Arrays.copyOf(whole, backlog));
        assertArrayEquals(rest, Arrays.copyOfRange(whole, backlog, FILE_SIZE));
        assertTrue(file.destroy(0));
    }
}
