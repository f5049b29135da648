package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationEstimateTest {

    @Test
    void theFullDefaultRunFitsInAboutHalfAnHourOnAnIdleTwoCoreMachine() {
        Duration full = DurationEstimate.of(Workload.all(false), 5, BenchMain.STALL_SECONDS, false);
        assertTrue(full.compareTo(Duration.ofMinutes(32)) <= 0, "estimated " + full);
        assertTrue(full.compareTo(Duration.ofMinutes(10)) >= 0, "the estimate counts every run: " + full);
    }

    @Test
    void noSingleMeasuredRunOfTheFullRunIsExpectedToTakeMoreThanTwentySeconds() {
        for (Workload w : Workload.all(false)) {
            if (w.name().equals(Workload.PUT_STALL)) {
                continue; // its length is set in seconds, not messages
            }
            for (String engine : w.engines()) {
                double seconds = w.effectiveMessages() / DurationEstimate.rate(w.name(), engine);
                assertTrue(seconds <= 20, w.name() + " on " + engine + ": " + seconds + " s");
            }
        }
    }

    @Test
    void theCalibrationOfASkippedOneThreadRowIsCounted() {
        var stallOnly = Workload.all(true).stream().filter(w -> w.name().equals(Workload.PUT_STALL)).toList();
        Duration d = DurationEstimate.of(stallOnly, 1, 3, true);
        assertTrue(d.compareTo(Duration.ofSeconds(3 * 3)) > 0, "three 3 s runs and more: " + d);
    }
}
