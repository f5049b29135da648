package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The paced ASYNC_MASTER load of {@link HaBench}, on a simulated clock: a put thread 100 µs apart per put (40k/s
 * over 4 threads), each put costing 2 µs, counted, not timed.
 */
class HaPacingTest {
    private static final long INTERVAL = 100_000;
    private static final long PUT_COST = 2_000;
    private static final int PUTS = 10_000;

    /** Parks, the latest put's earliness, and the clock when the last put went: {parks, maxEarly, lastIssued}. */
    private static long[] simulate(long slackNanos) {
        long now = 0;
        long slot = 0;
        long parks = 0;
        long maxEarly = 0;
        for (int n = 0; n < PUTS; n++) {
            slot += INTERVAL;
            long park = HaBench.parkBeforePut(slot, now, slackNanos);
            if (park > 0) {
                parks++;
                now += park;
            }
            maxEarly = Math.max(maxEarly, slot - now);
            now += PUT_COST;
        }
        return new long[] {parks, maxEarly, now - PUT_COST};
    }

    @Test
    void aThreadOnScheduleParksAboutOncePerSlackNotBeforeEveryPut() {
        long[] r = simulate(HaBench.PACING_SLACK_NANOS);
        long bound = PUTS * INTERVAL / HaBench.PACING_SLACK_NANOS + 1;
        assertTrue(r[0] <= bound, "parks for " + PUTS + " puts 100 µs apart: " + r[0] + " (at most " + bound + ")");
        // the old pacing, parking until every put is due: one park per put
        assertEquals(PUTS, simulate(0)[0], "parks with no slack");
    }

    @Test
    void noPutGoesMoreThanTheSlackEarlyAndTheAverageRateIsKept() {
        long[] r = simulate(HaBench.PACING_SLACK_NANOS);
        assertTrue(r[1] < HaBench.PACING_SLACK_NANOS, "a put went " + r[1] + " ns early");
        long lastDue = PUTS * INTERVAL;
        assertTrue(r[2] >= lastDue - HaBench.PACING_SLACK_NANOS && r[2] <= lastDue,
                "the last put went at " + r[2] + " ns, due at " + lastDue);
    }

    @Test
    void aThreadBehindScheduleNeverParks() {
        assertEquals(0, HaBench.parkBeforePut(1_000, 5_000, HaBench.PACING_SLACK_NANOS));
        assertEquals(0, HaBench.parkBeforePut(1_000, 1_000, 0));
        assertEquals(2_000_000, HaBench.parkBeforePut(3_000_000, 1_000_000, HaBench.PACING_SLACK_NANOS));
    }

    @Test
    void aPacedRowLastsAtLeastTheGivenSecondsAtItsRate() {
        assertEquals(100_000, HaBench.pacedMessages(100_000, 120_000, 0), "no duration: the count as given");
        assertEquals(600_000, HaBench.pacedMessages(100_000, 120_000, 5), "120k/s for 5 s");
        assertEquals(100_000, HaBench.pacedMessages(100_000, 10_000, 5), "never fewer than the count given");
    }
}
