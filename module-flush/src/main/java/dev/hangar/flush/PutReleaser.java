package dev.hangar.flush;

/**
 * Tells large releases of the group commit on a thread of its own, so that the next force starts as soon as the
 * last one returns instead of after every put it covered was told.
 *
 * <p>Why: with hundreds of puts in flight a force covers ~500 of them, and telling them (completing each put's
 * future, waking the callers, running what callers attached without an {@code *Async} stage) took 430-720 us per
 * force on the flush thread, between two forces, while the disk idled (docs/PERFORMANCE.md section 41). A small
 * release is still told by the flush thread itself: a closed-loop writer waits for its answer, and handing 16 or
 * 64 of them to a second thread would add that thread's wake-up to every put while saving little.
 *
 * <p>How: a single-producer, single-consumer ring of {@link #SLOTS} reusable {@link WaitingPuts.Batch}es. The flush
 * thread {@link #claim claims} the free slot, sweeps into it, then either {@link #handOff hands it off} (the slot
 * becomes the release thread's) or tells it inline and keeps the slot. The release thread tells the batches in the
 * order handed off and frees their slots. When the ring is full (the release thread is that far behind) the flush
 * thread gets no slot and tells its own batch, so nothing waits for the release thread and nothing is allocated.
 * Publication: the flush thread fills a batch then writes {@link #handedOff} (volatile); the release thread reads it
 * before the batch, and writes {@link #told} (volatile) only after it emptied the batch, so a slot is never filled
 * and told at once.
 *
 * <p>Each waiter is still told exactly once: only the thread that swept a waiter out of the table put it into a
 * batch, and a batch is told by one thread. On {@link #stop} the release thread tells every batch handed off before
 * it ends. Thread-safety: {@link #claim}, {@link #handOff} and {@link #start} from the flush thread (or the one
 * thread that runs the service's final work); {@link #stop} once, after that thread ended.
 */
final class PutReleaser {
    static final String THREAD_NAME = "hangar-flush-release";
    /** Releases of more puts than this are handed off; at most this many are told by the flush thread itself. */
    static final int TOLD_INLINE_AT_MOST = GroupCommitFlushService.MAX_GATHERED_PUTS;
    /** Batches handed off and not yet told, at most; a 4th release while 3 wait is told inline. */
    static final int SLOTS = 4;
    /** The release thread parks this long at most when idle (a hand-off wakes it at once). */
    private static final long IDLE_PARK_MILLIS = 100;

    private final WaitingPuts.Batch[] ring = new WaitingPuts.Batch[SLOTS];
    /** Batches handed off so far (written by the flush thread). */
    private volatile long handedOff;
    /** Batches told so far by the release thread (written by it). */
    private volatile long told;
    /** The batch the flush thread tells itself when no slot is free (or the release thread is not running). */
    private final WaitingPuts.Batch inline = new WaitingPuts.Batch();
    private final ServiceWorker worker = new ServiceWorker(THREAD_NAME, this::run);
    private volatile boolean running;

    PutReleaser() {
        for (int i = 0; i < SLOTS; i++) {
            ring[i] = new WaitingPuts.Batch();
        }
    }

    void start() {
        running = true;
        worker.start();
    }

    /**
     * The batch to sweep the next release into: the free slot of the ring, or (ring full, or no release thread) the
     * flush thread's own batch, which {@link #handOff} then tells inline.
     */
    WaitingPuts.Batch claim() {
        if (!running || handedOff - told >= SLOTS) {
            return inline;
        }
        return ring[(int) (handedOff % SLOTS)];
    }

    /**
     * Tells the puts of {@code batch} (from {@link #claim}, swept since): on the release thread when there are more
     * than {@link #TOLD_INLINE_AT_MOST} of them and it is a ring slot, else here.
     */
    void handOff(WaitingPuts.Batch batch) {
        if (batch == inline || batch.size() <= TOLD_INLINE_AT_MOST) {
            batch.tell();
            return;
        }
        handedOff = handedOff + 1; // the only writer; publishes the filled batch
        worker.wakeup();
    }

    /** Releases handed to the release thread so far. */
    long releasesHandedOff() {
        return handedOff;
    }

    /** Ends the release thread after it told every batch handed off; waits up to {@code joinMillis}. */
    void stop(long joinMillis) {
        if (!worker.isStarted()) {
            return;
        }
        worker.stop();
        worker.join(joinMillis);
        running = false;
    }

    private void run() {
        try {
            while (!worker.isStopping()) {
                tellHandedOff();
                worker.await(IDLE_PARK_MILLIS, true);
            }
            tellHandedOff();
        } finally {
            // Normally at stop; if an Error ended the thread, every later release is told by the flush thread.
            running = false;
        }
    }

    private void tellHandedOff() {
        long end = handedOff;
        for (long next = told; next < end; next++) {
            WaitingPuts.Batch batch = ring[(int) (next % SLOTS)];
            batch.tell();
            told = next + 1; // after the batch is empty: the flush thread may fill it again from now on
        }
    }
}
