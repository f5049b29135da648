package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PacedScheduleTest {

    @Test
    void putsAreDueAtStartPlusTheirNumberTimesTheInterval() {
        PacedSchedule s = new PacedSchedule(1_000, 250);
        assertEquals(1_000, s.dueNanos(0));
        assertEquals(1_250, s.dueNanos(1));
        assertEquals(1_000 + 250L * 4_000_000, s.dueNanos(4_000_000));
    }

    @Test
    void aStallDoesNotPushLaterPutsBack() {
        PacedSchedule s = new PacedSchedule(0, 100);
        // put 3 returned at 1 050 ns after a stall: puts 4..10 are due already and go at once ...
        for (int call = 4; call <= 10; call++) {
            assertEquals(0, s.waitNanos(call, 1_050), "put " + call);
        }
        // ... and put 11 keeps its place on the schedule (1 100), not 1 050 + 100
        assertEquals(50, s.waitNanos(11, 1_050));
    }

    @Test
    void anEarlyPutWaitsExactlyUntilItIsDue() {
        PacedSchedule s = new PacedSchedule(500, 1_000);
        assertEquals(1_000, s.waitNanos(1, 500));
        assertEquals(1, s.waitNanos(1, 1_499));
        assertEquals(0, s.waitNanos(1, 1_500));
    }

    @Test
    void awaitDueReturnsNoEarlierThanTheDueTime() {
        long start = System.nanoTime();
        PacedSchedule s = new PacedSchedule(start, 200_000);
        for (int call = 0; call < 20; call++) {
            s.awaitDue(call);
            assertTrue(System.nanoTime() >= s.dueNanos(call), "put " + call + " released before it was due");
        }
    }

    @Test
    void aScheduleWithoutAPositiveIntervalIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PacedSchedule(0, 0));
        assertTrue(e.getMessage().contains("> 0"), e.getMessage());
    }

    @Test
    void aPacedWorkloadPutsRateTimesSecondsMessagesAtTheMatchingInterval() {
        Workload w = template().paced(1_000, 3);
        assertEquals(1_000_000, w.intervalNanos());
        assertEquals(3_000, w.effectiveMessages());
        assertTrue(w.isPaced());
        assertEquals(List.of(Workload.HANGAR_PRETOUCH, Workload.HANGAR, Workload.ROCKETMQ, Workload.CHRONICLE),
                w.engines());
    }

    @Test
    void aPacedWorkloadNeedsAPositiveRateAndDuration() {
        assertThrows(IllegalArgumentException.class, () -> template().paced(0, 60));
        assertThrows(IllegalArgumentException.class, () -> template().paced(Double.NaN, 60));
        assertThrows(IllegalArgumentException.class, () -> template().paced(1_000, 0));
    }

    private static Workload template() {
        return Workload.all(false).stream().filter(w -> w.name().equals(Workload.PUT_STALL)).findFirst().orElseThrow();
    }
}
