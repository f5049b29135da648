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
}
