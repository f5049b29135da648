package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.bench.HaTargets.Measured;
import dev.hangar.bench.HaTargets.Run;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HaTargetsTest {
    private final List<Measured> runs = new ArrayList<>();

    @Test
    void theCoresAPipelineNeedsAreItsRateTimesItsCpuPerMessage() {
        assertEquals(2.0, HaTargets.coresNeeded(100_000, 20), 1e-9);
        assertEquals(0.5, HaTargets.coresNeeded(25_000, 20), 1e-9);
    }

    @Test
    void theInFlightRowIsTheRateRatioAndItsBoundTheInverseCpuRatio() {
        run(HaTargets.HANGAR, Run.SYNC_IN_FLIGHT, 30_000, 20, Double.NaN);
        run(HaTargets.ROCKETMQ, Run.SYNC_IN_FLIGHT, 20_000, 30, Double.NaN);
        HaTargets.Row row = rows().get(0);
        assertTrue(row.target().contains("≥ 2x RocketMQ"), row.target());
        assertTrue(row.measured().startsWith("1.50x (30,000 vs 20,000 msg/s)"), row.measured());
        assertEquals("missed: needs 1.33x more", row.verdict());
        // RocketMQ's 30 µs over our 20 µs: a CPU-bound pair reaches 1.5x; 2x needs 15 µs
        assertTrue(row.bound().contains("about 1.50x"), row.bound());
        assertTrue(row.bound().contains("2x needs our CPU per message ≤ 15.0 µs"), row.bound());
    }

    @Test
    void anInFlightRowWhoseCpuRatioAllowsTwiceSaysSo() {
        run(HaTargets.HANGAR, Run.SYNC_IN_FLIGHT, 50_000, 10, Double.NaN);
        run(HaTargets.ROCKETMQ, Run.SYNC_IN_FLIGHT, 20_000, 30, Double.NaN);
        HaTargets.Row row = rows().get(0);
        assertEquals("met", row.verdict());
        assertTrue(row.bound().contains("about 3.00x; 2x is within reach"), row.bound());
    }

    @Test
    void thePooledMasterGetsItsOwnRowOnlyWhenItRan() {
        run(HaTargets.HANGAR, Run.SYNC_IN_FLIGHT, 30_000, 20, Double.NaN);
        run(HaTargets.ROCKETMQ, Run.SYNC_IN_FLIGHT, 20_000, 30, Double.NaN);
        assertEquals(2, rows().size());
        run(HaBench.POOLED_MASTER, Run.SYNC_IN_FLIGHT, 45_000, 20, Double.NaN);
        List<HaTargets.Row> rows = rows();
        assertEquals(3, rows.size());
        assertTrue(rows.get(1).target().contains(HaBench.POOLED_MASTER), rows.get(1).target());
        assertTrue(rows.get(1).measured().startsWith("2.25x"), rows.get(1).measured());
        assertEquals("met", rows.get(1).verdict());
    }

    @Test
    void theLagRowIsJudgedAgainstTenMillisecondsWithTheCoresItsRateNeeds() {
        run(HaTargets.HANGAR, Run.SYNC_IN_FLIGHT, 100_000, 20, Double.NaN);
        run(HaTargets.HANGAR, Run.ASYNC_HALF, 80_000, 25, 20_000);
        HaTargets.Row row = rows().get(1);
        assertTrue(row.target().contains("lag p99 ≤ 10 ms at half the maximum"), row.target());
        assertEquals("p99 20,000 µs at 80,000 msg/s", row.measured());
        assertEquals("missed: 2.00x above the bound", row.verdict());
        assertTrue(row.bound().contains("25.0 µs CPU per message × 80,000/s = 2.00 of 2 cores"), row.bound());
        assertTrue(row.bound().contains("80% of the best replicated rate (100,000 msg/s)"), row.bound());
    }

    @Test
    void aLagMissThatTheFloorMissesTooIsOutOfReachAndOneItMeetsIsAPlainMiss() {
        run(HaTargets.HANGAR, Run.ASYNC_HALF, 80_000, 25, 20_000);
        run(RawPipePair.NAME, Run.ASYNC_HALF, 80_000, 3, 12_000);
        HaTargets.Row row = rows().get(1);
        assertEquals("missed: 2.00x above the bound; out of reach on this machine: the floor misses it too",
                row.verdict());
        assertTrue(row.bound().contains("the floor (raw-pipe: the same bytes master to slave, no store work) at the "
                + "same rate: p99 12,000 µs"), row.bound());
        runs.clear();
        run(HaTargets.HANGAR, Run.ASYNC_HALF, 80_000, 25, 20_000);
        run(RawPipePair.NAME, Run.ASYNC_HALF, 80_000, 3, 4_000);
        assertEquals("missed: 2.00x above the bound", rows().get(1).verdict(), "the floor met it: ours is a miss");
        runs.clear();
        run(HaTargets.HANGAR, Run.ASYNC_HALF, 80_000, 25, 8_000);
        run(RawPipePair.NAME, Run.ASYNC_HALF, 80_000, 3, 12_000);
        assertEquals("met", rows().get(1).verdict(), "a met target stays met whatever the floor did");
    }

    @Test
    void theLagAtHalfTheReplicatedRateIsAnExtraRowLabelledAsNotTheIssues() {
        run(HaTargets.HANGAR, Run.SYNC_IN_FLIGHT, 100_000, 20, Double.NaN);
        run(HaTargets.HANGAR, Run.ASYNC_HALF, 80_000, 25, 20_000);
        run(HaTargets.HANGAR, Run.ASYNC_HALF_OF_REPLICATED, 50_000, 22, 4_000);
        List<HaTargets.Row> rows = rows();
        assertEquals(3, rows.size());
        assertTrue(rows.get(2).target().startsWith("extra, not the issue's"), rows.get(2).target());
        assertEquals("met", rows.get(2).verdict());
        assertTrue(rows.get(2).bound().contains("= 1.10 of 2 cores; 50%"), rows.get(2).bound());
    }

    @Test
    void aTargetWhoseRunsAreMissingIsNotMeasuredRatherThanMissed() {
        run(HaTargets.HANGAR, Run.SYNC_IN_FLIGHT, 30_000, 20, Double.NaN);
        List<HaTargets.Row> rows = rows();
        assertTrue(rows.get(0).verdict().startsWith("not measured"), rows.get(0).verdict());
        assertTrue(rows.get(1).verdict().startsWith("not measured"), rows.get(1).verdict());
    }

    @Test
    void theMarkdownHasOneLinePerRowUnderAFourColumnHeader() {
        run(HaTargets.HANGAR, Run.SYNC_IN_FLIGHT, 30_000, 20, Double.NaN);
        run(HaTargets.ROCKETMQ, Run.SYNC_IN_FLIGHT, 20_000, 30, Double.NaN);
        String[] lines = new HaTargets(runs, 2).markdown().split("\n");
        assertEquals("| target (issue 10) | measured | verdict | bound measured in this run |", lines[0]);
        assertEquals(4, lines.length);
        assertEquals(4, lines[2].split(" \\| ", -1).length, lines[2]);
    }

    private List<HaTargets.Row> rows() {
        return new HaTargets(runs, 2).rows();
    }

    private void run(String engine, Run run, double rate, double cpu, double lagP99) {
        runs.add(new Measured(engine, run, rate, cpu, lagP99));
    }

    @Test
    void severalRoundsOfARowAreJudgedByTheirMedian() {
        List<HaTargets.Measured> runs = List.of(
                new HaTargets.Measured(HaTargets.HANGAR, HaTargets.Run.SYNC_IN_FLIGHT, 60_000, 25, Double.NaN),
                new HaTargets.Measured(HaTargets.HANGAR, HaTargets.Run.SYNC_IN_FLIGHT, 130_000, 11, Double.NaN),
                new HaTargets.Measured(HaTargets.HANGAR, HaTargets.Run.SYNC_IN_FLIGHT, 100_000, 15, Double.NaN),
                new HaTargets.Measured(HaTargets.ROCKETMQ, HaTargets.Run.SYNC_IN_FLIGHT, 50_000, 25, Double.NaN));
        HaTargets.Row row = new HaTargets(runs, 2).rows().get(0);
        assertTrue(row.measured().startsWith("2.00x (100,000 vs 50,000"), row.measured());
        assertEquals("met", row.verdict());
        assertEquals(15, HaTargets.median(runs.subList(0, 3), HaTargets.Measured::cpuMicrosPerMessage));
        assertEquals(13, HaTargets.median(runs.subList(1, 3), HaTargets.Measured::cpuMicrosPerMessage));
    }
}
