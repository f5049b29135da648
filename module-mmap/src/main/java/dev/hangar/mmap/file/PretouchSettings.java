package dev.hangar.mmap.file;

/**
 * What a {@link CommitLogPretoucher} does, from the store's configuration ({@code pretouchAheadBytes},
 * {@code pretouchReadAheadBytes}, {@code pretouchNextFileHeadBytes}, {@code pageCacheKeepBehindBytes}).
 *
 * @param aheadBytes         how far past the write position pages are kept faulted in (at least one page)
 * @param readAheadBytes     how far past the write position pages are kept in the page cache by reading them
 *                           (0: not at all; else at least {@code aheadBytes})
 * @param nextFileHeadBytes  when {@code readAheadBytes} is 0: how many bytes at the head of the next file are read
 *                           into the page cache before the writer rolls into it (0: none)
 * @param pageCacheKeepBytes CommitLog bytes behind the flushed position left in the page cache; older pages are
 *                           given back to the kernel ({@link PageCacheRecycler}; 0: never, the kernel decides)
 * @param idleParkNanos      how long the thread sleeps when every watched file is touched far enough ahead
 */
public record PretouchSettings(int aheadBytes, int readAheadBytes, int nextFileHeadBytes, long pageCacheKeepBytes,
                               long idleParkNanos) {
    public PretouchSettings {
        if (aheadBytes < DirtyPages.OS_PAGE_SIZE) {
            throw new IllegalArgumentException("the pretouch distance must be at least one page ("
                    + DirtyPages.OS_PAGE_SIZE + " bytes): " + aheadBytes);
        }
        if (idleParkNanos <= 0) {
            throw new IllegalArgumentException("idleParkNanos must be positive: " + idleParkNanos);
        }
        if (readAheadBytes != 0 && readAheadBytes < aheadBytes) {
            throw new IllegalArgumentException("the read-ahead distance must be 0 (off) or at least the pretouch "
                    + "distance (" + aheadBytes + " bytes): " + readAheadBytes);
        }
        if (nextFileHeadBytes < 0) {
            throw new IllegalArgumentException("the next file's head to read must be 0 (none) or positive: "
                    + nextFileHeadBytes);
        }
        if (pageCacheKeepBytes != 0 && pageCacheKeepBytes < PageCacheRecycler.STEP_BYTES) {
            throw new IllegalArgumentException("the page cache kept behind the flushed position must be 0 (all) or "
                    + "at least " + PageCacheRecycler.STEP_BYTES + " bytes: " + pageCacheKeepBytes);
        }
    }

    /** Pages touched {@code aheadBytes} ahead, nothing read ahead, no page cache given back. */
    public static PretouchSettings touchOnly(int aheadBytes, long idleParkNanos) {
        return new PretouchSettings(aheadBytes, 0, 0, 0, idleParkNanos);
    }

    public PretouchSettings withReadAhead(int bytes) {
        return new PretouchSettings(aheadBytes, bytes, nextFileHeadBytes, pageCacheKeepBytes, idleParkNanos);
    }

    public PretouchSettings withNextFileHead(int bytes) {
        return new PretouchSettings(aheadBytes, readAheadBytes, bytes, pageCacheKeepBytes, idleParkNanos);
    }

    public PretouchSettings withPageCacheKeep(long bytes) {
        return new PretouchSettings(aheadBytes, readAheadBytes, nextFileHeadBytes, bytes, idleParkNanos);
    }
}
