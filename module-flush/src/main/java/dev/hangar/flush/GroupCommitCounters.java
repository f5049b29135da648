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
    /** Puts of the current sweep that waited for more than one force; taken by {@link #takeSweptAfterMoreForces()}. */
    private int sweptAfterMoreForces;

    /** One force (commit included) that moved the flushed position by {@code bytes} and released {@code puts}. */
    void force(long bytes, long nanos, int puts) {
        forces++;
        forcedBytes += bytes;
        forceNanos += nanos;
        putsPerForce[puts == 0 ? 0 : Math.min(PUTS_BUCKETS - 1, 64 - Long.numberOfLeadingZeros(puts))]++;
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
                + ", puts/force log2 histogram [0,1,2-3,4-7,..,256+] " + Arrays.toString(putsPerForce)
                + ", puts that waited 1/2/3/4+ forces " + Arrays.toString(forcesWaited)
                + ", next force at once " + forcesStartedAtOnce
                + ", gathers " + gathers + " (everyone back " + gathersEveryoneBack + ", bound ran out "
                + gathersTimedOut + " with " + backWhenRanOut + " of " + expectedWhenRanOut + " puts back, us/gather "
                + gatherNanos / g / 1_000 + ")";
    }
}
