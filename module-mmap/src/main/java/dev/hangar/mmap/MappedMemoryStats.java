package dev.hangar.mmap;

import dev.hangar.mmap.file.MappedMemoryCounters;

/**
 * Process-wide totals of what the mapped files of this module hold mapped right now: virtual memory in bytes
 * and the number of mappings. Counted when a file is mapped and when it is unmapped.
 *
 * <p>Thread-safe: the values are read from atomic counters and may change between two calls.
 */
public final class MappedMemoryStats {

    private MappedMemoryStats() {
    }

    /** Bytes of virtual memory currently mapped by mapped files. */
    public static long totalMappedVirtualMemory() {
        return MappedMemoryCounters.totalMappedVirtualMemory();
    }

    /** Mapped files currently mapped (not yet unmapped). */
    public static int totalMappedFiles() {
        return MappedMemoryCounters.totalMappedFiles();
    }
}
