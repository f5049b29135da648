package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.spi.mapped.AppendCallback;
import dev.hangar.spi.mapped.SelectedRegion;
import dev.hangar.spi.store.AppendMessageResult;
import dev.hangar.spi.store.AppendMessageStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CopyOnWriteMappedFileTest {
    private static final int PAGE = CopyOnWriteMappedFile.PAGE;
    private static final int FILE_SIZE = 16 * PAGE;

    @TempDir
    Path dir;

    private CopyOnWriteMappedFile open(NativeMemory nativeMemory) throws IOException {
        return new CopyOnWriteMappedFile(dir, 0, FILE_SIZE, nativeMemory);
    }

    private static byte[] pattern(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void appendedBytesReachNeitherTheFileNorReadersUntilCommitted() throws IOException {
        CopyOnWriteMappedFile file = open(NativeMemory.system());
        byte[] record = pattern(PAGE + 100, 1);
        file.append(TestAppends.record(record, 5));

        assertEquals(record.length, file.wrotePosition());
        assertEquals(0, file.readPosition());
        assertNull(file.selectMappedBuffer(0), "not committed, so not readable");
        byte[] onDiskBefore = Arrays.copyOf(Files.readAllBytes(file.path()), record.length);
        assertArrayEquals(new byte[record.length], onDiskBefore, "the private mapping must not write the file");

        assertEquals(record.length, file.commit(0));
        assertArrayEquals(record, Arrays.copyOf(Files.readAllBytes(file.path()), record.length));
        try (SelectedRegion region = file.selectMappedBuffer(0)) {
            assertNotNull(region);
            byte[] read = new byte[region.size()];
            region.buffer().get(read);
            assertArrayEquals(record, read);
        }
        assertEquals(record.length, file.flush(0));
        assertTrue(file.destroy(0));
    }

    /**
     * After a commit the private copies of the wholly committed pages are given back; the writer's buffer must
     * still show every byte written (now read from the file), because append callbacks may read what is behind
     * the write position (the replica appender does).
     */
    @Test
    void committedPagesAreGivenBackAndTheWriterStillSeesTheirBytes() throws IOException {
        NativeMemory nativeMemory = NativeMemory.system();
        assertTrue(nativeMemory.isAvailable(), "madvise through JNA (a dependency of the build) must be available");
        assertTrue(PAGE > 0, "the kernel page size was read");
        CopyOnWriteMappedFile file = open(nativeMemory);
        byte[] first = pattern(3 * PAGE + 10, 2);
        byte[] second = pattern(PAGE, 3);
        file.append(TestAppends.record(first, 1));
        file.commit(0);
        assertEquals(3 * PAGE, file.droppedBytes(), "the three whole pages below the committed position");
        file.append(TestAppends.record(second, 2));
        file.commit(0);
        assertEquals(4 * PAGE, file.droppedBytes());

        byte[] seenByWriter = new byte[first.length + second.length];
        file.append(readBehind(seenByWriter));
        byte[] expected = Arrays.copyOf(first, seenByWriter.length);
        System.arraycopy(second, 0, expected, first.length, second.length);
        assertArrayEquals(expected, seenByWriter, "dropped pages must read back as the file's (committed) bytes");
        assertEquals(0, nativeMemory.failures());
        assertTrue(file.destroy(0));
    }

    @Test
    void withoutNativeCallsNothingIsGivenBackAndNothingIsLost() throws IOException {
        CopyOnWriteMappedFile file = open(new NativeMemory(null, "disabled for the test"));
        byte[] record = pattern(2 * PAGE, 4);
        file.append(TestAppends.record(record, 1));
        file.commit(0);
        assertEquals(0, file.droppedBytes());
        assertArrayEquals(record, Arrays.copyOf(Files.readAllBytes(file.path()), record.length));
        assertTrue(file.destroy(0));
    }

    @Test
    void aReopenedFileContinuesFromTheRecoveredPosition() throws IOException {
        byte[] record = pattern(PAGE + 1, 5);
        CopyOnWriteMappedFile file = open(NativeMemory.system());
        file.append(TestAppends.record(record, 1));
        file.commit(0);
        file.flush(0);
        file.shutdown(0);

        CopyOnWriteMappedFile reopened = open(NativeMemory.system());
        reopened.wrotePosition(record.length);
        reopened.committedPosition(record.length);
        byte[] more = pattern(100, 6);
        reopened.append(TestAppends.record(more, 2));
        reopened.commit(0);
        byte[] onDisk = Files.readAllBytes(reopened.path());
        assertArrayEquals(record, Arrays.copyOf(onDisk, record.length));
        assertArrayEquals(more, Arrays.copyOfRange(onDisk, record.length, record.length + more.length));
        assertTrue(reopened.destroy(0));
    }

    /** Reads {@code into.length} bytes from the start of the writer's buffer and appends nothing. */
    private static AppendCallback readBehind(byte[] into) {
        return (fileFromOffset, target, maxBlank) -> {
            target.get(0, into);
            return AppendMessageResult.of(AppendMessageStatus.PUT_OK, fileFromOffset, 0, List.of(), 0, 0, 0);
        };
    }
}
