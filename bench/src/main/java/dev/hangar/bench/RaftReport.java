package dev.hangar.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** What {@link RaftBench} measured: every round, the medians and ranges per engine, and the Hangar/DLedger ratios. */
final class RaftReport {
    private final List<Round> rounds;
    private final List<String> failedRounds;
    private final List<String> engines;
    private final int messages;
    private final int closedMessages;
    private final int warmup;
    private final int closedWarmup;
    private final String ack;
    private final Machine machine;
    private final String loadBefore;
    private final String loadAfter;

    RaftReport(List<Round> rounds, List<String> failedRounds, List<String> engines, int messages, int closedMessages,
               int warmup, int closedWarmup, String ack, Machine machine,
               String loadBefore, String loadAfter) {
        this.rounds = rounds;
        this.failedRounds = failedRounds;
        this.engines = engines;
        this.messages = messages;
        this.closedMessages = closedMessages;
        this.warmup = warmup;
        this.closedWarmup = closedWarmup;
        this.ack = ack;
        this.machine = machine;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
    }

    /** A throughput row on the leader; {@code used}: what each node's process used over it, by node index. */
    record Row(int threads, int inFlight, int messages, double seconds, long failed, long bytes, long p50Nanos,
               long p99Nanos, List<ProcStats> used, int leader) {
        long acknowledged() {
            return messages - failed;
        }

        double rate() {
            return acknowledged() / seconds;
        }

        double cpuMicros(boolean onLeader) {
            return perMessage(onLeader, s -> s.cpuNanos() / 1000.0);
        }

        double writeBytes(boolean onLeader) {
            return perMessage(onLeader, s -> s.writeBytes() < 0 ? Double.NaN : s.writeBytes());
        }

        /** The leader's value per acknowledged message, or the followers' mean. */
        private double perMessage(boolean onLeader, ToDoubleFunction<ProcStats> f) {
            double sum = 0;
            int count = 0;
            for (int i = 0; i < used.size(); i++) {
                if ((i == leader) == onLeader) {
                    sum += f.applyAsDouble(used.get(i));
                    count++;
                }
            }
            return sum / count / acknowledged();
        }

        double messageBytes() {
            return acknowledged() == 0 ? Double.NaN : (double) bytes / acknowledged();
        }

        String label() {
            return inFlight > 1 ? threads + " x " + inFlight + " in flight" : threads + " closed-loop threads";
        }
    }

    /**
     * The logs after {@code messages} acknowledged puts, per node: the CommitLog's end offset ({@code logEnd}: the
     * bytes the messages take in it, with DLedger's entry headers, which sit inside its CommitLog), and the blocks
     * the message log and the Raft log beside it take on disk ({@code du}; files made ahead or preallocated count
     * whole).
     */
    record Disk(long messages, List<Long> logEnd, List<Long> messageLog, List<Long> raftLog, int leader) {
        double perMessage(List<Long> bytes, boolean onLeader) {
            double sum = 0;
            int count = 0;
            for (int i = 0; i < bytes.size(); i++) {
                if ((i == leader) == onLeader) {
                    sum += bytes.get(i);
                    count++;
                }
            }
            return sum / count / messages;
        }
    }

    /** {@code millis}: kill -9 of {@code killed} until {@code newLeader} acknowledged a put; NaN when none did. */
    record Failover(double millis, String killed, String newLeader) {
    }

    /** CPU a node burns with no puts, in cores: the leader's and the followers' mean. */
    record Idle(double leaderCores, double followerCores) {
    }

    /** {@code notes}: what went unlike the plan (a follower left behind), for the report. */
    record Round(String engine, int round, double electedSeconds, Idle idle, Row inFlight, Row closed, Disk disk,
                 Failover failover, double seconds, List<String> notes) {
        String summary() {
            return String.format(Locale.ROOT, "%s: first leader %.1f s; idle CPU leader %.0f %%, follower %.0f %%;"
                    + " %s %,.0f/s (%d failed, p50 %,d us, p99 %,d us);"
                    + " %s %,.0f/s (%d failed, p50 %,d us, p99 %,d us);"
                    + " CPU/msg leader %.0f us, follower %.0f us; write_bytes/msg leader %,.0f, follower %,.0f;"
                    + " failover %s (%s killed, %s took over); round %.0f s", engine, electedSeconds,
                    idle.leaderCores() * 100, idle.followerCores() * 100,
                    inFlight.label(), inFlight.rate(), inFlight.failed(), inFlight.p50Nanos() / 1000,
                    inFlight.p99Nanos() / 1000, closed.label(), closed.rate(), closed.failed(),
                    closed.p50Nanos() / 1000, closed.p99Nanos() / 1000, inFlight.cpuMicros(true),
                    inFlight.cpuMicros(false), inFlight.writeBytes(true),
                    inFlight.writeBytes(false), Double.isNaN(failover.millis()) ? "none within 60 s"
                            : String.format(Locale.ROOT, "%,.0f ms", failover.millis()), failover.killed(),
                    failover.newLeader(), seconds);
        }
    }

    /** A figure of a round; {@code format} prints one value. */
    record Metric(String name, String format, ToDoubleFunction<Round> value) {
    }

    static final List<Metric> METRICS = List.of(
            new Metric("put msgs/s, 4 x 256 in flight", "%,.0f", r -> r.inFlight().rate()),
            new Metric("put msgs/s, 16 closed-loop threads", "%,.0f", r -> r.closed().rate()),
            new Metric("failover ms, kill -9 of the leader to the first acknowledged put", "%,.0f",
                    r -> r.failover().millis()),
            new Metric("put latency p99 ms, 4 x 256 in flight", "%,.1f", r -> r.inFlight().p99Nanos() / 1e6),
            new Metric("put latency p50 ms, 16 closed-loop threads", "%,.1f", r -> r.closed().p50Nanos() / 1e6),
            new Metric("put latency p99 ms, 16 closed-loop threads", "%,.1f", r -> r.closed().p99Nanos() / 1e6),
            new Metric("idle CPU, % of a core, leader (no puts, 3 s)", "%,.1f", r -> r.idle().leaderCores() * 100),
            new Metric("idle CPU, % of a core, follower (no puts, 3 s)", "%,.1f",
                    r -> r.idle().followerCores() * 100),
            new Metric("CPU µs per message, leader (with the load generator; in-flight row)", "%,.1f",
                    r -> r.inFlight().cpuMicros(true)),
            new Metric("CPU µs per message, follower (mean of two; in-flight row)", "%,.1f",
                    r -> r.inFlight().cpuMicros(false)),
            new Metric("CPU µs per message, leader (16 closed-loop threads)", "%,.1f",
                    r -> r.closed().cpuMicros(true)),
            new Metric("CPU µs per message, follower (16 closed-loop threads)", "%,.1f",
                    r -> r.closed().cpuMicros(false)),
            new Metric("storage writes B per message, leader (write_bytes; in-flight row)", "%,.0f",
                    r -> r.inFlight().writeBytes(true)),
            new Metric("storage writes B per message, follower (write_bytes; in-flight row)", "%,.0f",
                    r -> r.inFlight().writeBytes(false)),
            new Metric("CommitLog B per message (its end offset; DLedger's includes its entry headers)", "%,.0f",
                    r -> r.disk().perMessage(r.disk().logEnd(), true)),
            new Metric("message log on disk B per message, leader (du)", "%,.0f",
                    r -> r.disk().perMessage(r.disk().messageLog(), true)),
            new Metric("message log on disk B per message, follower (du)", "%,.0f",
                    r -> r.disk().perMessage(r.disk().messageLog(), false)),
            new Metric("Raft log beside it on disk B per message, leader (du)", "%,.1f",
                    r -> r.disk().perMessage(r.disk().raftLog(), true)),
            new Metric("Raft log beside it on disk B per message, follower (du)", "%,.1f",
                    r -> r.disk().perMessage(r.disk().raftLog(), false)),
            new Metric("encoded message size B (the store's wroteBytes)", "%,.0f", r -> r.inFlight().messageBytes()),
            new Metric("first leader takes puts, s after the nodes started", "%,.1f", r -> r.electedSeconds()));

    /** Median, min and max of the finite values; NaN when there are none. */
    static double[] spread(List<Double> values) {
        List<Double> v = new ArrayList<>(values.stream().filter(d -> !d.isNaN() && !d.isInfinite()).toList());
        if (v.isEmpty()) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        v.sort(null);
        int n = v.size();
        double median = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
        return new double[] {median, v.get(0), v.get(n - 1)};
    }

    private List<Round> of(String engine) {
        return rounds.stream().filter(r -> r.engine().equals(engine)).toList();
    }

    private static String cell(String format, double[] s, int count) {
        if (Double.isNaN(s[0])) {
            return "- | - | 0";
        }
        return String.format(Locale.ROOT, format, s[0]) + " | " + String.format(Locale.ROOT, format, s[1]) + " – "
                + String.format(Locale.ROOT, format, s[2]) + " | " + count;
    }

    /** Per metric and engine: median, range and how many rounds gave a value. */
    String medianTable() {
        StringBuilder t = new StringBuilder("| measure | engine | median | min – max | rounds |\n"
                + "|---|---|---|---|---|\n");
        for (Metric m : METRICS) {
            for (String e : engines) {
                List<Double> v = of(e).stream().map(r -> m.value().applyAsDouble(r)).toList();
                long finite = v.stream().filter(d -> !d.isNaN()).count();
                t.append("| ").append(m.name()).append(" | ").append(e).append(" | ")
                        .append(cell(m.format(), spread(v), (int) finite)).append(" |\n");
            }
        }
        return t.toString();
    }

    /** Hangar / DLedger per round (the two engines of one round ran back to back), median and range. */
    String ratioTable() {
        if (!engines.contains(RaftBench.HANGAR) || !engines.contains(RaftBench.DLEDGER)) {
            return "(ratios need both engines in the run)\n";
        }
        StringBuilder t = new StringBuilder("| measure | Hangar / DLedger, median | min – max | rounds |\n"
                + "|---|---|---|---|\n");
        for (Metric m : METRICS) {
            List<Double> ratios = new ArrayList<>();
            for (Round h : of(RaftBench.HANGAR)) {
                for (Round d : of(RaftBench.DLEDGER)) {
                    if (h.round() == d.round()) {
                        ratios.add(m.value().applyAsDouble(h) / m.value().applyAsDouble(d));
                    }
                }
            }
            long finite = ratios.stream().filter(d -> !d.isNaN() && !d.isInfinite()).count();
            t.append("| ").append(m.name()).append(" | ").append(cell("%.2f", spread(ratios), (int) finite)
                    .replaceFirst(" \\| ", " | ")).append(" |\n");
        }
        return t.toString();
    }

    private String preamble() {
        return String.format(Locale.ROOT, "Machine: %d CPUs (%s), %s, %s, %s; %s. Load average (1 min) %s at the start,"
                        + " %s at the end: other processes (builds) share the CPUs. %d round(s), the engine order "
                        + "shuffled in each; %,d messages in the in-flight row and %,d in the closed-loop row (fewer: it"
                        + " waits out each commit) after unrecorded warm-up puts per group (%,d in flight, then closed-loop"
                        + " runs of %,d until the three JVMs compiled for under 10 %% of a run's time);"
                        + " Hangar with raft.ack=%s. On a loaded 2-core machine three JVMs per group contend for the"
                        + " CPUs: read the ratios, not the absolutes.%n%n", machine.cpus(), machine.cpuModel(),
                machine.memory(), machine.jdk(), machine.os(), machine.date(), loadBefore, loadAfter,
                rounds.stream().mapToInt(Round::round).max().orElse(0), messages, closedMessages, warmup, closedWarmup,
                ack);
    }

    /** The docs/BENCHMARKS.md section. */
    String section() {
        return "## " + RaftBench.SECTION + "\n\n"
                + "Written by `bench/run.sh --raft` (`dev.hangar.bench.RaftBench`): three Hangar nodes (`haService=raft`)\n"
                + "against three RocketMQ 4.9.8 nodes on their own Raft CommitLog (`DefaultMessageStore` with\n"
                + "`enableDLegerCommitLog=true`, DLedger 0.3.1.2 at its defaults), every node a JVM of its own on loopback,\n"
                + "1 KiB messages, 256 MiB files, async flush; the load runs inside the leader's JVM (both put APIs are\n"
                + "in-process store calls). Each round starts a fresh group per engine, engines in a shuffled order, and\n"
                + "measures: put throughput with 4 threads x 256 puts in flight and with 16 closed-loop threads; each\n"
                + "node's CPU time (`/proc/PID/stat`) and storage writes (`/proc/PID/io` write_bytes) over each row,\n"
                + "per acknowledged message (the leader's includes the load generator, the same for both), and with no\n"
                + "puts for 3 s (idle CPU: it is in every row's figure too, most in the slow closed-loop row); the logs'\n"
                + "blocks on disk (`du`) per message; then the failover time: every node's JVM runs a writer that puts\n"
                + "every 10 ms while its node is leader, the leader gets kill -9, and the time runs from the kill to the\n"
                + "first put the new leader acknowledges (`System.nanoTime`, one clock for every JVM of the host).\n"
                + "Without a broker, the bench makes a new DLedger leader SYNC_MASTER once its log is committed and\n"
                + "dispatched, as RocketMQ's broker does. DLedger keeps each message inside its entry data files (its\n"
                + "CommitLog) with its index beside it; Hangar keeps the CommitLog and Ratis' log (`<store>/raft`).\n"
                + "Targets (issue 28): in-flight throughput >= 2x DLedger's; failover <= 2 s and below DLedger's;\n"
                + "the CommitLog bytes plus < 64 B of Raft log per entry.\n\n"
                + preamble() + medianTable() + "\n" + ratioTable() + incidents();
    }

    /** Rounds that failed and rounds that went on without a follower, or nothing. */
    private String incidents() {
        List<String> lines = new ArrayList<>();
        failedRounds.forEach(f -> lines.add("- failed, not in the figures: " + f));
        for (Round r : rounds) {
            r.notes().forEach(n -> lines.add("- round " + r.round() + ", " + r.engine() + ": " + n));
        }
        return lines.isEmpty() ? "" : "\nIncidents:\n\n" + String.join("\n", lines) + "\n";
    }

    /** The section plus every round's figures. */
    String fullReport() {
        StringBuilder b = new StringBuilder("# Raft replication benchmark (three nodes on loopback, 1 KiB)\n\n")
                .append(section()).append("\n## Every round\n\n");
        for (Round r : rounds) {
            b.append("- round ").append(r.round()).append(", ").append(r.summary()).append('\n');
            r.notes().forEach(n -> b.append("  - ").append(n).append('\n'));
            b.append(String.format(Locale.ROOT, "  - after %,d messages: CommitLog end %s, message log on disk %s, Raft log on"
                    + " disk %s (bytes on n0, n1, n2; the leader was n%d)%n", r.disk().messages(), r.disk().logEnd(),
                    r.disk().messageLog(),
                    r.disk().raftLog(), r.disk().leader()));
        }
        return b.toString();
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
