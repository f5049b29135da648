package dev.hangar.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How long a run will take on an idle 2-core machine, printed before it starts and written into the report next to
 * what it took: the messages of every run, warm-up and calibration divided by the rate each engine reached on such
 * a machine (docs/BENCHMARKS.md of 2026-11-30; conservative guesses for rows it did not have), plus a fixed cost per
 * run for opening, closing, {@code du}, GC and the pause between runs, and per workload for the raw device sample.
 */
final class DurationEstimate {
    static final double PER_RUN_SECONDS = 2.0;
    static final double DEVICE_SAMPLE_SECONDS = 2.5;
    static final double UNKNOWN_RATE = 100_000;

    /** Messages per second by workload and engine on the idle machine. */
    private static final Map<String, Map<String, Double>> RATES = Map.ofEntries(
            Map.entry("async-1k-4t", Map.of(Workload.HANGAR, 430e3, Workload.ROCKETMQ, 390e3,
                    Workload.CHRONICLE, 600e3)),
            Map.entry("async-128b-4t", Map.of(Workload.HANGAR, 770e3, Workload.ROCKETMQ, 720e3)),
            Map.entry("async-1k-16t-spin", Map.of(Workload.HANGAR, 690e3, Workload.ROCKETMQ, 52e3)),
            Map.entry("async-1k-16t-adaptive", Map.of(Workload.HANGAR, 680e3, Workload.ROCKETMQ, 52e3)),
            Map.entry("async-1k-16t-reentrant", Map.of(Workload.HANGAR, 680e3, Workload.ROCKETMQ, 540e3)),
            Map.entry("transient-pool-1k-4t", Map.of(Workload.HANGAR, 500e3, Workload.ROCKETMQ, 450e3)),
            Map.entry("sync-1k-16t", Map.of(Workload.HANGAR, 16e3, Workload.ROCKETMQ, 16e3)),
            Map.entry("sync-1k-64t", Map.of(Workload.HANGAR, 47e3, Workload.ROCKETMQ, 47e3)),
            Map.entry("sync-1k-4t-inflight256", Map.of(Workload.HANGAR, 60e3, Workload.ROCKETMQ, 60e3)),
            Map.entry("sync-1k-16t-pool", Map.of(Workload.HANGAR, 9e3)),
            Map.entry("sync-1k-4t-inflight256-pool", Map.of(Workload.HANGAR, 100e3)),
            Map.entry(Workload.ONE_THREAD, Map.of(Workload.HANGAR, 150e3, Workload.ROCKETMQ, 70e3,
                    Workload.CHRONICLE, 500e3)),
            Map.entry("batch32-256b-4t", Map.of(Workload.HANGAR, 1000e3, Workload.ROCKETMQ, 820e3)),
            Map.entry("async-256b-4t", Map.of(Workload.HANGAR, 500e3, Workload.ROCKETMQ, 500e3)),
            Map.entry("many-queues-256b-4t", Map.of(Workload.HANGAR, 10e3, Workload.ROCKETMQ, 25e3)),
            Map.entry("queues-100k-256b-4t", Map.of(Workload.HANGAR, 10e3)));

    private DurationEstimate() {
    }

    static Duration of(List<Workload> workloads, int rounds, int stallSeconds, boolean quick) {
        double seconds = 0;
        boolean oneThreadRuns = workloads.stream().anyMatch(w -> w.name().equals(Workload.ONE_THREAD));
        for (Workload w : workloads) {
            seconds += DEVICE_SAMPLE_SECONDS;
            for (String engine : w.engines()) {
                if (w.name().equals(Workload.PUT_STALL)) {
                    // warm-up of a twentieth, then one paced run
                    seconds += 2 * PER_RUN_SECONDS + stallSeconds * (1 + 1 / 20.0) * w.rounds(rounds);
                    continue;
                }
                double perRun = w.effectiveMessages() / rate(w.name(), engine);
                seconds += PER_RUN_SECONDS + perRun / 10 + w.rounds(rounds) * (PER_RUN_SECONDS + perRun);
            }
            if (w.name().equals(Workload.PUT_STALL) && !oneThreadRuns) {
                for (String store : List.of(Workload.HANGAR, Workload.ROCKETMQ)) {
                    seconds += PER_RUN_SECONDS + BenchMain.calibration(quick)
                            .effectiveMessages() / rate(Workload.ONE_THREAD, store);
                }
            }
        }
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    static double rate(String workload, String engine) {
        String store = engine.equals(Workload.HANGAR_PRETOUCH) ? Workload.HANGAR : engine;
        return RATES.getOrDefault(workload, Map.of()).getOrDefault(store, UNKNOWN_RATE);
    }
}
