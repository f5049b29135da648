package dev.hangar.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The benchmark's entry point: runs every workload on Hangar and on RocketMQ 4.9.8, alternating, and writes
 * the report. See {@code bench/run.sh} and {@link #USAGE}.
 */
public final class BenchMain {
    private static final Logger LOG = LoggerFactory.getLogger(BenchMain.class);
    private static final int COMMIT_LOG_FILE_SIZE = 256 * 1024 * 1024;
    static final String USAGE = """
            usage: bench/run.sh [--quick] [--rounds N] [--only NAME[,NAME...]] [--dir DIR] [--out FILE]
              --quick        tiny message counts and 1 round: a smoke run (writes bench/target/BENCHMARKS-quick.md)
              --rounds N     rounds per engine and workload, engine order shuffled each round (default 5)
              --only NAMES   run only these workloads (names below)
              --dir DIR      where the temporary store directories go (default: java.io.tmpdir)
              --out FILE     the report (default docs/BENCHMARKS.md, or bench/target/BENCHMARKS-quick.md with --quick)
            workloads: %s
            """;

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        int rounds = 5;
        Set<String> only = null;
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        Path out = null;
        Path home = Path.of(System.getProperty("hangar.home", "."));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--rounds" -> rounds = Integer.parseInt(value(args, ++i));
                case "--only" -> only = Set.of(value(args, ++i).split(","));
                case "--dir" -> dir = Path.of(value(args, ++i));
                case "--out" -> out = Path.of(value(args, ++i));
                case "--help", "-h" -> {
                    usage();
                    return;
                }
                default -> {
                    System.err.println("unknown argument: " + args[i]);
                    usage();
                    System.exit(2);
                }
            }
        }
        if (quick && !Arrays.asList(args).contains("--rounds")) {
            rounds = 1;
        }
        if (out == null) {
            out = quick ? home.resolve("bench/target/BENCHMARKS-quick.md") : home.resolve("docs/BENCHMARKS.md");
        }
        List<Workload> workloads = new ArrayList<>();
        for (Workload w : Workload.all(quick)) {
            if (only == null || only.contains(w.name())) {
                workloads.add(w);
            }
        }
        if (workloads.isEmpty()) {
            System.err.println("no workload matches " + only);
            usage();
            System.exit(2);
        }
        Files.createDirectories(dir);
        Random order = new Random(ORDER_SEED);
        List<RunResult> runs = new ArrayList<>();
        List<RawDevice> device = new ArrayList<>();
        for (Workload w : workloads) {
            // the raw device once per workload: as many samples as workloads, spread over the whole run
            RawDevice raw = RawDevice.measure(dir);
            LOG.info("raw device: {} x (4 KiB write + fdatasync)/s, median {} us; 1 MiB write + fdatasync: {} MB/s",
                    Math.round(raw.fsyncsPerSecond()), raw.fsyncMedianNanos() / 1000,
                    Math.round(raw.sequentialMbPerSecond()));
            device.add(raw);
            warmUp(w, dir);
            for (int round = 1; round <= rounds; round++) {
                // a fresh random engine order each round, so neither engine always runs on a warmer page cache
                List<String> engines = new ArrayList<>(List.of("hangar", "rocketmq"));
                Collections.shuffle(engines, order);
                for (String engine : engines) {
                    runs.add(BenchRun.run(engine, factory(engine), w, round, dir));
                    settle();
                }
            }
        }
        String command = "bench/run.sh" + (args.length == 0 ? "" : " " + String.join(" ", args));
        Report report = new Report(Machine.describe(), command, rounds, workloads, runs, device);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report.markdown());
        report.summaryLines().forEach(LOG::info);
        LOG.info("report written to {}", out.toAbsolutePath().normalize());
        // RocketMQ leaves non-daemon threads behind (stats, schedulers): end the JVM explicitly
        System.exit(0);
    }

    /** The seed of the engine order, printed in the report so a run can be repeated in the same order. */
    static final long ORDER_SEED = 20261130L;

    private static BenchRun.EngineFactory factory(String engine) {
        return engine.equals("hangar")
                ? (d, wl) -> new HangarEngine(d, wl, COMMIT_LOG_FILE_SIZE)
                : (d, wl) -> new RocketMqEngine(d, wl, COMMIT_LOG_FILE_SIZE);
    }

    /**
     * One unrecorded run per engine before every workload (a tenth of its messages), so no measured run pays for
     * class loading, the JIT of that workload's paths, or a cold page cache.
     */
    private static void warmUp(Workload w, Path dir) throws Exception {
        Workload warm = w.resized(w.name() + "-warmup",
                Math.max(w.threads() * w.batchSize(), w.messages() / 10));
        LOG.info("warming up both engines with {} messages ({})", warm.effectiveMessages(), w.title());
        for (String engine : List.of("hangar", "rocketmq")) {
            BenchRun.run(engine, factory(engine), warm, 0, dir);
            settle();
        }
    }

    /** Lets the previous run's buffers be collected and its files be unmapped before the next run. */
    private static void settle() throws InterruptedException {
        System.gc();
        Thread.sleep(500);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            System.err.println(args[i - 1] + " needs a value");
            usage();
            System.exit(2);
        }
        return args[i];
    }

    private static void usage() {
        System.err.print(USAGE.formatted(String.join(", ", Workload.all(false).stream().map(Workload::name).toList())));
    }
}
