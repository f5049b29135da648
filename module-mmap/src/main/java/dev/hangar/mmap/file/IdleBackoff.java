package dev.hangar.mmap.file;

/**
 * How long a polling thread sleeps after a look that found nothing to do: its short sleep while there was work in
 * the last {@code looksBeforeLonger} looks, a longer one after that, until the next look with work.
 *
 * <p>Why: {@link CommitLogPretoucher} looks at the writer every millisecond so that a fast writer never uses up the
 * pages touched ahead of it, and on an idle store those 1 000 wake-ups a second were its whole cost (1.8 % of a core
 * on the 2-vCPU VM of docs/PERFORMANCE.md section 49, more than every other store thread together). After a quiet
 * spell the pages ahead of the writer are already touched (at least half the distance, 2 MiB by default), so a
 * burst has that much to write before it reaches an untouched page: at 4 ms, 500 MB/s.
 *
 * <p>Not thread-safe: one polling thread.
 */
final class IdleBackoff {
    private final long shortNanos;
    private final long longNanos;
    private final int looksBeforeLonger;
    private int idleLooks;

    /**
     * @param shortNanos        the sleep after a look without work, while work was recent
     * @param longNanos         the sleep once {@code looksBeforeLonger} looks in a row found nothing
     * @param looksBeforeLonger looks without work before the sleep grows
     */
    IdleBackoff(long shortNanos, long longNanos, int looksBeforeLonger) {
        if (shortNanos <= 0 || longNanos < shortNanos || looksBeforeLonger < 0) {
            throw new IllegalArgumentException("need 0 < shortNanos <= longNanos and looksBeforeLonger >= 0: "
                    + shortNanos + ", " + longNanos + ", " + looksBeforeLonger);
        }
        this.shortNanos = shortNanos;
        this.longNanos = longNanos;
        this.looksBeforeLonger = looksBeforeLonger;
    }

    /** The sleep after a look: 0 when it found work (look again at once), else the short or the long sleep. */
    long afterLook(boolean foundWork) {
        if (foundWork) {
            idleLooks = 0;
            return 0;
        }
        if (idleLooks < looksBeforeLonger) {
            idleLooks++;
            return shortNanos;
        }
        return longNanos;
    }
}
