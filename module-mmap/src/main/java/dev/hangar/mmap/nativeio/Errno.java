package dev.hangar.mmap.nativeio;

/** Human-readable reasons for the errno values mlock/munlock/madvise report on Linux. Stateless. */
final class Errno {
    static final int EPERM = 1;
    static final int EAGAIN = 11;
    static final int ENOMEM = 12;
    static final int EINVAL = 22;

    private Errno() {
    }

    static String describe(int errno, boolean locking) {
        return switch (errno) {
            case EPERM -> "EPERM (1): the process lacks CAP_IPC_LOCK";
            case EAGAIN -> "EAGAIN (11): some pages could not be locked";
            case ENOMEM -> locking
                    ? "ENOMEM (12): over RLIMIT_MEMLOCK without CAP_IPC_LOCK, or the range is not mapped"
                    : "ENOMEM (12): the range is not mapped";
            case EINVAL -> "EINVAL (22): bad address, length or advice";
            default -> "errno " + errno;
        };
    }
}
