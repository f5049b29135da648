package dev.hangar.launcher.http;

import dev.hangar.store.StatsSnapshot;
import java.util.Map;

/**
 * Writes metrics in the Prometheus text exposition format 0.0.4: {@code # HELP} and {@code # TYPE} lines, then one
 * {@code name{label="value"} number} line per sample. Label values are escaped as the format requires
 * ({@code \\}, {@code \"}, {@code \n}). Not thread-safe: one writer per scrape.
 */
final class PrometheusWriter {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    /**
     * Histogram buckets exported: {@code le = 2^i - 1} µs for i up to this (2^36 µs is 19 hours). The set is fixed,
     * so every scrape has the same series.
     */
    static final int MAX_POWER_OF_TWO = 36;

    private final StringBuilder out = new StringBuilder(8192);

    PrometheusWriter counter(String name, String help, long value) {
        header(name, help, "counter");
        sample(name, "", value);
        return this;
    }

    PrometheusWriter gauge(String name, String help, double value) {
        header(name, help, "gauge");
        sample(name, "", value);
        return this;
    }

    /** A counter with one label, one sample per entry. */
    PrometheusWriter counters(String name, String help, String label, Map<String, ? extends Number> values) {
        return labelled(name, help, "counter", label, values);
    }

    /** A gauge with one label, one sample per entry. */
    PrometheusWriter gauges(String name, String help, String label, Map<String, ? extends Number> values) {
        return labelled(name, help, "gauge", label, values);
    }

    private PrometheusWriter labelled(String name, String help, String type, String label,
                                      Map<String, ? extends Number> values) {
        header(name, help, type);
        values.forEach((labelValue, value) -> sample(name, "{" + label + "=\"" + escape(labelValue) + "\"}",
                value.doubleValue()));
        return this;
    }

    /** One sample of a metric with several labels; label values are escaped when written. */
    record Sample(Map<String, String> labels, double value) {
    }

    /** A gauge with several labels per sample (the header is written even when there are no samples). */
    PrometheusWriter labelledGauges(String name, String help, java.util.List<Sample> samples) {
        header(name, help, "gauge");
        for (Sample s : samples) {
            StringBuilder labels = new StringBuilder("{");
            s.labels().forEach((k, v) -> labels.append(labels.length() > 1 ? "," : "").append(k).append("=\"")
                    .append(escape(v)).append('"'));
            sample(name, labels.append('}').toString(), s.value());
        }
        return this;
    }

    /**
     * A histogram from a {@link StatsSnapshot.Latency}: bucket i of which holds values below 2^i µs, so the cumulative
     * count below 2^i is exactly the count of values {@code <= 2^i - 1} (whole microseconds), Prometheus' {@code le}.
     */
    PrometheusWriter histogram(String name, String help, StatsSnapshot.Latency h) {
        header(name, help, "histogram");
        long cumulative = 0;
        for (int i = 0; i <= MAX_POWER_OF_TWO; i++) {
            // the snapshot's buckets are non-decreasing already (read while puts went on)
            cumulative = h.cumulativeBelow(i);
            sample(name + "_bucket", "{le=\"" + ((1L << i) - 1) + "\"}", cumulative);
        }
        long count = Math.max(cumulative, h.count());
        sample(name + "_bucket", "{le=\"+Inf\"}", count);
        sample(name + "_sum", "", h.sumMicros());
        sample(name + "_count", "", count);
        return this;
    }

    String text() {
        return out.toString();
    }

    private void header(String name, String help, String type) {
        out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private void sample(String name, String labels, double value) {
        out.append(name).append(labels).append(' ').append(format(value)).append('\n');
    }

    private void sample(String name, String labels, long value) {
        out.append(name).append(labels).append(' ').append(value).append('\n');
    }

    static String format(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    static String escape(String labelValue) {
        return labelValue.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
