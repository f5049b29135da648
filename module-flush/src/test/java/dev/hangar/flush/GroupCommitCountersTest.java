package dev.hangar.flush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The split of a released put's wait that the group commit logs: until the force that covered it started, and from
 * then (or from its registration, when it registered while that force ran) until the force returned. The
 * registration is the deadline minus the timeout, so no extra slot per put is needed.
 */
class GroupCommitCountersTest {
    private static final long TIMEOUT = 5_000_000_000L;

    @Test
    void aPutsWaitIsSplitAtTheStartOfTheForceThatCoveredIt() {
        GroupCommitCounters counters = new GroupCommitCounters(TIMEOUT);
        counters.forceSpan(1_000, 5_000);
        counters.waited(1, 400 + TIMEOUT); // registered before the force started
        counters.waited(2, 2_000 + TIMEOUT); // registered while it ran (its bytes were in it)
        assertEquals(600, counters.putNanosBeforeForce(), "600 ns until the force started, 0 for the second");
        assertEquals(4_000 + 3_000, counters.putNanosInForce(), "the whole force for the first, the rest for the second");
        assertTrue(counters.summary().contains("until its force started 0, in it 3"), counters.summary());
    }
}
