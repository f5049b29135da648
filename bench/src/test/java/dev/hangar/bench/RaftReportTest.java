package dev.hangar.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RaftReportTest {

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwoAndNanValuesAreLeftOut() {
        assertArrayEquals(new double[] {3, 1, 9}, RaftReport.spread(List.of(9.0, 1.0, 3.0)), 1e-9);
        assertArrayEquals(new double[] {2.5, 1, 9}, RaftReport.spread(List.of(9.0, Double.NaN, 1.0, 2.0, 3.0)), 1e-9);
        assertTrue(Double.isNaN(RaftReport.spread(List.of(Double.NaN))[0]));
    }

    @Test
    void leaderAndFollowerFiguresArePerAcknowledgedMessageAndTheFollowersAreAveraged() {
        // 1 000 puts, 200 failed: 800 acknowledged; node 1 led
        RaftReport.Row row = new RaftReport.Row(4, 256, 1_000, 2.0, 200, 800 * 1_100L, 1_000, 2_000, List.of(
                new ProcStats(8_000_000, 800_000), new ProcStats(40_000_000, 1_600_000),
                new ProcStats(24_000_000, 1_600_000)), 1);
        assertEquals(400, row.rate(), 1e-9);
        assertEquals(50, row.cpuMicros(true), 1e-9);
        assertEquals(20, row.cpuMicros(false), 1e-9);
        assertEquals(2_000, row.writeBytes(true), 1e-9);
        assertEquals(1_500, row.writeBytes(false), 1e-9);
        assertEquals(1_100, row.messageBytes(), 1e-9);
        assertEquals("4 x 256 in flight", row.label());
    }

    @Test
    void ratiosPairTheEnginesOfTheSameRoundOnly() {
        List<RaftReport.Round> rounds = List.of(round("hangar", 1, 2_000, 800), round("dledger", 1, 1_000, 5_000),
                round("dledger", 2, 500, 6_000), round("hangar", 2, 2_000, 1_200));
        String ratios = new RaftReport(rounds, List.of(), List.of("hangar", "dledger"), 1_000, 1_000, 100, 50, "MAJORITY",
                Machine.describe(), "0", "0").ratioTable();
        // round 1: 2.00 and 0.16; round 2: 4.00 and 0.20 (a cross pairing would give 2.00 / 4.00 with other failovers)
        assertTrue(ratios.contains("| put msgs/s, 4 x 256 in flight | 3.00 | 2.00 – 4.00 | 2 |"), ratios);
        assertTrue(ratios.contains("| failover ms, kill -9 of the leader to the first acknowledged put | 0.18 | "
                + "0.16 – 0.20 | 2 |"), ratios);
    }

    @Test
    void aFailoverWithNoNewLeaderCountsAsNoValueNotAsZero() {
        RaftReport.Round none = new RaftReport.Round("dledger", 1, 1, new RaftReport.Idle(0.01, 0.01), row(1_000), row(1_000), disk(),
                new RaftReport.Failover(Double.NaN, "n0", "none"), 10, List.of("follower n2 still behind"));
        RaftReport report = new RaftReport(List.of(none), List.of("round 2, dledger: no leader"), List.of("dledger"),
                1_000, 1_000, 100, 50, "MAJORITY", Machine.describe(), "0", "0");
        String table = report.medianTable();
        assertTrue(table.contains("| failover ms, kill -9 of the leader to the first acknowledged put | dledger | - | - "
                + "| 0 |"), table);
        // and the section says which round failed and which went on without a follower
        String section = report.section();
        assertTrue(section.contains("- failed, not in the figures: round 2, dledger: no leader"), section);
        assertTrue(section.contains("- round 1, dledger: follower n2 still behind"), section);
    }

    @Test
    void peersAreWrittenInDLedgersFormForItsNodes() {
        assertEquals("n0-127.0.0.1:4001;n1-127.0.0.1:4002;n2-127.0.0.1:4003",
                RaftNode.dledgerPeers("n0@127.0.0.1:4001,n1@127.0.0.1:4002,n2@127.0.0.1:4003"));
    }

    @Test
    void anUnknownEngineOrOptionIsRefusedBeforeAnyNodeStarts() {
        assertThrows(IllegalArgumentException.class, () -> RaftBench.Options.parse(new String[] {"--engines",
            "hangar,ratis"}));
        assertThrows(IllegalArgumentException.class, () -> RaftBench.Options.parse(new String[] {"--round", "5"}));
        assertEquals(5, RaftBench.Options.parse(new String[0]).rounds());
    }

    private static RaftReport.Round round(String engine, int n, double rate, double failoverMillis) {
        return new RaftReport.Round(engine, n, 1, new RaftReport.Idle(0.01, 0.01), row(rate), row(rate), disk(),
                new RaftReport.Failover(failoverMillis, "n0", "n1"), 10, List.of());
    }

    /** 1 000 puts in 1 000 / rate seconds, none failed. */
    private static RaftReport.Row row(double rate) {
        ProcStats p = new ProcStats(1_000_000, 1_000);
        return new RaftReport.Row(4, 256, 1_000, 1_000 / rate, 0, 1_000_000, 1_000, 2_000, List.of(p, p, p), 0);
    }

    private static RaftReport.Disk disk() {
        return new RaftReport.Disk(1_000, List.of(1L, 1L, 1L), List.of(1L, 1L, 1L), List.of(0L, 0L, 0L), 0);
    }
}
