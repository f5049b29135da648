package dev.hangar.dispatch.index;

import java.nio.MappedByteBuffer;

/**
 * A hint for the mapping of a writable index file, given right after it is mapped and before its hash slots are
 * touched: the store's {@code MappedStorage.adviseHugePages} (2 MiB pages behind the slots, whose writes land at
 * random places: one page fault per 2 MiB instead of one per 4 KiB page a key lands on; no read-around past them),
 * or nothing.
 */
@FunctionalInterface
interface HashSlotAdvice {
    /** Gives no advice (tests, read-only files). */
    HashSlotAdvice NONE = (mapping, length) -> false;

    /** Advises the first {@code length} bytes of {@code mapping}; true when advice was given. */
    boolean advise(MappedByteBuffer mapping, long length);
}
