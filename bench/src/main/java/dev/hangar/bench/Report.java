package dev.hangar.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Turns the runs into docs/BENCHMARKS.md: the machine, the method, issue 13's targets with how far each is met or
 * missed, one table of medians per workload with the ratios between engines, and every run. Only completed runs
 * enter a median; failed ones are listed with their reason.
 */
public final class Report implements Targets.Medians {
    private final Machine machine;
    private final String command;
    private final int rounds;
    private final List<Workload> workloads;
    private final List<RunResult> runs;
    private final List<RawDevice> device;
    private final RunFacts facts;

    /**
     * What the run was beyond its results.
     *
     * @param stallSeconds how long each put-stall run lasted
     * @param pacedRates   puts per second the put-stall workload was paced at, by engine
     * @param expected     the duration estimated before the run
     * @param took         the run's actual duration
     */
    /** @param blockBytes the block size of the file system the stores were made on (a directory takes one) */
    public record RunFacts(int stallSeconds, Map<String, Double> pacedRates, Duration expected, Duration took,
                           long blockBytes) {
        public RunFacts(int stallSeconds, Map<String, Double> pacedRates, Duration expected, Duration took) {
            this(stallSeconds, pacedRates, expected, took, 4096);
        }
    }

    public Report(Machine machine, String command, int rounds, List<Workload> workloads, List<RunResult> runs,
                  List<RawDevice> device, RunFacts facts) {
        this.device = device;
        this.machine = machine;
        this.command = command;
        this.rounds = rounds;
        this.workloads = workloads;
        this.runs = runs;
        this.facts = facts;
    }

    /** A figure of a run and how to print it. */
    private record Figure(String name, ToDoubleFunction<RunResult> value, String format) {
    }

    private static final List<Figure> FIGURES = List.of(
            new Figure("messages/s", RunResult::messagesPerSecond, "%,.0f"),
            new Figure("MB/s (bodies)", RunResult::megabytesPerSecond, "%,.1f"),
            new Figure("put latency p50 (µs)", r -> r.p50Nanos() / 1e3, "%,.1f"),
            new Figure("put latency p99 (µs)", r -> r.p99Nanos() / 1e3, "%,.1f"),
            new Figure("put latency p99.9 (µs)", r -> r.p999Nanos() / 1e3, "%,.1f"),
            new Figure("put latency p99.99 (µs)", r -> r.p9999Nanos() / 1e3, "%,.1f"),
            new Figure("put latency max (µs)", r -> r.maxNanos() / 1e3, "%,.0f"),
            new Figure("puts > 20 ms", r -> r.putsOver20ms(), "%,.0f"),
            new Figure("dispatch after last put (ms)", r -> r.dispatchNanos() / 1e6, "%,.1f"),
            new Figure("allocated per message, put caller (B)", RunResult::allocPerMessage, "%,.0f"),
            new Figure("allocated per message, all store threads (B)", RunResult::allocAllThreadsPerMessage, "%,.0f"),
            new Figure("disk used once closed (MiB)", r -> r.diskBytes() / 1048576.0, "%,.1f"),
            new Figure("CommitLog files (256 MiB) entered", r -> r.commitLogWrittenBytes() < 0 ? Double.NaN
                    : Math.ceil(r.commitLogWrittenBytes() / (double) BenchMain.COMMIT_LOG_FILE_SIZE), "%,.0f"),
            new Figure("heap used after GC (MiB)", r -> r.heapUsed() / 1048576.0, "%,.1f"),
            new Figure("failed puts", r -> r.failures(), "%,.0f"));

    /** How an engine is called in the tables. */
    static String displayName(String engine) {
        return switch (engine) {
            case Workload.HANGAR -> "Hangar";
            case Workload.HANGAR_PRETOUCH -> "Hangar, pretoucher on";
            case Workload.ROCKETMQ -> "RocketMQ 4.9.8";
            case Workload.CHRONICLE -> "Chronicle Queue (raw append)";
            default -> engine;
        };
    }

    /** The median of {@code f} over the completed rounds of {@code workload} on {@code engine}; NaN without any. */
    @Override
    public double median(String workload, String engine, ToDoubleFunction<RunResult> f) {
        return medianOfSorted(values(workload, engine, f));
    }

    /** The median of an ascending array; NaN when empty. */
    static double medianOfSorted(double[] v) {
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private double[] values(String workload, String engine, ToDoubleFunction<RunResult> f) {
        return runs.stream().filter(r -> r.ok() && r.workload().equals(workload) && r.engine().equals(engine))
                .mapToDouble(f).sorted().toArray();
    }

    /** "median (min–max)" of a figure over the rounds, or — without runs. */
    private String spread(String workload, String engine, Figure f) {
        double[] v = values(workload, engine, f.value());
        if (v.length == 0) {
            return "—";
        }
        String median = fmt(f.format(), medianOfSorted(v));
        if (v.length == 1) {
            return median;
        }
        return median + " (" + fmt(f.format(), v[0]) + "–" + fmt(f.format(), v[v.length - 1]) + ")";
    }

    public String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Hangar vs Apache RocketMQ 4.9.8 — store benchmark\n\n");
        md.append("Generated by `").append(command).append("` on ").append(machine.date()).append(".\n\n");
        md.append("## Machine\n\n");
        md.append("- CPUs (nproc): ").append(machine.cpus()).append(" — ").append(machine.cpuModel()).append('\n');
        md.append("- Memory: ").append(machine.memory()).append('\n');
        md.append("- JDK: ").append(machine.jdk()).append('\n');
        md.append("- OS: ").append(machine.os()).append("\n\n");
        md.append("## Method\n\n").append(Method.text(rounds, workloads, facts)).append('\n');
        md.append("## Targets\n\nIssue 13's targets, from the medians of this run.\n\n").append(targets()).append('\n');
        md.append("## Raw device (same run)\n\n").append(rawDevice()).append('\n');
        md.append("## Results\n\nMedian (min–max) of the rounds; a ratio is the first engine's median over the "
                + "other's.\n\n");
        for (Workload w : workloads) {
            md.append(workloadTable(w));
        }
        md.append(failedRuns());
        md.append("## Every run\n\n");
        md.append("| workload | engine | round | messages | messages/s | p50 µs | p99 µs | p99.9 µs | p99.99 µs | max µs "
                + "| puts > 20 ms | dispatch ms | B/msg caller | B/msg all threads | disk MiB | failed |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (RunResult r : runs) {
            if (!r.ok()) {
                continue;
            }
            md.append(String.format(Locale.ROOT,
                    "| %s | %s | %d | %,d | %,.0f | %,.1f | %,.1f | %,.1f | %,.1f | %,.0f | %d | %,.1f | %,.0f | %,.0f "
                            + "| %,.1f | %d |%n",
                    r.workload(), r.engine(), r.round(), r.messages(), r.messagesPerSecond(), r.p50Nanos() / 1e3,
                    r.p99Nanos() / 1e3, r.p999Nanos() / 1e3, r.p9999Nanos() / 1e3, r.maxNanos() / 1e3,
                    r.putsOver20ms(), r.dispatchNanos() / 1e6, r.allocPerMessage(), r.allocAllThreadsPerMessage(),
                    r.diskBytes() / 1048576.0, r.failures()));
        }
        return md.toString();
    }

    /** Engines of {@code w} in its order; the first is the one the ratios are of. */
    private String workloadTable(Workload w) {
        List<String> engines = w.engines();
        StringBuilder md = new StringBuilder("### ").append(w.name()).append(" — ").append(w.title());
        if (w.name().equals(Workload.PUT_STALL)) {
            md.append(", ").append(facts.stallSeconds()).append(" s per engine, 1 round; paced at");
            String sep = " ";
            for (Map.Entry<String, Double> e : facts.pacedRates().entrySet()) {
                md.append(sep).append(String.format(Locale.ROOT, "%,.0f puts/s (%s)", e.getValue(),
                        displayName(e.getKey())));
                sep = ", ";
            }
        } else {
            md.append(String.format(Locale.ROOT, " (%,d messages", w.effectiveMessages()));
            if (w.rounds(rounds) != rounds) {
                md.append(", ").append(w.rounds(rounds)).append(" round").append(w.rounds(rounds) == 1 ? "" : "s");
            }
            md.append(')');
        }
        md.append("\n\n");
        if (engines.contains(Workload.CHRONICLE)) {
            md.append("Chronicle Queue: raw append, no ConsumeQueue/index, timed until written (its appender "
                    + "returns once the excerpt is in the mapped file, readable by a tailer).\n\n");
        }
        String first = engines.get(0);
        md.append("| figure |");
        engines.forEach(e -> md.append(' ').append(displayName(e)).append(" |"));
        engines.subList(1, engines.size()).forEach(e -> md.append(' ').append(displayName(first)).append(" / ")
                .append(displayName(e)).append(" |"));
        md.append("\n|---|");
        md.append("---:|".repeat(2 * engines.size() - 1)).append('\n');
        for (Figure f : FIGURES) {
            md.append("| ").append(f.name()).append(" |");
            engines.forEach(e -> md.append(' ').append(spread(w.name(), e, f)).append(" |"));
            double a = median(w.name(), first, f.value());
            engines.subList(1, engines.size()).forEach(e -> md.append(' ')
                    .append(ratio(a, median(w.name(), e, f.value()))).append(" |"));
            md.append('\n');
        }
        return md.append('\n').toString();
    }

    private String failedRuns() {
        List<RunResult> failed = runs.stream().filter(r -> !r.ok()).toList();
        if (failed.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("### Runs that did not complete\n\n| workload | engine | round | why |\n"
                + "|---|---|---:|---|\n");
        failed.forEach(r -> md.append("| ").append(r.workload()).append(" | ").append(r.engine()).append(" | ")
                .append(r.round()).append(" | ").append(r.error().replace('|', '/').replace('\n', ' ')).append(" |\n"));
        return md.append('\n').toString();
    }

    String targets() {
        StringBuilder t = new StringBuilder("| target | measured (median) | verdict | bound measured in this run |\n"
                + "|---|---|---|---|\n");
        for (Targets.Row r : targetRows()) {
            t.append("| ").append(r.target()).append(" | ").append(r.measured()).append(" | ").append(r.verdict())
                    .append(" | ").append(r.bound()).append(" |\n");
        }
        return t.toString();
    }

    private List<Targets.Row> targetRows() {
        return new Targets(this, runs, fsyncLatencySeconds(), facts.stallSeconds(), facts.blockBytes(),
                medianOfSorted(device.stream().mapToDouble(d -> d.groupFsyncMedianNanos() / 1e9).sorted().toArray()))
                .rows();
    }

    private double fsyncLatencySeconds() {
        return medianOfSorted(device.stream().mapToDouble(d -> d.fsyncMedianNanos() / 1e9).sorted().toArray());
    }

    private static String spreadOf(double[] v, String format) {
        if (v.length == 0) {
            return "—";
        }
        double[] sorted = v.clone();
        Arrays.sort(sorted);
        return fmt(format, medianOfSorted(sorted)) + " (" + fmt(format, sorted[0]) + "–"
                + fmt(format, sorted[sorted.length - 1]) + ")";
    }

    /** The device rows, and each sync and async workload's Hangar figure as a fraction of them. */
    private String rawDevice() {
        double[] fsyncs = device.stream().mapToDouble(RawDevice::fsyncsPerSecond).toArray();
        double[] fsyncMicros = device.stream().mapToDouble(d -> d.fsyncMedianNanos() / 1e3).toArray();
        double[] mbs = device.stream().mapToDouble(RawDevice::sequentialMbPerSecond).toArray();
        StringBuilder t = new StringBuilder("| measure (one sample before each workload) | median (min–max) |\n"
                + "|---|---:|\n");
        t.append("| 4 KiB write + fdatasync, per second | ").append(spreadOf(fsyncs, "%,.0f")).append(" |\n");
        t.append("| 4 KiB write + fdatasync, median latency (µs) | ").append(spreadOf(fsyncMicros, "%,.0f"))
                .append(" |\n");
        double[] groupMicros = device.stream().mapToDouble(d -> d.groupFsyncMedianNanos() / 1e3).toArray();
        t.append("| 16 KiB write + fdatasync (the bodies of one group commit of 16 × 1 KiB), median latency (µs) | ")
                .append(spreadOf(groupMicros, "%,.0f")).append(" |\n");
        t.append("| 1 MiB write + fdatasync, MB/s | ").append(spreadOf(mbs, "%,.1f")).append(" |\n\n");
        double fsyncLatencySeconds = fsyncLatencySeconds();
        double seqMbs = medianOfSorted(Arrays.stream(mbs).sorted().toArray());
        t.append("| workload | Hangar | bound from the device | Hangar as a fraction |\n|---|---:|---:|---:|\n");
        for (Workload w : workloads) {
            double h = median(w.name(), Workload.HANGAR, RunResult::messagesPerSecond);
            if (Double.isNaN(h)) {
                continue;
            }
            if (w.syncFlush() && w.inflight() == 1) {
                double bound = w.threads() / fsyncLatencySeconds;
                t.append(String.format(Locale.ROOT,
                        "| %s | %,.0f msg/s | %,.0f msg/s (%d threads ÷ fdatasync latency) | %.2f |%n",
                        w.name(), h, bound, w.threads(), h / bound));
            } else {
                double mb = median(w.name(), Workload.HANGAR, RunResult::megabytesPerSecond);
                t.append(String.format(Locale.ROOT,
                        "| %s | %,.1f MB/s (bodies) | %,.1f MB/s (1 MiB + fdatasync) | %.2f |%n",
                        w.name(), mb, seqMbs, mb / seqMbs));
            }
        }
        return t.toString();
    }

    private static String fmt(String format, double v) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, format, v);
    }

    private static String ratio(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b) || b == 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f", a / b);
    }

    /** Rows of medians, for the console. */
    public List<String> summaryLines() {
        List<String> lines = new ArrayList<>();
        for (Workload w : workloads) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-24s", w.name()));
            for (String e : w.engines()) {
                line.append(String.format(Locale.ROOT, "  %s %,.0f msg/s", e,
                        median(w.name(), e, RunResult::messagesPerSecond)));
            }
            lines.add(line.toString());
        }
        for (Targets.Row r : targetRows()) {
            lines.add("target: " + r.target() + " — " + r.measured() + " — " + r.verdict()
                    + (r.bound().equals(Targets.NO_BOUND) ? "" : " — bound: " + r.bound()));
        }
        return lines;
    }
}
