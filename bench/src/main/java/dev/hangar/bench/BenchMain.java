package dev.hangar.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The benchmark's entry point: runs every workload on the engines it names (Hangar and RocketMQ 4.9.8; Chronicle
 * Queue on the raw-append rows; Hangar with and without its pretoucher on the put-stall row), in a shuffled order
 * each round, and writes the report. See {@code bench/run.sh} and {@link #USAGE}.
 */
public final class BenchMain {
    private static final Logger LOG = LoggerFactory.getLogger(BenchMain.class);
    static final int COMMIT_LOG_FILE_SIZE = 256 * 1024 * 1024;
    /** Seconds the put-stall workload runs per engine (the 60 s), and with --quick. */
    static final int STALL_SECONDS = 60;
    static final int QUICK_STALL_SECONDS = 3;
    /** --stall-rate: the put-stall pace for every engine, or null for half of each store's 1-thread rate. */
    private static Double fixedStallRate;
    static final String USAGE = """
            usage: bench/run.sh [--quick] [--rounds N] [--only NAME[,NAME...]] [--engines NAME[,NAME...]]
                                [--stall-seconds S] [--stall-rate R] [--dir DIR] [--out FILE]
              --quick           tiny message counts, 1 round, a 3 s put-stall run: a smoke run
                                (writes bench/target/BENCHMARKS-quick.md)
              --rounds N        rounds per engine and workload, engine order shuffled each round (default 5)
              --only NAMES      run only these workloads (names below)
              --engines NAMES   run only these engines of each workload (hangar, hangar-pretouch, rocketmq,
                                chronicle): to compare two builds of one engine interleaved
              --stall-seconds S how long the put-stall workload runs per engine (default 60)
              --stall-rate R    pace the put-stall workload at R puts/s for every engine instead of half of each
                                store's 1-thread rate (no calibration run: the same pace for runs being compared)
              --dir DIR         where the temporary store directories go (default: java.io.tmpdir)
              --out FILE        the report (default docs/BENCHMARKS.md, or bench/target/BENCHMARKS-quick.md with
                                --quick); only its generated sections are replaced, the others (HTTP, Replication)
                                are kept
            workloads: %s
            """;

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        // Chronicle Queue would otherwise report usage over the network and print banners
        System.setProperty("chronicle.analytics.disable", "true");
        System.setProperty("chronicle.announcer.disable", "true");
        boolean quick = false;
        int rounds = 5;
        Integer stallSeconds = null;
        Set<String> only = null;
        Set<String> engines = null;
        Double stallRate = null;
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        Path out = null;
        Path home = Path.of(System.getProperty("hangar.home", "."));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--rounds" -> rounds = positive(args, ++i);
                case "--stall-seconds" -> stallSeconds = positive(args, ++i);
                case "--only" -> only = Set.of(value(args, ++i).split(","));
                case "--engines" -> engines = Set.of(value(args, ++i).split(","));
                case "--stall-rate" -> stallRate = (double) positive(args, ++i);
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
        boolean quickRun = quick;
        if (stallSeconds == null) {
            stallSeconds = quick ? QUICK_STALL_SECONDS : STALL_SECONDS;
        }
        if (out == null) {
            out = quick ? home.resolve("bench/target/BENCHMARKS-quick.md") : home.resolve("docs/BENCHMARKS.md");
        }
        if (only != null) {
            List<String> known = Workload.all(quick).stream().map(Workload::name).toList();
            List<String> unknown = only.stream().filter(n -> !known.contains(n)).sorted().toList();
            if (!unknown.isEmpty()) {
                System.err.println("--only names unknown workloads " + unknown + "; known: " + known);
                System.exit(2);
            }
        }
        List<Workload> workloads = new ArrayList<>();
        for (Workload w : Workload.all(quick)) {
            if (only == null || only.contains(w.name())) {
                workloads.add(engines == null ? w : w.withEngines(w.engines().stream().filter(engines::contains)
                        .toArray(String[]::new)));
            }
        }
        workloads.removeIf(w -> w.engines().isEmpty());
        fixedStallRate = stallRate;
        if (workloads.isEmpty()) {
            System.err.println("no workload matches " + only);
            usage();
            System.exit(2);
        }
        Files.createDirectories(dir);
        Path storeDir = dir;
        Duration expected = DurationEstimate.of(workloads, rounds, stallSeconds, quickRun);
        LOG.info("expected duration on an idle 2-core machine: about {} min ({} workloads, {} rounds)",
                Math.round(expected.toSeconds() / 60.0), workloads.size(), rounds);
        long started = System.nanoTime();
        Random order = new Random(ORDER_SEED);
        List<RunResult> runs = new ArrayList<>();
        List<RawDevice> device = new ArrayList<>();
        Map<String, Double> pacedRates = new LinkedHashMap<>();
        Map<String, Double> oneThreadRates = new LinkedHashMap<>();
        Path partial = home.resolve("bench/target/BENCHMARKS-partial.md");
        Files.createDirectories(partial.getParent());
        for (Workload template : workloads) {
            try {
                runWorkload(template, rounds, storeDir, order, runs, device, pacedRates, oneThreadRates, stallSeconds,
                        quickRun);
            } catch (Exception | Error e) {
                // one workload's failure (its calibration, the raw device, a warm-up) must not lose the others
                LOG.error("{} failed", template.name(), e);
                for (String engine : template.engines()) {
                    runs.add(RunResult.failed(engine, template.name(), 1, template.effectiveMessages(),
                            template.messageSize(), e.getClass().getSimpleName() + ": " + e.getMessage()));
                }
            }
            // what is measured so far, for a run that does not reach its end
            Files.writeString(partial, new Report(Machine.describe(), "(partial) bench/run.sh", rounds, workloads,
                    runs, device, new Report.RunFacts(stallSeconds, pacedRates, expected,
                    Duration.ofNanos(System.nanoTime() - started), blockBytes(storeDir))).markdown());
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        String command = "bench/run.sh" + (args.length == 0 ? "" : " " + String.join(" ", args));
        Report report = new Report(Machine.describe(), command, rounds, workloads, runs, device,
                new Report.RunFacts(stallSeconds, pacedRates, expected, took, blockBytes(storeDir)));
        Files.createDirectories(out.toAbsolutePath().getParent());
        String existing = Files.exists(out) ? Files.readString(out) : "";
        Files.writeString(out, GeneratedSections.merge(existing, report.markdown()));
        report.summaryLines().forEach(LOG::info);
        LOG.info("report written to {} after {} min (expected about {} min)", out.toAbsolutePath().normalize(),
                Math.round(took.toSeconds() / 60.0), Math.round(expected.toSeconds() / 60.0));
        BenchRun.deleteDeferred();
        // RocketMQ leaves non-daemon threads behind (stats, schedulers): end the JVM explicitly
        System.exit(0);
    }

    /** Warms up and runs every round of one workload on each of its engines, in a shuffled order each round. */
    private static void runWorkload(Workload template, int rounds, Path dir, Random order, List<RunResult> runs,
                                    List<RawDevice> device, Map<String, Double> pacedRates,
                                    Map<String, Double> oneThreadRates, int stallSeconds, boolean quickRun)
            throws Exception {
        // the raw device once per workload: as many samples as workloads, spread over the whole run
        RawDevice raw = RawDevice.measure(dir);
        LOG.info("raw device: {} x (4 KiB write + fdatasync)/s, median {} us; 1 MiB write + fdatasync: {} MB/s",
                Math.round(raw.fsyncsPerSecond()), raw.fsyncMedianNanos() / 1000,
                Math.round(raw.sequentialMbPerSecond()));
        device.add(raw);
        Map<String, Workload> perEngine = new LinkedHashMap<>();
        for (String engine : template.engines()) {
            Workload w = template;
            if (template.name().equals(Workload.PUT_STALL)) {
                // both Hangar rows at plain Hangar's rate, so the pretoucher is the only difference; Chronicle's raw
                // append at that rate too: the same paced write without store logic, the machine's bound on the row
                String store = engine.equals(Workload.HANGAR_PRETOUCH) || engine.equals(Workload.CHRONICLE)
                        ? Workload.HANGAR : engine;
                double full = fixedStallRate != null ? 2 * fixedStallRate : oneThreadRates.computeIfAbsent(store,
                        s -> oneThreadRate(s, runs, calibration(quickRun), dir));
                pacedRates.put(engine, full / 2);
                LOG.info("put-stall: {} paced at {} puts/s (half of {}'s 1-thread {} msg/s)", engine,
                        Math.round(full / 2), store, Math.round(full));
                w = template.paced(full / 2, stallSeconds);
            }
            perEngine.put(engine, w);
        }
        for (Map.Entry<String, Workload> e : perEngine.entrySet()) {
            warmUp(e.getKey(), e.getValue(), dir);
        }
        int workloadRounds = template.rounds(rounds);
        for (int round = 1; round <= workloadRounds; round++) {
            // a fresh random engine order each round, so no engine always runs on a warmer page cache
            List<String> engines = new ArrayList<>(template.engines());
            Collections.shuffle(engines, order);
            for (String engine : engines) {
                runs.add(runOrRecordFailure(engine, perEngine.get(engine), round, dir));
                settle();
            }
        }
    }

    /** The seed of the engine order, printed in the report so a run can be repeated in the same order. */
    static final long ORDER_SEED = 20261130L;

    static BenchRun.EngineFactory factory(String engine) {
        return switch (engine) {
            // plain Hangar runs with the store's default (pretoucher on), except in the put-stall row, whose point is
            // the comparison with and without the pretoucher
            case Workload.HANGAR -> (d, wl) -> new HangarEngine(d, wl, COMMIT_LOG_FILE_SIZE,
                    wl.name().equals(Workload.PUT_STALL) ? Boolean.FALSE : null);
            case Workload.HANGAR_PRETOUCH -> (d, wl) -> new HangarEngine(d, wl, COMMIT_LOG_FILE_SIZE, Boolean.TRUE);
            case Workload.ROCKETMQ -> (d, wl) -> new RocketMqEngine(d, wl, COMMIT_LOG_FILE_SIZE);
            case Workload.CHRONICLE -> (d, wl) -> new ChronicleEngine(d, wl);
            default -> throw new IllegalArgumentException("unknown engine " + engine + "; known: "
                    + List.of(Workload.HANGAR, Workload.HANGAR_PRETOUCH, Workload.ROCKETMQ, Workload.CHRONICLE));
        };
    }

    /**
     * One measured run; a run that throws (a store that cannot open 100 000 queues, say) is recorded as failed
     * with its reason, so one engine's failure neither ends the benchmark nor loses the other rows.
     */
    private static RunResult runOrRecordFailure(String engine, Workload w, int round, Path dir) {
        try {
            return BenchRun.run(engine, factory(engine), w, round, dir);
        } catch (Exception | Error e) {
            LOG.error("{} {} round {} failed", w.name(), engine, round, e);
            return RunResult.failed(engine, w.name(), round, w.effectiveMessages(), w.messageSize(),
                    e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * The 1-thread rate of {@code store}: the median of the same run's {@link Workload#ONE_THREAD} rounds, or when
     * that row did not run, a short unrecorded calibration run of it.
     */
    private static double oneThreadRate(String store, List<RunResult> runs, Workload calibration, Path dir) {
        double[] rates = runs.stream()
                .filter(r -> r.ok() && r.workload().equals(Workload.ONE_THREAD) && r.engine().equals(store))
                .mapToDouble(RunResult::messagesPerSecond).sorted().toArray();
        if (rates.length > 0) {
            return Report.medianOfSorted(rates);
        }
        try {
            LOG.info("calibrating {}: {} unpaced 1-thread puts", store, calibration.effectiveMessages());
            RunResult r = BenchRun.run(store, factory(store), calibration, 0, dir);
            settle();
            return r.messagesPerSecond();
        } catch (Exception e) {
            throw new IllegalStateException("cannot calibrate the put-stall rate of " + store, e);
        }
    }

    /** A fifth of the 1-thread row's messages, unpaced: enough for its rate, without the row's rounds. */
    static Workload calibration(boolean quick) {
        Workload oneThread = Workload.all(quick).stream().filter(w -> w.name().equals(Workload.ONE_THREAD))
                .findFirst().orElseThrow();
        return oneThread.resized(Workload.ONE_THREAD + "-calibration", Math.max(1, oneThread.messages() / 5));
    }

    /**
     * One unrecorded run of {@code engine} before every workload (a tenth of its messages, a twentieth of a paced
     * one's), so no measured run pays for class loading, the JIT of that workload's paths, or a cold page cache.
     */
    private static void warmUp(String engine, Workload w, Path dir) throws Exception {
        int share = w.isPaced() ? 20 : 10;
        Workload warm = w.resized(w.name() + "-warmup", Math.max(w.threads() * w.batchSize(), w.messages() / share));
        LOG.info("warming up {} with {} messages ({})", engine, warm.effectiveMessages(), w.title());
        RunResult r = runOrRecordFailure(engine, warm, 0, dir);
        if (!r.ok()) {
            LOG.warn("warm-up of {} on {} failed: {}", engine, w.name(), r.error());
        }
        settle();
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

    private static int positive(String[] args, int i) {
        String v = value(args, i);
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        System.err.println(args[i - 1] + " needs a whole number > 0, not \"" + v + "\"");
        usage();
        System.exit(2);
        return 0;
    }

    private static void usage() {
        System.err.print(USAGE.formatted(String.join(", ", Workload.all(false).stream().map(Workload::name).toList())));
    }

    /** The block size of the file system under {@code dir}; 4 KiB (ext4's and XFS's default) if it cannot be read. */
    private static long blockBytes(Path dir) {
        try {
            return Files.getFileStore(dir).getBlockSize();
        } catch (IOException | UnsupportedOperationException e) {
            return 4096;
        }
    }
}
