package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.LibC;
import dev.hangar.mmap.nativeio.NativeMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

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
 * <p>Thread-safe.
 */
public final class HugePageAdvice {
    static final Path ENABLED = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    private static final HugePageAdvice NONE = new HugePageAdvice(null, "off");

    private final NativeMemory nativeMemory;
    /** The kernel's mode ({@code always}, {@code madvise}, {@code never}), or why nothing is advised. */
    private final String mode;

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
        return new HugePageAdvice(useful ? nativeMemory : null, kernelMode);
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
     * Advises the first {@code length} bytes of {@code mapping} (a direct buffer over a mapping, page aligned at its
     * start). Call it before anything touches the range: pages already in the page cache keep their size. False when
     * nothing was advised (off, or the call failed: {@link NativeMemory} logs that once).
     */
    public boolean advise(ByteBuffer mapping, long length) {
        if (nativeMemory == null || mapping == null || length <= 0) {
            return false;
        }
        return nativeMemory.madvise(mapping, length, LibC.MADV_HUGEPAGE);
    }

    /**
     * Advises {@code [from, from + length)} of {@code mapping} (page aligned). False when nothing was advised (off, or
     * the call failed: {@link NativeMemory} logs that once).
     */
    public boolean advise(MappedByteBuffer mapping, int from, int length) {
        if (nativeMemory == null || mapping == null || length <= 0) {
            return false;
        }
        return nativeMemory.madvise(mapping.slice(from, length), length, LibC.MADV_HUGEPAGE);
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
