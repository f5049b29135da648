package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetsTest {
    private final List<RunResult> runs = new ArrayList<>();

    @Test
    void aFloorIsMetAtItsValueAndMissedBelowItByTheFactorStillNeeded() {
        assertEquals("met", Targets.verdict(5.0, 5, true));
        assertEquals("missed: needs 2.50x more", Targets.verdict(2.0, 5, true));
    }

    @Test
    void aCeilingIsMetAtItsValueAndMissedAboveItByTheFactorOver() {
        assertEquals("met", Targets.verdict(64, 64, false));
        assertEquals("missed: 1.50x above the bound", Targets.verdict(96, 64, false));
    }

    @Test
    void aTargetWithoutMeasurementSaysSo() {
        assertTrue(Targets.verdict(Double.NaN, 5, true).startsWith("not measured"));
    }

    @Test
    void theTableListsExactlyIssue13sTargets() {
        List<Targets.Row> rows = targets(0.003).rows();
        assertEquals(13, rows.size());
        List<String> names = rows.stream().map(Targets.Row::target).toList();
        assertTrue(names.get(0).startsWith("async, 1 KiB, 1 thread: ≥ 5x RocketMQ"), names.get(0));
        assertTrue(names.get(1).contains("≥ 0.7x Chronicle Queue"), names.get(1));
        assertTrue(names.stream().noneMatch(n -> n.contains("5x sync") || n.contains("adaptive")),
                "the earlier issue's targets are gone: " + names);
    }

    @Test
    void theOneThreadRowIsJudgedAgainstRocketMqAndChronicleByTheirMedians() {
        add(Workload.ONE_THREAD, Workload.HANGAR, 400_000, 500_000, 600_000);
        add(Workload.ONE_THREAD, Workload.ROCKETMQ, 100_000, 70_000, 90_000);
        add(Workload.ONE_THREAD, Workload.CHRONICLE, 1_000_000, 700_000, 900_000);
        List<Targets.Row> rows = targets(0.003).rows();
        assertEquals("met", rows.get(0).verdict(), rows.get(0).measured());
        assertTrue(rows.get(0).measured().startsWith("5.56x"), rows.get(0).measured());
        assertEquals("missed: needs 1.26x more", rows.get(1).verdict(), rows.get(1).measured());
    }

    @Test
    void aRatioTargetAboveWhatARawAppendReachesShowsThatBound() {
        add(Workload.ONE_THREAD, Workload.HANGAR, 300_000);
        add(Workload.ONE_THREAD, Workload.ROCKETMQ, 300_000);
        add(Workload.ONE_THREAD, Workload.CHRONICLE, 600_000);
        Targets.Row fiveTimes = targets(0.003).rows().get(0);
        assertEquals("Chronicle's raw append (no indexes) is 2.00x RocketMQ", fiveTimes.bound());
        assertEquals(Targets.NO_BOUND, targets(0.003).rows().get(1).bound(), "Chronicle is that row's reference");
    }

    @Test
    void theManyQueuesDiskTargetShowsTheFloorOfTheLayoutAndRocketMqsOwnFigure() {
        // 8 000 queues of 25 units: 9 000 directories and 8 000 files of one 4 KiB block, the 20 MB slot table
        long commitLog = 60_000_000;
        runs.add(disk(Workload.HANGAR, commitLog, 200_000_000));
        runs.add(disk(Workload.ROCKETMQ, commitLog, 150_000_000));
        Targets.Row row = targets(0.003).rows().get(9);
        assertTrue(row.target().startsWith("8 000 queues: disk used"), row.target());
        double data = commitLog + 40.0 * 200_000;
        double floor = commitLog + 20.0 * 200_000 + 9_000 * 4096.0 + 8_000 * 4096.0 + 20_000_000;
        assertEquals(String.format(java.util.Locale.ROOT, "the layout's floor here (9000 directories and 8000 "
                + "ConsumeQueue files of a 4096 B block each, the 20 MB index slot table): %.2fx; RocketMQ's store: "
                + "%.2fx", floor / data, 150_000_000 / data), row.bound());
    }

    @Test
    void theSixteenThreadSyncRowIsJudgedAgainstSixteenOverTheFsyncLatencyOfTheRun() {
        add(Targets.SYNC_16T, Workload.HANGAR, 4_000);
        // 16 / 3 ms = 5 333 msg/s; 4 000 is 0.75 of it, 85 % needs 1.13x more
        Targets.Row row = targets(0.003).rows().get(5);
        assertTrue(row.target().contains("16 closed-loop"), row.target());
        assertEquals("missed: needs 1.13x more", row.verdict(), row.measured());
    }

    @Test
    void theSixteenThreadSyncRowShowsTheBoundOfASixteenKibFdatasyncWhenTheRunMeasuredIt() {
        add(Targets.SYNC_16T, Workload.HANGAR, 4_000);
        Report report = new Report(new Machine(2, "cpu", "1 GiB", "jdk", "os", "today"), "bench/run.sh", 3,
                Workload.all(false), runs, List.of(), new Report.RunFacts(60, Map.of(), Duration.ZERO, Duration.ZERO));
        // 16 / 3.2 ms = 5 000 msg/s: the row reaches 0.80 of what the device allows a 16-put group
        Targets.Row row = new Targets(report, runs, 0.003, 60, 4096, 0.0032).rows().get(5);
        assertEquals("16 ÷ the 16 KiB write + fdatasync latency (3,200 µs) = 5,000 msg/s; this row is 0.80x of it",
                row.bound());
        assertEquals(Targets.NO_BOUND, targets(0.003).rows().get(5).bound(), "not measured: no bound shown");
    }

    @Test
    void aFailedHundredThousandQueueRunIsAMissWithItsReason() {
        runs.add(RunResult.failed(Workload.HANGAR, Targets.QUEUES_100K, 1, 200_000, 256, "IOException: Map failed"));
        Targets.Row row = targets(0.003).rows().get(10);
        assertTrue(row.target().startsWith("100 000 queues"), row.target());
        assertEquals("missed: IOException: Map failed", row.verdict());
    }

    @Test
    void anySlowPutOfThePretouchedHangarMissesTheStallTarget() {
        runs.add(result(Workload.PUT_STALL, Workload.HANGAR_PRETOUCH, 1, 50_000, 2, 45_000_000));
        runs.add(result(Workload.PUT_STALL, Workload.HANGAR, 1, 50_000, 0, 1_000_000));
        Targets.Row row = targets(0.003).rows().get(12);
        assertEquals("2 puts > 20 ms, max 45.0 ms", row.measured());
        assertEquals("missed: max 2.25x the 20 ms bound", row.verdict());
        assertEquals(Targets.NO_BOUND, row.bound(), "no Chronicle run in the row, no bound");
    }

    @Test
    void theStallTargetShowsChroniclesPacedRawAppendAsTheMachinesBound() {
        runs.add(result(Workload.PUT_STALL, Workload.HANGAR_PRETOUCH, 1, 50_000, 2, 45_000_000));
        runs.add(result(Workload.PUT_STALL, Workload.CHRONICLE, 1, 50_000, 3, 61_000_000));
        Targets.Row row = targets(0.003).rows().get(12);
        assertEquals("Chronicle's raw append (no store logic) paced the same: 3 puts > 20 ms, max 61.0 ms",
                row.bound());
    }

    @Test
    void theAllocationTargetNamesTheWorstHangarWorkload() {
        runs.add(result("async-1k-4t", Workload.HANGAR, 1, 100_000, 0, 1));
        runs.add(result("sync-1k-16t", Workload.HANGAR, 1, 10_000, 0, 1));
        // a ConsumeQueue created per 2 messages is not the steady put path the target is about
        runs.add(result(Targets.QUEUES_100K, Workload.HANGAR, 1, 10_000, 0, 1));
        Targets.Row row = targets(0.003).rows().get(7);
        assertEquals("80 B (sync-1k-16t)", row.measured());
        assertEquals("missed: 1.25x above the bound", row.verdict());
    }

    private Targets targets(double fsyncSeconds) {
        Report report = new Report(new Machine(2, "cpu", "1 GiB", "jdk", "os", "today"), "bench/run.sh", 3,
                Workload.all(false), runs, List.of(), new Report.RunFacts(60, Map.of(), Duration.ZERO, Duration.ZERO));
        return new Targets(report, runs, fsyncSeconds, 60);
    }

    /** A many-queues run of 200 000 messages whose store took {@code diskBytes} with the CommitLog as written. */
    private static RunResult disk(String engine, long commitLogWritten, long diskBytes) {
        return new RunResult(engine, Targets.MANY_QUEUES, 1, 200_000, 256, 1_000_000_000L, 900_000_000L, 100_000_000L,
                1_000, 10_000, 100_000, 1_000_000, 1, 0, 40, 40, diskBytes, commitLogWritten, commitLogWritten,
                1 << 20, 0, null);
    }

    private void add(String workload, String engine, double... rates) {
        for (int i = 0; i < rates.length; i++) {
            runs.add(result(workload, engine, i + 1, rates[i], 0, 1));
        }
    }

    /** One second's worth of messages at {@code rate}; allocation differs by workload, to tell them apart. */
    private static RunResult result(String workload, String engine, int round, double rate, long slowPuts,
                                    long maxNanos) {
        int messages = (int) rate;
        double alloc = workload.startsWith("sync") ? 80 : workload.contains("queues") ? 5_000 : 40;
        return new RunResult(engine, workload, round, messages, 1024, 1_000_000_000L, 900_000_000L, 100_000_000L,
                1_000, 10_000, 100_000, 1_000_000, maxNanos, slowPuts, alloc, alloc, 1 << 20, -1, -1, 1 << 20, 0,
                null);
    }
}
