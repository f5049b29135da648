package dev.hangar.launcher.command;

import dev.hangar.launcher.command.BenchWorkload.Outcome;
import dev.hangar.launcher.command.BenchWorkload.Plan;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.flush.LatencyHistogram;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of one {@code bench} run, as one JSON object or a table. Fields of the JSON object:
 * <ul>
 *   <li>{@code messages} (put calls' messages), {@code failed}, {@code statuses{STATUS: n}};</li>
 *   <li>the workload: {@code size, threads, topics, queues, batch, inflight, rate} (target messages/s, 0 = unthrottled),
 *       {@code durationSeconds} (0 when a number of messages was asked);</li>
 *   <li>{@code putSeconds, putTps, mbPerSecond} (MiB of bodies per second of putting), {@code dispatchedSeconds}
 *       (from the first put until every message is readable by queue offset and by key);</li>
 *   <li>{@code latencyMicros{p50,p99,p999,max,mean}} per put call, within 1.6 % ({@link LatencyHistogram}), measured
 *       from {@code latencyFrom}: "intended send time" with a rate, else "call start";</li>
 *   <li>{@code flushes} (during this run), {@code messagesPerFlush}; the providers {@code putMessageLock,
 *       flushService, mappedFile, dispatchers}; {@code flushDiskType, store};</li>
 *   <li>{@code readableTps}: messages per second until every message was readable ({@code dispatchedSeconds});</li>
 *   <li>what the bench did besides the store's work: {@code benchOwnPercent} (of the put threads' time outside the
 *       store's calls, pacing waits excluded), {@code putThreadCpuPercent} (the put threads' CPU time over their
 *       wall time: below 100 when they waited for a core or for answers), {@code keysBuiltBeforeClock} and
 *       {@code prepareSeconds} (the keys built before the clock), {@code keyThreadCpuSeconds} (the key producer
 *       thread's CPU during the run, 0 when every key was built before it), {@code warmupRounds, warmupMessages,
 *       warmupSeconds, warmupSettled} (the uncounted warm-up, see {@link BenchWarmup}), {@code jitSecondsDuringRun}
 *       (the JIT's compilation time during the timed run, all compiler threads; -1 when the JVM does not say).</li>
 * </ul>
 * Immutable.
 */
final class BenchReport {
    private static final double MIB = 1024.0 * 1024.0;

    private final Map<String, Object> figures = new LinkedHashMap<>();

    /**
     * What was done before the clock started: the warm-up, and the keys built ahead.
     *
     * @param keyThreadCpuNanos CPU time of the key producer thread during the run
     * @param jitMillisDuringRun the JIT's compilation time during the run (all compiler threads), -1 if unknown
     */
    record Preparation(BenchWarmup.Result warmup, long prepareNanos, long keysBeforeClock, long keyThreadCpuNanos,
                       long jitMillisDuringRun) {
    }

    /** @param flushes commit-log flushes during the run */
    BenchReport(Plan plan, Outcome outcome, long readableNanos, long flushes, Map<String, String> providers,
                StoreConfig config, Path store, Preparation prepared) {
        double putSeconds = outcome.putNanos() / 1e9;
        figures.put("messages", outcome.attemptedMessages());
        figures.put("failed", outcome.failedMessages());
        Map<String, Object> statuses = new LinkedHashMap<>();
        outcome.statuses().forEach((status, count) -> statuses.put(status.name(), count));
        figures.put("statuses", statuses);
        figures.put("size", plan.size());
        figures.put("threads", plan.threads());
        figures.put("topics", plan.topics());
        figures.put("queues", plan.queues());
        figures.put("batch", plan.batch());
        figures.put("inflight", plan.inflight());
        figures.put("rate", plan.rate());
        figures.put("durationSeconds", plan.durationSeconds());
        figures.put("putSeconds", round(putSeconds, 3));
        figures.put("putTps", round(outcome.okMessages() / Math.max(putSeconds, 1e-9), 1));
        figures.put("mbPerSecond", round(outcome.okMessages() * (double) plan.size() / MIB / Math.max(putSeconds, 1e-9), 2));
        figures.put("dispatchedSeconds", round(readableNanos / 1e9, 3));
        LatencyHistogram l = outcome.latencies();
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("p50", l.percentile(0.50));
        latency.put("p99", l.percentile(0.99));
        latency.put("p999", l.percentile(0.999));
        latency.put("max", l.max());
        latency.put("mean", round(l.mean(), 1));
        figures.put("latencyMicros", latency);
        figures.put("latencyFrom", plan.rate() > 0 ? "intended send time" : "call start");
        figures.put("flushes", flushes);
        figures.put("messagesPerFlush", flushes <= 0 ? 0 : round((double) outcome.okMessages() / flushes, 1));
        figures.put("putMessageLock", providers.get("putMessageLock"));
        figures.put("flushService", providers.get("flushService"));
        figures.put("mappedFile", providers.get("mappedFile"));
        figures.put("dispatchers", providers.get("dispatchers"));
        figures.put("flushDiskType", config.get(StoreConfigKeys.FLUSH_DISK_TYPE));
        figures.put("store", store.toString());
        figures.put("readableTps", round(outcome.okMessages() / Math.max(readableNanos / 1e9, 1e-9), 1));
        BenchWorkload.ThreadTime time = outcome.time();
        figures.put("benchOwnPercent", round(time.ownPercent(), 2));
        figures.put("putThreadCpuPercent", time.wallNanos() <= 0 ? 0 : round(100.0 * time.cpuNanos() / time.wallNanos(), 1));
        figures.put("keysBuiltBeforeClock", prepared.keysBeforeClock());
        figures.put("prepareSeconds", round(prepared.prepareNanos() / 1e9, 3));
        figures.put("keyThreadCpuSeconds", round(prepared.keyThreadCpuNanos() / 1e9, 3));
        figures.put("warmupRounds", prepared.warmup().rounds());
        figures.put("warmupMessages", prepared.warmup().messages());
        figures.put("warmupSeconds", round(prepared.warmup().seconds(), 3));
        figures.put("warmupSettled", prepared.warmup().settled());
        figures.put("jitSecondsDuringRun", prepared.jitMillisDuringRun() < 0 ? -1
                : round(prepared.jitMillisDuringRun() / 1000.0, 3));
    }

    Map<String, Object> figures() {
        return figures;
    }

    void printJson(PrintWriter out) {
        out.println(JsonWriter.write(figures));
    }

    @SuppressWarnings("unchecked")
    void printTable(PrintWriter out) {
        Map<String, Object> latency = (Map<String, Object>) figures.get("latencyMicros");
        row(out, "messages", figures.get("messages") + " x " + figures.get("size") + " B, " + figures.get("failed")
                + " failed " + figures.get("statuses"));
        row(out, "workload", figures.get("threads") + " threads, " + figures.get("topics") + " topic(s) x "
                + figures.get("queues") + " queues, batch " + figures.get("batch")
                + (((Number) figures.get("inflight")).intValue() > 1 ? ", " + figures.get("inflight") + " in flight" : "")
                + (((Number) figures.get("rate")).longValue() > 0 ? ", rate " + figures.get("rate") + " msg/s" : "")
                + (((Number) figures.get("durationSeconds")).longValue() > 0 ? ", for " + figures.get("durationSeconds") + " s" : ""));
        row(out, "put", figures.get("putSeconds") + " s, " + figures.get("putTps") + " msg/s, "
                + figures.get("mbPerSecond") + " MiB/s");
        row(out, "readable after", figures.get("dispatchedSeconds") + " s (by queue offset and by key), "
                + figures.get("readableTps") + " msg/s");
        row(out, "put latency us", "p50 " + latency.get("p50") + ", p99 " + latency.get("p99") + ", p99.9 "
                + latency.get("p999") + ", max " + latency.get("max") + ", mean " + latency.get("mean")
                + " (from " + figures.get("latencyFrom") + ")");
        row(out, "flushes", figures.get("flushes") + " (" + figures.get("messagesPerFlush") + " messages per flush)");
        row(out, "providers", "putMessageLock=" + figures.get("putMessageLock") + ", flushService="
                + figures.get("flushService") + ", mappedFile=" + figures.get("mappedFile") + ", dispatchers="
                + figures.get("dispatchers"));
        row(out, "store", figures.get("store") + " (" + figures.get("flushDiskType") + ")");
        row(out, "bench's own", figures.get("benchOwnPercent") + " % of the put threads' time outside pacing "
                + "(preparing calls, counting answers); put threads on a CPU " + figures.get("putThreadCpuPercent")
                + " % of theirs");
        row(out, "before the clock", figures.get("keysBuiltBeforeClock") + " keys built in " + figures.get("prepareSeconds")
                + " s" + (((Number) figures.get("keyThreadCpuSeconds")).doubleValue() > 0
                ? ", the rest on a key thread (" + figures.get("keyThreadCpuSeconds") + " s of CPU)" : "")
                + "; warm-up " + figures.get("warmupRounds") + " round(s), " + figures.get("warmupMessages")
                + " messages in " + figures.get("warmupSeconds") + " s (not counted"
                + (Boolean.TRUE.equals(figures.get("warmupSettled")) ? ", JIT settled)" : ", JIT still compiling)")
                + "; JIT compiling during the run " + figures.get("jitSecondsDuringRun") + " s");
    }

    private static void row(PrintWriter out, String label, String value) {
        out.printf(Locale.ROOT, "%-16s %s%n", label, value);
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
