package dev.hangar.mmap.file;

/**
 * When enough has been written to be worth a commit or a flush; the rule of RocketMQ's
 * {@code isAbleToFlush}/{@code isAbleToCommit}, counted in OS pages. Stateless; thread-safe.
 */
public final class DirtyPages {
    /** The page size the "least pages" settings count in. */
    public static final int OS_PAGE_SIZE = 4096;

    private DirtyPages() {
    }

    /**
     * @param persisted  position already committed or flushed
     * @param written    position that could be committed or flushed now
     * @param full       the file is full: finish it whatever the page count
     * @param leastPages whole pages that must be pending, 0 = any byte
     */
    public static boolean worthPersisting(int persisted, int written, boolean full, int leastPages) {
        if (written <= persisted) {
            return false;
        }
        if (full) {
            return true;
        }
        if (leastPages > 0) {
            return written / OS_PAGE_SIZE - persisted / OS_PAGE_SIZE >= leastPages;
        }
        return true;
    }

    /**
     * Where a flush of the bytes written so far ends. A flush that waits for whole pages ({@code leastPages > 0}:
     * the asynchronous flushers) stops at the page boundary below {@code written}, so it never writes back the page
     * the writer is still filling: writing a page back locks it and, through a mapping, write-protects it, so the
     * writer's next store into it (a put through the mapping, a replica's {@code pwrite}) waited for the flusher's
     * I/O and took a fault. That page is flushed once the writer has left it, or by a flush of any byte
     * ({@code leastPages == 0}: the thorough interval, SYNC_FLUSH, shutdown), which like a full file's flush goes to
     * {@code written} itself.
     */
    public static int flushEnd(int written, boolean full, int leastPages) {
        return full || leastPages == 0 ? written : written & -OS_PAGE_SIZE;
    }
}
