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

    public RecordingLibC(int returnCode) {
        this.returnCode = returnCode;
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
}
