package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.LibC;
import dev.hangar.mmap.nativeio.NativeMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the kernel to back a mapping with transparent huge pages ({@code madvise(MADV_HUGEPAGE)}): the page cache then
 * holds the range in 2 MiB folios, each mapped by one page-middle-directory entry instead of 512 page-table entries.
 *
 * <p>Why, for a mapping written in place (docs/PERFORMANCE.md section 47 has the figures):
 * <ul>
 *   <li>A write-back (the async flush's {@code msync}) write-protects every mapped page it cleans, and with the
 *       process's threads on other CPUs each one costs a TLB-flush interrupt there. With 4 KiB entries that was the
 *       flush thread's whole cost, about 1.2 µs per 1 KiB message on a 2-core VM; a 2 MiB entry is protected
 *       once.</li>
 *   <li>Without the advice the kernel maps a file written through its mapping with 4 KiB entries: a probe of an
 *       8 MiB file, written, forced and written again, had none of it in 2 MiB entries. (A 256 MiB file faulted
 *       in sequentially did end up mostly in 2 MiB entries as the kernel's read-around grew, yet its forces still
 *       cost per 4 KiB page, 5-7 µs each with another thread running, against 0.3-0.4 µs advised.)</li>
 *   <li>Scattered writes (an index's hash slots) fault once per 2 MiB instead of once per page they land on, and
 *       their TLB misses fall away.</li>
 * </ul>
 * The advice has no effect where {@code /sys/kernel/mm/transparent_hugepage/enabled} is {@code never} (or the
 * kernel has no transparent huge pages): {@link #of} reads that once, and then nothing is advised.
 *
 * <p>Only a mapping that starts on a 2 MiB boundary is advised. A 2 MiB page of the page cache can be mapped by one
 * entry only where the virtual address and the file offset agree modulo 2 MiB; ext4 places a whole-file mapping so,
 * other file systems (overlayfs, a container's own layer) need not. Advised there, the kernel still makes 2 MiB pages
 * in the page cache, so every async flush writes the whole 2 MiB page at the write position again, while each 4 KiB
 * entry is still write-protected on its own: the cost without the gain. Such a mapping is left alone, with one
 * warning ({@link #refusedMisaligned}).
 *
 * <p>Thread-safe.
 */
public final class HugePageAdvice {
    private static final Logger LOG = LoggerFactory.getLogger(HugePageAdvice.class);
    static final Path ENABLED = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    /** The size of a transparent huge page on x86-64 and the other 4 KiB-page platforms. */
    public static final int HUGE_PAGE = 2 * 1024 * 1024;
    private static final HugePageAdvice NONE = new HugePageAdvice(null, "off");

    private final NativeMemory nativeMemory;
    /** The kernel's mode ({@code always}, {@code madvise}, {@code never}), or why nothing is advised. */
    private final String mode;
    private final AtomicLong refusedMisaligned = new AtomicLong();
    private final AtomicBoolean misalignedWarned = new AtomicBoolean();

    private HugePageAdvice(NativeMemory nativeMemory, String mode) {
        this.nativeMemory = nativeMemory;
        this.mode = mode;
    }

    /** Advises nothing (the configuration turned it off). */
    public static HugePageAdvice none() {
        return NONE;
    }

    /** Advises through {@code nativeMemory} when the running kernel's mode ({@link #ENABLED}) lets it matter. */
    public static HugePageAdvice of(NativeMemory nativeMemory) {
        return of(nativeMemory, kernelMode(ENABLED));
    }

    /** As {@link #of(NativeMemory)} with the kernel's mode given ({@code always}, {@code madvise}, ...; for tests). */
    static HugePageAdvice of(NativeMemory nativeMemory, String kernelMode) {
        Objects.requireNonNull(nativeMemory, "nativeMemory");
        boolean useful = ("always".equals(kernelMode) || "madvise".equals(kernelMode)) && nativeMemory.isAvailable();
        String mode = nativeMemory.isAvailable() ? kernelMode
                : kernelMode + ", but no native calls: " + nativeMemory.unavailableReason();
        return new HugePageAdvice(useful ? nativeMemory : null, mode);
    }

    /** The selected word of a sysfs mode line such as {@code always [madvise] never}, or why there is none. */
    static String kernelMode(Path enabled) {
        String line;
        try {
            line = Files.readString(enabled).trim();
        } catch (IOException e) {
            return "unavailable (no " + enabled + ")";
        }
        int open = line.indexOf('[');
        int close = line.indexOf(']', open + 1);
        return open >= 0 && close > open ? line.substring(open + 1, close) : "unreadable (" + line + ")";
    }

    /** True when {@link #advise} asks the kernel anything. */
    public boolean effective() {
        return nativeMemory != null;
    }

    /** What the log says about it: the kernel's mode and whether it is used. */
    public String describe() {
        return effective() ? "transparent huge pages (kernel mode " + mode + ")"
                : "no transparent huge pages (" + (this == NONE ? "transparentHugePages=false" : "kernel mode " + mode)
                + ")";
    }

    /**
     * Advises the first {@code length} bytes of {@code mapping} (a direct buffer over a mapping of a file from its
     * start), an area written at scattered places: 2 MiB pages, and no read-around ({@code MADV_RANDOM}). Without
     * the second, a fault in a huge-page range reads two 2 MiB pages, and the one after the advised range (an index
     * file's entries) would become a 2 MiB page as well, written back whole. Call it before anything touches the
     * range: pages already in the page cache keep their size. False when nothing was advised (off, a mapping not on
     * a 2 MiB boundary, {@code length} past the buffer, or the call failed: {@link NativeMemory} logs that once).
     */
    public boolean advise(ByteBuffer mapping, long length) {
        if (nativeMemory == null || mapping == null || length <= 0 || length > mapping.capacity()
                || !alignedForHugePages(mapping)) {
            return false;
        }
        if (!nativeMemory.madvise(mapping, length, LibC.MADV_HUGEPAGE)) {
            return false;
        }
        nativeMemory.madvise(mapping, length, LibC.MADV_RANDOM);
        return true;
    }

    /**
     * Advises {@code [from, from + length)} of {@code mapping} (a mapping of a file from its start; {@code from} a
     * multiple of 2 MiB) as {@link #advise(ByteBuffer, long)} does: 2 MiB pages and no read-around. False when
     * nothing was advised.
     */
    public boolean advise(MappedByteBuffer mapping, int from, int length) {
        if (mapping == null || length <= 0) {
            return false;
        }
        return advise(mapping.slice(from, length), length);
    }

    /** Calls of {@code advise} refused so far because the mapping does not start on a 2 MiB boundary. */
    public long refusedMisaligned() {
        return refusedMisaligned.get();
    }

    private boolean alignedForHugePages(ByteBuffer mapping) {
        long address = nativeMemory.address(mapping);
        if (address >= 0 && address % HUGE_PAGE == 0) {
            return true;
        }
        refusedMisaligned.incrementAndGet();
        if (misalignedWarned.compareAndSet(false, true)) {
            LOG.warn("a mapping at {} does not start on a 2 MiB boundary (its file system does not place mappings for"
                    + " huge pages, e.g. overlayfs): such mappings keep 4 KiB pages; transparentHugePages=false says"
                    + " so for good", address < 0 ? "an unknown address" : "0x" + Long.toHexString(address));
        }
        return false;
    }

    /**
     * Advises {@code [from, from + length)} of {@code mapping} {@code MADV_RANDOM}: a fault there reads no pages
     * around it (one 4 KiB page, or one 2 MiB page where huge pages are advised). Ahead of a writer that keeps the
     * kernel's file read-ahead from starting a stream of small folios that would run on ahead of the faults into
     * the regions advised huge pages later. False when nothing was advised.
     */
    boolean noReadAround(MappedByteBuffer mapping, int from, int length) {
        if (nativeMemory == null || mapping == null || length <= 0) {
            return false;
        }
        return nativeMemory.madvise(mapping.slice(from, length), length, LibC.MADV_RANDOM);
    }

    /**
     * Takes {@link #noReadAround} back for the whole of {@code mapping} ({@code MADV_NORMAL}; the huge-page advice
     * stays): once a file is written, a reader that faults on it from disk (a consumer far behind, a new slave) gets
     * the kernel's read-around again instead of a page per fault.
     */
    boolean readAroundAgain(MappedByteBuffer mapping, int length) {
        if (nativeMemory == null || mapping == null || length <= 0) {
            return false;
        }
        return nativeMemory.madvise(mapping, length, LibC.MADV_NORMAL);
    }

    /**
     * Faults {@code [from, from + length)} of {@code mapping} in readable ({@code MADV_POPULATE_READ}): through an
     * advised range, clean 2 MiB pages of the file's zeros. False when it could not (off, or an older kernel).
     */
    boolean populateRead(MappedByteBuffer mapping, int from, int length) {
        if (nativeMemory == null || mapping == null || length <= 0) {
            return false;
        }
        return nativeMemory.madvise(mapping.slice(from, length), length, LibC.MADV_POPULATE_READ);
    }
}
