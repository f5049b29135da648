package dev.hangar.bench;

/**
 * When each put of a paced writer is due: put {@code n} at {@code start + n × interval}, an absolute schedule, so a
 * put that stalls does not push the later ones back (they are then due already and follow at once until the
 * writer has caught up). The waiting happens before the put's clock starts: only the put call is timed.
 */
final class PacedSchedule {
    /** Below this a writer spins (yielding) instead of parking: a park overshoots by tens of microseconds. */
    static final long SPIN_BELOW_NANOS = 50_000;
    private final long startNanos;
    private final long intervalNanos;

    PacedSchedule(long startNanos, long intervalNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("the interval between paced puts must be > 0 ns, not " + intervalNanos);
        }
        this.startNanos = startNanos;
        this.intervalNanos = intervalNanos;
    }

    /** The {@link System#nanoTime()} at which put number {@code call} (from 0) is due. */
    long dueNanos(long call) {
        return startNanos + call * intervalNanos;
    }

    /** How long put {@code call} must still wait at {@code nowNanos}; 0 when it is due or late. */
    long waitNanos(long call, long nowNanos) {
        return Math.max(0, dueNanos(call) - nowNanos);
    }

    /** Returns once put {@code call} is due: parks while far from it, yields while close. */
    void awaitDue(long call) {
        long wait;
        while ((wait = waitNanos(call, System.nanoTime())) > 0) {
            if (wait >= SPIN_BELOW_NANOS) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait - SPIN_BELOW_NANOS / 2);
            } else {
                Thread.yield();
            }
        }
    }
}
