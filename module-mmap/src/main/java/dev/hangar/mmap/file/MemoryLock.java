package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.NativeMemory;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * The mlock a new file's warm-up takes ({@link FileWarmUp}) and {@code unlockMemory} gives back. The caller holds a
 * reference on the file around both, so the mapping stays valid.
 */
final class MemoryLock {
    private final NativeMemory nativeMemory;
    private volatile boolean locked;

    MemoryLock(NativeMemory nativeMemory) {
        this.nativeMemory = nativeMemory;
    }

    /** Warms the file and mlocks it ({@link FileWarmUp#warm}); remembers whether the lock was taken. */
    void warm(Path path, MappedByteBuffer mapped, int fileSize, int flushLeastPages, BooleanSupplier abandon) {
        locked = FileWarmUp.warm(path, mapped, fileSize, nativeMemory, flushLeastPages, abandon);
    }

    void unlock(MappedByteBuffer mapped, int fileSize) {
        if (locked) {
            nativeMemory.munlock(mapped, fileSize);
            locked = false;
        }
    }

    boolean locked() {
        return locked;
    }
}
