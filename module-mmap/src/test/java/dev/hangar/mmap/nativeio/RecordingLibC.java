package dev.hangar.mmap.nativeio;

import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import java.util.concurrent.atomic.AtomicInteger;

/** A libc stand-in for tests: counts calls and answers with a fixed return code (-1 = failure). */
public final class RecordingLibC implements LibC {
    private final int returnCode;
    public final AtomicInteger mlocks = new AtomicInteger();
    public final AtomicInteger munlocks = new AtomicInteger();
    public final AtomicInteger madvises = new AtomicInteger();
    public final AtomicInteger fallocates = new AtomicInteger();
    /** Every path opened for writing (pre-allocation opens the file it reserves). */
    public final java.util.List<String> opened = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Every path opened read-only (a directory whose file system is synced with syncfs). */
    public final java.util.List<String> openedReadOnly = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** What posix_fallocate answers: 0, or an error number such as 28 (ENOSPC). */
    public volatile int fallocateResult;

    public RecordingLibC(int returnCode) {
        this.returnCode = returnCode;
        this.fallocateResult = returnCode == 0 ? 0 : 95; // EOPNOTSUPP
    }

    /** Every call fails, as mlock does past RLIMIT_MEMLOCK without CAP_IPC_LOCK. */
    public static RecordingLibC failing() {
        return new RecordingLibC(-1);
    }

    public static RecordingLibC succeeding() {
        return new RecordingLibC(0);
    }

    @Override
    public int mlock(Pointer address, NativeLong length) {
        mlocks.incrementAndGet();
        return returnCode;
    }

    @Override
    public int munlock(Pointer address, NativeLong length) {
        munlocks.incrementAndGet();
        return returnCode;
    }

    @Override
    public int madvise(Pointer address, NativeLong length, int advice) {
        madvises.incrementAndGet();
        return returnCode;
    }

    @Override
    public int mincore(Pointer address, NativeLong length, byte[] vector) {
        return returnCode;
    }

    @Override
    public int open(String path, int flags) {
        (flags == O_RDONLY ? openedReadOnly : opened).add(path);
        return 1000;
    }

    @Override
    public int close(int fd) {
        return 0;
    }

    /** Called at each syncfs before it answers (a test snapshots what the disk would hold); may be null. */
    public volatile Runnable onSyncfs;
    public final AtomicInteger syncfsCalls = new AtomicInteger();
    /** What syncfs answers: 0, or -1 (a write-back error). */
    public volatile int syncfsResult;

    /** True: syncfs is missing from this C library (the call throws UnsatisfiedLinkError). */
    public volatile boolean noSyncfs;

    @Override
    public int syncfs(int fd) {
        if (noSyncfs) {
            throw new UnsatisfiedLinkError("Error looking up function 'syncfs'");
        }
        syncfsCalls.incrementAndGet();
        Runnable hook = onSyncfs;
        if (hook != null) {
            hook.run();
        }
        return syncfsResult;
    }

    @Override
    public int posix_fallocate(int fd, long offset, long length) {
        fallocates.incrementAndGet();
        return fallocateResult;
    }

    public final AtomicInteger fadvises = new AtomicInteger();

    @Override
    public int posix_fadvise(int fd, long offset, long length, int advice) {
        fadvises.incrementAndGet();
        return 0;
    }
}
