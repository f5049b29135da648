package dev.hangar.mmap.file;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The counters behind {@link dev.hangar.mmap.MappedMemoryStats}; updated by the mapped files of this module when
 * they map and unmap. Thread-safe (atomics).
 */
public final class MappedMemoryCounters {
    private static final AtomicLong MAPPED_VIRTUAL_MEMORY = new AtomicLong();
    private static final AtomicInteger MAPPED_FILES = new AtomicInteger();

    private MappedMemoryCounters() {
    }

    static void mapped(long bytes) {
        MAPPED_VIRTUAL_MEMORY.addAndGet(bytes);
        MAPPED_FILES.incrementAndGet();
    }

    static void unmapped(long bytes) {
        MAPPED_VIRTUAL_MEMORY.addAndGet(-bytes);
        MAPPED_FILES.decrementAndGet();
    }

    public static long totalMappedVirtualMemory() {
        return MAPPED_VIRTUAL_MEMORY.get();
    }

    public static int totalMappedFiles() {
        return MAPPED_FILES.get();
    }
}
