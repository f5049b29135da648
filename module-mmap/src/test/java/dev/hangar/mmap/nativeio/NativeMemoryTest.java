package dev.hangar.mmap.nativeio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NativeMemoryTest {

    @Test
    void aFailingMlockReturnsFalseAndWarnsOnlyOnce() {
        RecordingLibC libc = RecordingLibC.failing();
        NativeMemory memory = new NativeMemory(libc, null);
        ByteBuffer buffer = ByteBuffer.allocateDirect(4096);

        assertFalse(memory.mlock(buffer, 4096));
        assertFalse(memory.mlock(buffer, 4096));
        assertFalse(memory.mlock(buffer, 4096));
        assertEquals(3, libc.mlocks.get());
        assertEquals(3, memory.failures());
        assertEquals(1, memory.warningsLogged());

        assertFalse(memory.munlock(buffer, 4096));
        assertEquals(2, memory.warningsLogged(), "one warning per kind of call");
        buffer.putInt(0, 42);
        assertEquals(42, buffer.getInt(0), "the buffer stays usable");
    }

    @Test
    void aRealLibcFailureIsReportedWithItsErrno() {
        NativeMemory memory = NativeMemory.load();
        ByteBuffer buffer = ByteBuffer.allocateDirect(8192);
        int noSuchAdvice = 9_999;

        assertFalse(memory.madvise(buffer, 4096, noSuchAdvice));
        assertFalse(memory.madvise(buffer, 4096, noSuchAdvice));
        assertEquals(2, memory.failures());
        assertEquals(1, memory.warningsLogged());
        if (memory.isAvailable()) {
            assertTrue(memory.lastFailure().contains("EINVAL"), memory.lastFailure());
        }
    }

    @Test
    void withoutTheCLibraryEveryCallFailsQuietlyWithTheReason() {
        NativeMemory memory = new NativeMemory(null, "JNA missing in this test");
        ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
        assertFalse(memory.isAvailable());
        assertFalse(memory.mlock(buffer, 4096));
        assertFalse(memory.munlock(buffer, 4096));
        assertFalse(memory.madvise(buffer, 4096, LibC.MADV_WILLNEED));
        assertTrue(memory.lastFailure().contains("JNA missing"));
        assertEquals(3, memory.warningsLogged());
    }

    @Test
    void aLockThroughTheRealLibcReallyLocksTheMemoryAndTheUnlockReleasesIt() throws IOException {
        NativeMemory memory = NativeMemory.load();
        int size = 256 * 1024;
        ByteBuffer buffer = ByteBuffer.allocateDirect(size);
        long before = lockedKiloBytes();
        boolean locked = memory.mlock(buffer, size);
        long whileLocked = lockedKiloBytes();
        if (locked) {
            assertTrue(whileLocked - before >= size / 1024 - 4,
                    "the kernel counts the pages as locked (VmLck " + before + " -> " + whileLocked + " kB)");
            assertTrue(memory.munlock(buffer, size));
            long after = lockedKiloBytes();
            assertTrue(whileLocked - after >= size / 1024 - 4, "and no longer after the unlock (VmLck "
                    + whileLocked + " -> " + after + " kB)");
            assertEquals(0, memory.failures());
        } else {
            // no CAP_IPC_LOCK and a small RLIMIT_MEMLOCK: the refusal is reported, nothing is locked
            assertEquals(1, memory.failures());
            assertTrue(memory.lastFailure().contains("mlock"), memory.lastFailure());
            assertTrue(whileLocked - before < size / 1024, "VmLck " + before + " -> " + whileLocked + " kB");
        }
    }

    /** The process's locked memory as the kernel counts it ({@code VmLck} in /proc/self/status). */
    private static long lockedKiloBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmLck:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new AssertionError("no VmLck line in /proc/self/status");
    }

    @Test
    void heapBuffersAndBadLengthsAreRefused() {
        NativeMemory memory = new NativeMemory(RecordingLibC.succeeding(), null);
        assertThrows(IllegalArgumentException.class, () -> memory.mlock(ByteBuffer.allocate(4096), 4096));
        assertThrows(IllegalArgumentException.class, () -> memory.mlock(ByteBuffer.allocateDirect(4096), 4097));
        assertThrows(IllegalArgumentException.class, () -> memory.mlock(ByteBuffer.allocateDirect(4096), -1));
    }
}
