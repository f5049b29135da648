package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.nativeio.RecordingLibC;
import dev.hangar.mmap.pool.TransientStorePool;
import dev.hangar.spi.mapped.SelectedRegion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PooledMappedFileTest {
    private static final int FILE_SIZE = 16 * 4096;
    private static final NativeMemory NATIVE = new NativeMemory(RecordingLibC.succeeding(), null);

    @TempDir
    Path dir;
    private TransientStorePool pool;

    @BeforeEach
    void createPool() {
        pool = new TransientStorePool(2, FILE_SIZE, NATIVE);
        pool.init();
    }

    @AfterEach
    void destroyPool() {
        pool.destroy();
    }

    private PooledMappedFile open(long offset) throws IOException {
        return new PooledMappedFile(dir, offset, FILE_SIZE, pool, NATIVE);
    }

    @Test
    void appendedDataIsNotReadableUntilCommittedAndThenItIsInTheFile() throws IOException {
        PooledMappedFile file = open(0);
        assertTrue(file.hasWriteBuffer());
        assertEquals(1, pool.availableBufferNums());
        file.append(TestAppends.record("committed later", 77));

        assertEquals(15, file.wrotePosition());
        assertEquals(0, file.committedPosition());
        assertEquals(0, file.readPosition());
        assertNull(file.selectMappedBuffer(0), "not committed, so not readable");
        assertEquals(0, file.flush(0), "nothing committed, nothing to flush");

        assertEquals(15, file.commit(0));
        assertEquals(15, file.readPosition());
        try (SelectedRegion region = file.selectMappedBuffer(0)) {
            assertNotNull(region);
            byte[] read = new byte[region.size()];
            region.buffer().get(read);
            assertEquals("committed later", new String(read, StandardCharsets.UTF_8));
        }
        assertEquals(15, file.flush(0));
        byte[] onDisk = Files.readAllBytes(file.path());
        assertEquals("committed later", new String(onDisk, 0, 15, StandardCharsets.UTF_8));
        assertTrue(file.destroy(0));
        assertEquals(2, pool.availableBufferNums(), "destroy gives the buffer back");
    }

    @Test
    void commitWaitsForEnoughDirtyPages() throws IOException {
        PooledMappedFile file = open(0);
        file.appendBytes(new byte[2 * 4096 + 1], 0, 2 * 4096 + 1);
        assertEquals(0, file.commit(4));
        assertEquals(2 * 4096 + 1, file.commit(2));
        file.appendBytes(new byte[10], 0, 10);
        assertEquals(2 * 4096 + 1, file.commit(1));
        assertEquals(2 * 4096 + 11, file.commit(0));
        assertTrue(file.destroy(0));
    }

    @Test
    void theBufferGoesBackToThePoolWhenTheFileIsFullAndCommitted() throws IOException {
        PooledMappedFile file = open(FILE_SIZE);
        byte[] page = new byte[4096];
        for (int i = 0; i < FILE_SIZE / 4096; i++) {
            page[0] = (byte) i;
            assertTrue(file.appendBytes(page, 0, page.length));
        }
        assertTrue(file.isFull());
        assertEquals(1, pool.availableBufferNums(), "still holding the buffer: nothing committed");

        assertEquals(FILE_SIZE, file.commit(1000), "a full file commits whatever the page count");
        assertFalse(file.hasWriteBuffer());
        assertEquals(2, pool.availableBufferNums());
        assertEquals(FILE_SIZE, file.readPosition());
        try (SelectedRegion region = file.selectMappedBuffer(5 * 4096, 1)) {
            assertEquals(5, region.buffer().get(0));
        }
        assertEquals(FILE_SIZE, file.flush(0));
        assertTrue(file.destroy(0));
        assertEquals(2, pool.availableBufferNums());
    }

    @Test
    void withoutAFreeBufferTheFileWritesThroughTheMapping() throws IOException {
        PooledMappedFile first = open(0);
        PooledMappedFile second = open(FILE_SIZE);
        PooledMappedFile third = open(2 * FILE_SIZE);
        assertFalse(third.hasWriteBuffer());
        third.appendBytes(new byte[] {1, 2, 3}, 0, 3);
        assertEquals(3, third.readPosition(), "readable at once, like the mmap variant");
        assertEquals(3, third.commit(0));
        assertEquals(3, third.flush(0));
        for (PooledMappedFile file : new PooledMappedFile[] {first, second, third}) {
            assertTrue(file.destroy(0));
        }
        assertEquals(2, pool.availableBufferNums());
    }

    @Test
    void aFailedForceOnAClosedChannelLeavesTheFlushedPositionUnchanged() throws IOException {
        PooledMappedFile file = open(0);
        file.appendBytes(new byte[100], 0, 100);
        file.commit(0);
        assertEquals(100, file.flush(0));
        file.appendBytes(new byte[100], 0, 100);
        file.commit(0);

        file.channel().close();
        assertThrows(IOException.class, () -> file.flush(0));
        assertEquals(100, file.flushedPosition());
        file.appendBytes(new byte[100], 0, 100);
        assertThrows(IOException.class, () -> file.commit(0));
        assertEquals(200, file.committedPosition(), "a failed commit does not move either");
        assertTrue(file.destroy(0));
    }

    @Test
    void aPoolOfAnotherSizeIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new PooledMappedFile(dir, 0, FILE_SIZE * 2, pool, NATIVE));
        assertFalse(Files.exists(dir.resolve(MappedFileNames.of(0))));
    }
}
