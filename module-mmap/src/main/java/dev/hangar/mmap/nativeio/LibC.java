package dev.hangar.mmap.nativeio;

import com.sun.jna.Library;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;

/**
 * The libc calls mapped files use, bound through JNA. Lengths are {@code size_t}, which is
 * {@link NativeLong} on LP64 and ILP32 Linux. Each returns 0 on success and -1 with errno set on failure.
 * Thread-safe (plain libc calls); use it through {@link NativeMemory}, which turns failures into one warning.
 */
public interface LibC extends Library {
    /** {@code madvise} advice: no special treatment (the default read-around on faults). */
    int MADV_NORMAL = 0;
    /** {@code madvise} advice: expect page references in random order, so a fault reads no pages around it. */
    int MADV_RANDOM = 1;
    /** {@code madvise} advice: the pages will be needed soon, read them ahead. */
    int MADV_WILLNEED = 3;
    /** {@code madvise} advice: the pages are not needed any more. */
    int MADV_DONTNEED = 4;
    /**
     * {@code madvise} advice: back the range with transparent huge pages (2 MiB folios mapped by one page-table entry)
     * where the kernel's {@code transparent_hugepage/enabled} is {@code always} or {@code madvise}. Kernels built
     * without transparent huge pages answer EINVAL.
     */
    int MADV_HUGEPAGE = 14;
    /**
     * {@code madvise} advice (Linux 5.14+): fault the pages in readable now, as a read would (clean, mapped
     * read-only). Older kernels answer EINVAL.
     */
    int MADV_POPULATE_READ = 22;
    /**
     * {@code madvise} advice (Linux 5.14+): fault the pages in writable now, as a write would, without writing
     * anything into them. Older kernels answer EINVAL.
     */
    int MADV_POPULATE_WRITE = 23;

    int mlock(Pointer address, NativeLong length);

    int munlock(Pointer address, NativeLong length);

    int madvise(Pointer address, NativeLong length, int advice);

    /**
     * One byte per page of {@code [address, address + length)} ({@code address} page aligned): bit 0 set when the
     * page is in the page cache, mapped by this process or not.
     */
    int mincore(Pointer address, NativeLong length, byte[] vector);

    /** {@code open} flag: read and write. */
    int O_RDWR = 2;
    /** {@code open} flag: read only (enough for a directory whose file system is to be synced). */
    int O_RDONLY = 0;

    int open(String path, int flags);

    int close(int fd);

    /**
     * Writes back and forces every dirty page and inode of the file system holding {@code fd} (Linux 2.6.39+);
     * since Linux 5.8 it fails when a write-back error hit that file system after {@code fd} was opened.
     */
    int syncfs(int fd);

    /** Allocates disk blocks for [offset, offset + length); returns 0 or an error number (errno is not set). */
    int posix_fallocate(int fd, long offset, long length);

    /** {@code posix_fadvise} advice: drop the clean, unmapped pages of the range from the page cache. */
    int POSIX_FADV_DONTNEED = 4;

    /** Gives the kernel {@code advice} about [offset, offset + length); returns 0 or an error number. */
    int posix_fadvise(int fd, long offset, long length, int advice);
}
