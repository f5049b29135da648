package dev.hangar.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Issue 10's targets, judged from one replication run (HaBench), each with the bound the same run measured: both
 * engines are CPU-bound on this machine's cores, so what a target can reach follows from the CPU each replicated
 * message costs, which a loaded machine distorts far less than it distorts a rate.
 */
final class HaTargets {
    /** The runs HaBench makes per engine; a target reads the ones it needs. */
    enum Run {
        SYNC_CLOSED_LOOP, SYNC_IN_FLIGHT, ASYNC_IN_FLIGHT, ASYNC_FULL, ASYNC_HALF, ASYNC_HALF_OF_REPLICATED,
        /** A paced ASYNC_MASTER run at a rate given on the command line (diagnosis; judges no target). */
        ASYNC_FIXED_RATE
    }

    /** What a target needs of one run: its rate, the CPU it used per message, and its lag p99 (NaN if none). */
    record Measured(String engine, Run run, double messagesPerSecond, double cpuMicrosPerMessage,
                    double lagP99Micros) {
    }

    /** One line of the table. */
    record Row(String target, String measured, String verdict, String bound) {
    }

    static final String HANGAR = "hangar";
    static final String ROCKETMQ = "rocketmq";
    static final double LAG_TARGET_MICROS = 10_000;

    private final List<Measured> runs;
    private final int cores;

    /** @param cores the processors the machine has (what the replicated pipeline can use at most) */
    HaTargets(List<Measured> runs, int cores) {
        this.runs = runs;
        this.cores = cores;
    }

    List<Row> rows() {
        List<Row> t = new ArrayList<>();
        t.add(inFlightRow(HANGAR));
        if (find(HaBench.POOLED_MASTER, Run.SYNC_IN_FLIGHT).isPresent()) {
            t.add(inFlightRow(HaBench.POOLED_MASTER));
        }
        t.add(lagRow(Run.ASYNC_HALF, "ASYNC_MASTER: replication lag p99 ≤ 10 ms at half the maximum (ASYNC, "
                + "16 threads) rate"));
        if (find(HANGAR, Run.ASYNC_HALF_OF_REPLICATED).isPresent()) {
            t.add(lagRow(Run.ASYNC_HALF_OF_REPLICATED, "extra, not the issue's: the same lag target at half the "
                    + "best REPLICATED rate of the run (SYNC_MASTER in flight)"));
        }
        return t;
    }

    /**
     * Throughput ratio against RocketMQ's in-flight SYNC_MASTER rate; bound: RocketMQ's CPU per message over ours,
     * the ratio two CPU-bound engines on the same cores reach.
     */
    private Row inFlightRow(String engine) {
        String target = "SYNC_MASTER, 4 threads × 256 in flight: ≥ 2x RocketMQ"
                + (engine.equals(HANGAR) ? "" : " (" + engine + ", a labelled variant)");
        Optional<Measured> ours = find(engine, Run.SYNC_IN_FLIGHT);
        Optional<Measured> theirs = find(ROCKETMQ, Run.SYNC_IN_FLIGHT);
        if (ours.isEmpty() || theirs.isEmpty()) {
            return new Row(target, "—", Targets.verdict(Double.NaN, 2, true), "—");
        }
        double ratio = ours.get().messagesPerSecond() / theirs.get().messagesPerSecond();
        double cpuRatio = theirs.get().cpuMicrosPerMessage() / ours.get().cpuMicrosPerMessage();
        String measured = String.format(Locale.ROOT, "%.2fx (%,.0f vs %,.0f msg/s)", ratio,
                ours.get().messagesPerSecond(), theirs.get().messagesPerSecond());
        String bound = Double.isNaN(cpuRatio) ? "—" : String.format(Locale.ROOT,
                "CPU per message %.1f vs %.1f µs: a CPU-bound run reaches about %.2fx; %s", ours.get()
                        .cpuMicrosPerMessage(), theirs.get().cpuMicrosPerMessage(), cpuRatio,
                cpuRatio >= 2 ? "2x is within reach" : String.format(Locale.ROOT,
                        "2x needs our CPU per message ≤ %.1f µs", theirs.get().cpuMicrosPerMessage() / 2));
        return new Row(target, measured, Targets.verdict(ratio, 2, true), bound);
    }

    /**
     * Hangar's lag p99 in a paced run; bound: the cores that rate needs (rate × CPU per message) against the
     * machine's, and that rate as a share of Hangar's best replicated rate of the run.
     */
    private Row lagRow(Run run, String target) {
        Optional<Measured> paced = find(HANGAR, run);
        if (paced.isEmpty()) {
            return new Row(target, "—", Targets.verdict(Double.NaN, LAG_TARGET_MICROS, false), "—");
        }
        Measured m = paced.get();
        String measured = String.format(Locale.ROOT, "p99 %,.0f µs at %,.0f msg/s", m.lagP99Micros(),
                m.messagesPerSecond());
        double needed = coresNeeded(m.messagesPerSecond(), m.cpuMicrosPerMessage());
        StringBuilder bound = new StringBuilder(String.format(Locale.ROOT,
                "%.1f µs CPU per message × %,.0f/s = %.2f of %d cores", m.cpuMicrosPerMessage(),
                m.messagesPerSecond(), needed, cores));
        Optional<Measured> best = find(HANGAR, Run.SYNC_IN_FLIGHT);
        if (best.isPresent()) {
            bound.append(String.format(Locale.ROOT, "; %.0f%% of the best replicated rate (%,.0f msg/s)",
                    100 * m.messagesPerSecond() / best.get().messagesPerSecond(), best.get().messagesPerSecond()));
        }
        String verdict = Targets.verdict(m.lagP99Micros(), LAG_TARGET_MICROS, false);
        Optional<Measured> floor = find(RawPipePair.NAME, run);
        if (floor.isPresent()) {
            double floorP99 = floor.get().lagP99Micros();
            bound.append(String.format(Locale.ROOT, "; the floor (%s: the same bytes master to slave, no store work) "
                    + "at the same rate: p99 %,.0f µs", RawPipePair.NAME, floorP99));
            if (floorP99 > LAG_TARGET_MICROS && m.lagP99Micros() > LAG_TARGET_MICROS) {
                verdict += "; out of reach on this machine: the floor misses it too";
            }
        }
        return new Row(target, measured, verdict, bound.toString());
    }

    /** The cores a pipeline costing {@code cpuMicrosPerMessage} keeps busy at {@code messagesPerSecond}. */
    static double coresNeeded(double messagesPerSecond, double cpuMicrosPerMessage) {
        return messagesPerSecond * cpuMicrosPerMessage / 1e6;
    }

    /** The table as Markdown, the form of the generated section. */
    String markdown() {
        StringBuilder b = new StringBuilder("| target (issue 10) | measured | verdict | bound measured in this run |\n"
                + "|---|---|---|---|\n");
        for (Row r : rows()) {
            b.append("| ").append(r.target()).append(" | ").append(r.measured()).append(" | ").append(r.verdict())
                    .append(" | ").append(r.bound()).append(" |\n");
        }
        return b.toString();
    }

    /** The engine's runs of that kind, as one: the median of each figure over the rounds (empty without runs). */
    private Optional<Measured> find(String engine, Run run) {
        List<Measured> all = runs.stream().filter(r -> r.engine().equals(engine) && r.run() == run).toList();
        if (all.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Measured(engine, run, median(all, Measured::messagesPerSecond),
                median(all, Measured::cpuMicrosPerMessage), median(all, Measured::lagP99Micros)));
    }

    /** The median of a figure over the rounds, leaving out rounds without it (NaN); NaN when none has it. */
    static double median(List<Measured> all, java.util.function.ToDoubleFunction<Measured> figure) {
        double[] v = all.stream().mapToDouble(figure).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
