package dev.hangar.flush;

import java.util.Arrays;

/**
 * What the group commit did, counted cheaply on its own thread, to explain where a SYNC_FLUSH put's time goes:
 * forces and the puts each released (a log2 histogram), bytes and time per force, how many forces a put waited
 * for, and how the gather between two forces ended. Fields are plain longs written by the flush thread only (the
 * waited-for counts under {@link WaitingPuts}' monitor, by the thread that sweeps for the flush thread); a reader
 * on another thread sees figures a little behind, which is all a statistic needs. Nothing is allocated per put.
 *
 * <p>Read with {@link #summary()} (logged by {@link GroupCommitFlushService} at shutdown) or the accessors (tests).
 */
final class GroupCommitCounters {
    /** Bucket i of {@link #putsPerForce} holds forces that released [2^(i-1), 2^i) puts; bucket 0 none. */
    static final int PUTS_BUCKETS = 10;
    /** Bucket i of {@link #forcesWaited} holds puts that waited for i + 1 forces; the last one for more. */
    static final int WAITED_BUCKETS = 4;

    private long forces;
    private long forcedBytes;
    private long forceNanos;
    private final long[] putsPerForce = new long[PUTS_BUCKETS];
    private final long[] forcesWaited = new long[WAITED_BUCKETS];
    private long gathers;
    private long gathersEveryoneBack;
    private long gathersTimedOut;
    private long gatherNanos;
    /** Over the gathers whose bound ran out: puts expected back, and puts that were back. */
    private long expectedWhenRanOut;
    private long backWhenRanOut;
    private long forcesStartedAtOnce;
    /**
     * Time the flush thread spent releasing puts (the sweep, and the telling unless handed off), and parked with
     * nothing to force.
     */
    private long releaseNanos;
    private long idleNanos;
    /** The puts' registration to deadline span, so a deadline tells when its put registered. */
    private final long timeoutNanos;
    /** The force being swept: when it started and returned. */
    private long forceStartNanos;
    private long forceEndNanos;
    /**
     * Over the puts told {@code PUT_OK}: the time from registering until the force that covered them started (0 for
     * a put that registered while it ran), and from then until it returned.
     */
    private long putsTimed;
    private long putNanosBeforeForce;
    private long putNanosInForce;

    GroupCommitCounters() {
        this(0);
    }

    /** @param timeoutNanos how long after registering a put's deadline is (to tell when it registered) */
    GroupCommitCounters(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /** The force about to be swept started at {@code startNanos} and returned at {@code endNanos}. */
    void forceSpan(long startNanos, long endNanos) {
        forceStartNanos = startNanos;
        forceEndNanos = endNanos;
    }
    /** Puts of the current sweep that waited for more than one force; taken by {@link #takeSweptAfterMoreForces()}. */
    private int sweptAfterMoreForces;

    /** One force (commit included) that moved the flushed position by {@code bytes} and released {@code puts}. */
    void force(long bytes, long nanos, int puts) {
        forces++;
        forcedBytes += bytes;
        forceNanos += nanos;
        putsPerForce[puts == 0 ? 0 : Math.min(PUTS_BUCKETS - 1, 64 - Long.numberOfLeadingZeros(puts))]++;
    }

    /** One release after a force: the sweep of the waiting table and the telling of every put it removed. */
    void released(long nanos) {
        releaseNanos += nanos;
    }

    /** One wait of the flush thread for work (nothing written beyond the flushed position, or a retry pause). */
    void idled(long nanos) {
        idleNanos += nanos;
    }

    /**
     * As {@link #waited(long)}, for a put whose deadline was {@code deadlineNanos}: also splits its wait at the start
     * of the force that covered it (see {@link #forceSpan}).
     */
    void waited(long forces, long deadlineNanos) {
        waited(forces);
        long registered = deadlineNanos - timeoutNanos;
        long inForceFrom = registered - forceStartNanos > 0 ? registered : forceStartNanos;
        putsTimed++;
        putNanosBeforeForce += inForceFrom - registered;
        putNanosInForce += forceEndNanos - inForceFrom;
    }

    /** A put told {@code PUT_OK} after {@code forces} forces completed since it registered (at least one). */
    void waited(long forces) {
        forcesWaited[(int) Math.max(0, Math.min(WAITED_BUCKETS - 1, forces - 1))]++;
        if (forces > 1) {
            sweptAfterMoreForces++;
        }
    }

    /** The puts counted by {@link #waited} since the last call that waited for more than one force. */
    int takeSweptAfterMoreForces() {
        int n = sweptAfterMoreForces;
        sweptAfterMoreForces = 0;
        return n;
    }

    /** After a force: the next one started at once (enough was pending, or nobody was released). */
    void startedAtOnce() {
        forcesStartedAtOnce++;
    }

    /**
     * A gather for returning writers ended after {@code nanos}, with {@code back} of the {@code expected} puts
     * waiting (everyone back when {@code back >= expected}, else its bound ran out).
     */
    void gathered(int back, int expected, long nanos) {
        gathers++;
        if (back >= expected) {
            gathersEveryoneBack++;
        } else {
            gathersTimedOut++;
            expectedWhenRanOut += expected;
            backWhenRanOut += back;
        }
        gatherNanos += nanos;
    }

    long forces() {
        return forces;
    }

    /** Summed over the puts timed so far: nanoseconds from registering until their force started. */
    long putNanosBeforeForce() {
        return putNanosBeforeForce;
    }

    /** Summed over the puts timed so far: nanoseconds from their force's start (or their later registration) to its end. */
    long putNanosInForce() {
        return putNanosInForce;
    }

    long gathers() {
        return gathers;
    }

    long gathersEveryoneBack() {
        return gathersEveryoneBack;
    }

    long gathersTimedOut() {
        return gathersTimedOut;
    }

    /** Puts told {@code PUT_OK} that waited for exactly {@code n} forces ({@code n} = 1..3), or more ({@code n} = 4). */
    long putsThatWaitedForces(int n) {
        return forcesWaited[Math.max(0, Math.min(WAITED_BUCKETS - 1, n - 1))];
    }

    String summary() {
        long f = Math.max(1, forces);
        long g = Math.max(1, gathers);
        return "forces " + forces
                + ", bytes/force " + forcedBytes / f
                + ", us/force " + forceNanos / f / 1_000
                + ", us/release " + releaseNanos / f / 1_000
                + ", ms idle " + idleNanos / 1_000_000
                + ", a put's wait us: until its force started " + putNanosBeforeForce / Math.max(1, putsTimed) / 1_000
                + ", in it " + putNanosInForce / Math.max(1, putsTimed) / 1_000
                + ", puts/force log2 histogram [0,1,2-3,4-7,..,256+] " + Arrays.toString(putsPerForce)
                + ", puts that waited 1/2/3/4+ forces " + Arrays.toString(forcesWaited)
                + ", next force at once " + forcesStartedAtOnce
                + ", gathers " + gathers + " (everyone back " + gathersEveryoneBack + ", bound ran out "
                + gathersTimedOut + " with " + backWhenRanOut + " of " + expectedWhenRanOut + " puts back, us/gather "
                + gatherNanos / g / 1_000 + ")";
    }
}
