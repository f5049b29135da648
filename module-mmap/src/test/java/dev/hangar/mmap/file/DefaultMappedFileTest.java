package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.mapped.SelectedRegion;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefaultMappedFileTest {
    private static final String MESSAGE = "Once, there was a chance for me!";

    @TempDir
    Path dir;

    private DefaultMappedFile open(long offset, int size) throws IOException {
        return new DefaultMappedFile(dir, offset, size, NativeMemory.system());
    }

    @Test
    void isNamedByItsTwentyDigitStartOffsetAndHasTheConfiguredLength() throws IOException {
        DefaultMappedFile file = open(1024 * 1024, 64 * 1024);
        assertEquals("00000000000001048576", file.fileName());
        assertEquals(dir.resolve("00000000000001048576"), file.path());
        assertEquals(64 * 1024, Files.size(file.path()));
        assertEquals(1024 * 1024, file.fileFromOffset());
        assertTrue(file.destroy(0));
    }

    @Test
    void appendedMessageIsReadBackFromTheMapping() throws IOException {
        DefaultMappedFile file = open(0, 1024 * 1024);
        AppendMessageResult result = file.append(TestAppends.record(MESSAGE, 1234L));
        assertEquals(AppendMessageStatus.PUT_OK, result.status());
        assertEquals(MESSAGE.length(), file.wrotePosition());
        assertEquals(MESSAGE.length(), file.readPosition());
        assertEquals(1234L, file.storeTimestamp());

        try (SelectedRegion region = file.selectMappedBuffer(0)) {
            assertNotNull(region);
            assertEquals(0, region.startOffset());
            assertEquals(MESSAGE.length(), region.size());
            byte[] read = new byte[region.size()];
            region.buffer().get(read);
            assertEquals(MESSAGE, new String(read, StandardCharsets.UTF_8));
        }
        assertTrue(file.destroy(1000));
    }

    @Test
    void theCallbackGetsTheFileStartOffsetAPositionedTargetAndTheSameWriterBufferEveryTime() throws IOException {
        DefaultMappedFile file = open(4096, 4096);
        List<ByteBuffer> targets = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            file.append((fileFromOffset, target, maxBlank) -> {
                targets.add(target);
                offsets.add(fileFromOffset + target.position());
                assertEquals(4096L, fileFromOffset);
                assertEquals(target.remaining(), maxBlank);
                target.putLong(7L);
                return AppendMessageResult.of(AppendMessageStatus.PUT_OK, fileFromOffset + target.position() - 8, 8, List.of(), 1, 0, 1);
            });
        }
        assertSame(targets.get(0), targets.get(1));
        assertSame(targets.get(1), targets.get(2));
        assertEquals(List.of(4096L, 4104L, 4112L), offsets);
        assertEquals(24, file.wrotePosition());
        assertTrue(file.destroy(0));
    }

    @Test
    void aCallbackClaimingMoreBytesThanLeftIsRefusedWithoutMovingTheWritePosition() throws IOException {
        DefaultMappedFile file = open(0, 4096);
        file.appendBytes(new byte[100], 0, 100);
        assertThrows(IllegalStateException.class, () -> file.append((from, target, maxBlank) ->
                AppendMessageResult.of(AppendMessageStatus.PUT_OK, from, maxBlank + 1, List.of(), 1, 0, 1)));
        assertThrows(IllegalStateException.class, () -> file.append((from, target, maxBlank) -> null));
        assertEquals(100, file.wrotePosition());
        assertTrue(file.destroy(0));
    }

    @Test
    void rawBytesAreAppendedUntilTheFileIsFull() throws IOException {
        DefaultMappedFile file = open(0, 64);
        byte[] unit = new byte[20];
        Arrays.fill(unit, (byte) 7);
        assertTrue(file.appendBytes(unit, 0, 20));
        assertTrue(file.appendBytes(unit, 0, 20));
        assertTrue(file.appendBytes(unit, 0, 20));
        assertFalse(file.appendBytes(unit, 0, 20), "only 4 bytes are left");
        assertTrue(file.appendBytes(unit, 16, 4));
        assertTrue(file.isFull());
        assertEquals(AppendMessageStatus.UNKNOWN_ERROR, file.append(TestAppends.record("x", 1)).status());
        assertThrows(IndexOutOfBoundsException.class, () -> file.appendBytes(unit, 10, 20));
        assertTrue(file.destroy(0));
    }

    @Test
    void shutdownWaitsForReadersThenCleansUpAndDestroyDeletesTheFile() throws IOException {
        DefaultMappedFile file = open(0, 1024 * 1024);
        file.append(TestAppends.record(MESSAGE, 1));
        SelectedRegion region = file.selectMappedBuffer(0);
        assertNotNull(region);

        file.shutdown(1000);
        assertFalse(file.isAvailable());
        assertFalse(file.isCleanupOver(), "a reader still holds the file");
        assertFalse(file.hold(), "no new reader after shutdown");
        assertNull(file.selectMappedBuffer(0));

        region.close();
        assertTrue(file.isCleanupOver());
        assertTrue(file.destroy(1000));
        assertFalse(Files.exists(file.path()));
    }

    @Test
    void aReaderThatHoldsOnPastTheIntervalNoLongerKeepsTheFileOnDiskButKeepsItsMapping() throws IOException {
        DefaultMappedFile file = open(0, 4096);
        file.append(TestAppends.record(MESSAGE, 1));
        SelectedRegion region = file.selectMappedBuffer(0);
        assertNotNull(region);
        byte first = region.buffer().get(0);
        file.shutdown(0);
        assertFalse(file.isCleanupOver());
        assertTrue(file.destroy(0), "after the interval the file goes from the disk");
        assertFalse(Files.exists(file.path()));
        assertFalse(file.isCleanupOver(), "but it is not unmapped under its reader");
        assertEquals(first, region.buffer().get(0), "whose reads still work (an unmapped page would crash the JVM)");
        region.close();
        assertTrue(file.isCleanupOver(), "the last reader letting go unmaps it");
    }

    @Test
    void destroyFailsWhileAReaderHoldsTheFile() throws IOException {
        DefaultMappedFile file = open(0, 4096);
        assertTrue(file.hold());
        assertFalse(file.destroy(60_000));
        assertTrue(Files.exists(file.path()));
        file.release();
        assertTrue(file.destroy(60_000));
        assertFalse(Files.exists(file.path()));
    }

    @Test
    void flushFollowsTheDirtyPageRule() throws IOException {
        DefaultMappedFile file = open(0, 8 * 4096);
        file.appendBytes(new byte[3 * 4096 + 10], 0, 3 * 4096 + 10);
        assertEquals(0, file.flush(4), "3 dirty pages are fewer than 4");
        assertEquals(3 * 4096 + 10, file.flush(3));
        file.appendBytes(new byte[100], 0, 100);
        assertEquals(3 * 4096 + 10, file.flush(1), "still inside the same page");
        assertEquals(3 * 4096 + 110, file.flush(0), "leastPages 0 flushes any byte");
        assertEquals(3 * 4096 + 110, file.flush(0));
        file.appendBytes(new byte[8 * 4096 - (3 * 4096 + 110)], 0, 8 * 4096 - (3 * 4096 + 110));
        assertEquals(8 * 4096, file.flush(1000), "a full file is flushed whatever the page count");
        assertThrows(IllegalArgumentException.class, () -> file.flush(-1));
        assertTrue(file.destroy(0));
    }

    @Test
    void aFailedForceThrowsAndLeavesTheFlushedPositionWhereItWas() throws IOException {
        FailingForce file = new FailingForce(dir);
        file.appendBytes(new byte[5000], 0, 5000);
        assertEquals(5000, file.flush(0));
        file.appendBytes(new byte[5000], 0, 5000);
        file.failing = true;
        IOException error = assertThrows(IOException.class, () -> file.flush(0));
        assertTrue(error.getMessage().contains("device gone"));
        assertEquals(5000, file.flushedPosition());
        file.failing = false;
        assertEquals(10_000, file.flush(0));
        assertTrue(file.destroy(0));
    }

    @Test
    void regionsAreOnlyHandedOutForWrittenBytes() throws IOException {
        DefaultMappedFile file = open(8192, 4096);
        file.appendBytes("hello, mapped world".getBytes(StandardCharsets.US_ASCII), 0, 19);
        assertNull(file.selectMappedBuffer(19), "nothing written at 19 yet");
        assertNull(file.selectMappedBuffer(10, 10), "only 9 bytes readable from 10");
        assertThrows(IllegalArgumentException.class, () -> file.selectMappedBuffer(-1));
        assertThrows(IllegalArgumentException.class, () -> file.selectMappedBuffer(0, -1));
        try (SelectedRegion region = file.selectMappedBuffer(7, 6)) {
            assertEquals(8192 + 7, region.startOffset());
            byte[] read = new byte[6];
            region.buffer().get(read);
            assertArrayEquals("mapped".getBytes(StandardCharsets.US_ASCII), read);
        }
        assertEquals(1, file.refCount(), "the region released its reference");
        assertTrue(file.destroy(0));
    }

    @Test
    void positionsOutsideTheFileAreRefused() throws IOException {
        DefaultMappedFile file = open(0, 4096);
        assertThrows(IllegalArgumentException.class, () -> file.wrotePosition(4097));
        assertThrows(IllegalArgumentException.class, () -> file.flushedPosition(-1));
        assertThrows(IllegalArgumentException.class, () -> new DefaultMappedFile(dir, -1, 4096, NativeMemory.system()));
        assertThrows(IllegalArgumentException.class, () -> new DefaultMappedFile(dir, 0, 0, NativeMemory.system()));
        assertTrue(file.destroy(0));
    }

    @Test
    void mappedMemoryIsCountedWhileMapped() throws IOException {
        long memoryBefore = MappedMemoryCounters.totalMappedVirtualMemory();
        int filesBefore = MappedMemoryCounters.totalMappedFiles();
        DefaultMappedFile file = open(0, 3 * 4096);
        assertEquals(memoryBefore + 3 * 4096, dev.hangar.mmap.MappedMemoryStats.totalMappedVirtualMemory());
        assertEquals(filesBefore + 1, dev.hangar.mmap.MappedMemoryStats.totalMappedFiles());
        assertTrue(file.destroy(0));
        assertEquals(memoryBefore, dev.hangar.mmap.MappedMemoryStats.totalMappedVirtualMemory());
        assertEquals(filesBefore, dev.hangar.mmap.MappedMemoryStats.totalMappedFiles());
    }

    @Test
    void appendsReachTheFileOnDisk() throws IOException {
        DefaultMappedFile file = open(0, 4096);
        file.append(TestAppends.record(MESSAGE, 1));
        file.flush(0);
        file.shutdown(0);
        byte[] onDisk = Files.readAllBytes(file.path());
        assertEquals(MESSAGE, new String(onDisk, 0, MESSAGE.length(), StandardCharsets.UTF_8));
        assertTrue(file.destroy(0));
    }

    /** A file whose device refuses to sync on demand. */
    private static final class FailingForce extends DefaultMappedFile {
        volatile boolean failing;

        FailingForce(Path dir) throws IOException {
            super(dir, 0, 64 * 1024, NativeMemory.system());
        }

        @Override
        protected void forceToDisk(int from, int to) throws IOException {
            if (failing) {
                throw new IOException("device gone");
            }
            super.forceToDisk(from, to);
        }
    }
}
