package dev.hangar.launcher.http;

import dev.hangar.spi.flush.FlushStatistics;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.StoreRuntime;
import dev.hangar.store.service.StoreStats;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code GET /metrics}: the store's counters, gauges and latency histograms in the Prometheus text format, plus the
 * server's own figures. Every put-failure status is always exported (0 when it never happened), so the series set
 * does not change between scrapes. Thread-safe.
 */
final class MetricsHandler implements Router.Handler {
    private final DefaultMessageStore store;
    private final Consumer<PrometheusWriter> serverMetrics;

    /** @param serverMetrics adds the HTTP server's own metrics */
    MetricsHandler(DefaultMessageStore store, Consumer<PrometheusWriter> serverMetrics) {
        this.store = store;
        this.serverMetrics = serverMetrics;
    }

    @Override
    public void handle(ApiExchange exchange) {
        PrometheusWriter w = new PrometheusWriter();
        StoreStats stats = store.stats();
        w.counter("hangar_puts_total", "Messages put with PUT_OK", stats.putMessages());
        w.counter("hangar_put_bytes_total", "Commit-log bytes written by successful puts", stats.putBytes());
        Map<String, Long> failures = new LinkedHashMap<>();
        Map<String, Long> happened = stats.putFailures();
        for (PutMessageStatus s : PutMessageStatus.values()) {
            if (s != PutMessageStatus.PUT_OK) {
                failures.put(s.name(), happened.getOrDefault(s.name(), 0L));
            }
        }
        w.counters("hangar_put_failures_total", "Puts refused or failed, by status", "status", failures);
        w.histogram("hangar_put_latency_microseconds", "Latency of successful puts, from the call until durable as "
                + "the flush policy promises", stats.putLatency());
        w.counter("hangar_dispatched_total", "Records dispatched to the ConsumeQueues and the index", stats.dispatched());
        w.gauge("hangar_writable", "1 when the store takes writes, else 0", store.runningFlags().isWritable() ? 1 : 0);
        StoreRuntime rt = store.runtime();
        if (rt != null) {
            FlushStatistics flush = rt.flushStatistics();
            w.counter("hangar_flushes_total", "Commit-log flushes (fsync) that advanced the flushed position", flush.flushes());
            w.counter("hangar_flush_failures_total", "Commit-log flushes that failed", flush.flushFailures());
            w.counter("hangar_flushed_bytes_total", "Commit-log bytes flushed", flush.flushedBytes());
            w.histogram("hangar_flush_latency_microseconds", "Latency of commit-log fsyncs", flush.fsyncLatency());
            w.gauge("hangar_dispatch_behind_bytes", "Commit-log bytes written but not yet dispatched", rt.reput().behindBytes());
            w.gauges("hangar_plugin_lag_bytes", "Commit-log bytes readable but not yet handed to a third-party "
                    + "dispatcher, per plugin", "plugin", rt.plugins().lagBytes());
            w.gauges("hangar_plugin_disabled", "1 when a third-party dispatcher was disabled after a failure (see stat)",
                    "plugin", rt.plugins().disabled());
            w.gauge("hangar_commitlog_files", "Commit-log files", rt.commitLog().queue().mappedFiles().size());
            w.gauge("hangar_commitlog_min_offset", "First commit-log offset kept", rt.commitLog().getMinOffset());
            w.gauge("hangar_commitlog_max_offset", "Commit-log offset one past the last record", rt.commitLog().getMaxOffset());
            w.gauge("hangar_disk_used_ratio", "Used fraction of the store's file system", usedRatio(rt.root().toFile()));
        }
        dev.hangar.spi.ha.ReplicationStatus ha = store.replicationStatus();
        if (ha != null) {
            w.gauge("hangar_ha_is_slave", "1 on a SLAVE, 0 on a master", ha.role().isMaster() ? 0 : 1);
            w.gauge("hangar_ha_connected_slaves", "Slaves connected to this master", ha.connectedSlaves());
            w.gauge("hangar_ha_acked_offset", "Highest offset a slave acknowledged (on a slave: its own end)",
                    ha.ackedOffset());
            w.gauge("hangar_ha_lag_bytes", "Master end minus the acknowledged offset (-1 on a slave)", ha.lagBytes());
            w.gauge("hangar_ha_lag_milliseconds", "Time since the slaves were last caught up (on a slave: since the "
                    + "last frame)", ha.lagMillis());
            w.gauge("hangar_ha_bytes_per_second", "Bytes shipped (master) or received (slave) per second",
                    ha.bytesPerSecond());
            w.counter("hangar_ha_rejected_connections_total", "HA connections closed for bad input or a stalled peer",
                    ha.rejectedConnections());
            w.gauge("hangar_ha_degraded", "1 when replication has a problem (see /health)", ha.problem().isEmpty() ? 0 : 1);
        }
        serverMetrics.accept(w);
        exchange.respond(HttpStatus.OK, PrometheusWriter.CONTENT_TYPE, w.text().getBytes(StandardCharsets.UTF_8));
    }

    private static double usedRatio(File root) {
        long total = root.getTotalSpace();
        return total == 0 ? 0 : 1.0 - (double) root.getUsableSpace() / total;
    }
}
