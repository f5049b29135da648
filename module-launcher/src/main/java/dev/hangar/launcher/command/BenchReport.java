package dev.hangar.launcher.command;

import dev.hangar.launcher.command.BenchWorkload.Outcome;
import dev.hangar.launcher.command.BenchWorkload.Plan;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of one {@code bench} run, as one JSON object or a table. Field names of the JSON object:
 * {@code messages, failed, statuses, size, threads, topics, queues, batch, putSeconds, putTps, mbPerSecond
 * (MiB of bodies per second of putting), dispatchedSeconds (from the first put until every message is
 * readable by queue offset and by key), latencyMicros{p50,p99,p999,max,mean} (exact, per put call),
 * flushes, messagesPerFlush, putMessageLock, flushService, mappedFile, dispatchers, flushDiskType, store}.
 * Immutable.
 */
final class BenchReport {
    private static final double MIB = 1024.0 * 1024.0;

    private final Map<String, Object> figures = new LinkedHashMap<>();

    BenchReport(Plan plan, Outcome outcome, long readableNanos, Map<String, Object> stats,
                Map<String, String> providers, StoreConfig config, Path store) {
        double putSeconds = outcome.putNanos() / 1e9;
        long flushes = findLong(stats, "flushes");
        figures.put("messages", plan.messages());
        figures.put("failed", outcome.failedMessages(plan.messages()));
        Map<String, Object> statuses = new LinkedHashMap<>();
        outcome.statuses().forEach((status, count) -> statuses.put(status.name(), count));
        figures.put("statuses", statuses);
        figures.put("size", plan.size());
        figures.put("threads", plan.threads());
        figures.put("topics", plan.topics());
        figures.put("queues", plan.queues());
        figures.put("batch", plan.batch());
        figures.put("putSeconds", round(putSeconds, 3));
        figures.put("putTps", round(outcome.okMessages() / Math.max(putSeconds, 1e-9), 1));
        figures.put("mbPerSecond", round(outcome.okMessages() * (double) plan.size() / MIB / Math.max(putSeconds, 1e-9), 2));
        figures.put("dispatchedSeconds", round(readableNanos / 1e9, 3));
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("p50", outcome.percentileMicros(0.50));
        latency.put("p99", outcome.percentileMicros(0.99));
        latency.put("p999", outcome.percentileMicros(0.999));
        latency.put("max", outcome.percentileMicros(1.0));
        latency.put("mean", round(mean(outcome.latenciesMicros()), 1));
        figures.put("latencyMicros", latency);
        figures.put("flushes", flushes);
        figures.put("messagesPerFlush", flushes <= 0 ? 0 : round((double) outcome.okMessages() / flushes, 1));
        figures.put("putMessageLock", providers.get("putMessageLock"));
        figures.put("flushService", providers.get("flushService"));
        figures.put("mappedFile", providers.get("mappedFile"));
        figures.put("dispatchers", providers.get("dispatchers"));
        figures.put("flushDiskType", config.get(StoreConfigKeys.FLUSH_DISK_TYPE));
        figures.put("store", store.toString());
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
                + figures.get("queues") + " queues, batch " + figures.get("batch"));
        row(out, "put", figures.get("putSeconds") + " s, " + figures.get("putTps") + " msg/s, "
                + figures.get("mbPerSecond") + " MiB/s");
        row(out, "readable after", figures.get("dispatchedSeconds") + " s (by queue offset and by key)");
        row(out, "put latency us", "p50 " + latency.get("p50") + ", p99 " + latency.get("p99") + ", p99.9 "
                + latency.get("p999") + ", max " + latency.get("max") + ", mean " + latency.get("mean"));
        row(out, "flushes", figures.get("flushes") + " (" + figures.get("messagesPerFlush") + " messages per flush)");
        row(out, "providers", "putMessageLock=" + figures.get("putMessageLock") + ", flushService="
                + figures.get("flushService") + ", mappedFile=" + figures.get("mappedFile") + ", dispatchers="
                + figures.get("dispatchers"));
        row(out, "store", figures.get("store") + " (" + figures.get("flushDiskType") + ")");
    }

    private static void row(PrintWriter out, String label, String value) {
        out.printf(Locale.ROOT, "%-16s %s%n", label, value);
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    private static double mean(long[] values) {
        if (values.length == 0) {
            return 0;
        }
        double sum = 0;
        for (long v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    /** The first number named {@code name} anywhere in the nested statistics, or 0. */
    static long findLong(Object node, String name) {
        if (node instanceof Map<?, ?> map) {
            Object direct = map.get(name);
            if (direct instanceof Number n) {
                return n.longValue();
            }
            for (Object child : map.values()) {
                long found = findLong(child, name);
                if (found != 0) {
                    return found;
                }
            }
        } else if (node instanceof List<?> list) {
            for (Object child : list) {
                long found = findLong(child, name);
                if (found != 0) {
                    return found;
                }
            }
        }
        return 0;
    }
}
