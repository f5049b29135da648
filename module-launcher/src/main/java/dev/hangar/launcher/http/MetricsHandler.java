package dev.hangar.launcher.http;

import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.StatsSnapshot;
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
        StatsSnapshot snapshot = store.statsSnapshot();
        StatsSnapshot.Puts puts = snapshot.puts();
        w.counter("hangar_puts_total", "Messages put with PUT_OK", puts.messages());
        w.counter("hangar_put_bytes_total", "Commit-log bytes written by successful puts", puts.bytes());
        Map<String, Long> failures = new LinkedHashMap<>();
        Map<String, Long> happened = puts.failures();
        for (PutMessageStatus s : PutMessageStatus.values()) {
            if (s != PutMessageStatus.PUT_OK) {
                failures.put(s.name(), happened.getOrDefault(s.name(), 0L));
            }
        }
        w.counters("hangar_put_failures_total", "Puts refused or failed, by status", "status", failures);
        w.histogram("hangar_put_latency_microseconds", "Latency of successful puts, from the call until durable as "
                + "the flush policy promises", puts.latencyMicros());
        w.counter("hangar_dispatched_total", "Records dispatched to the ConsumeQueues and the index", puts.dispatched());
        w.gauge("hangar_writable", "1 when the store takes writes, else 0", snapshot.writable() ? 1 : 0);
        if (snapshot.started()) {
            StatsSnapshot.Flush flush = snapshot.flush();
            w.counter("hangar_flushes_total", "Commit-log flushes (fsync) that advanced the flushed position", flush.flushes());
            w.counter("hangar_flush_failures_total", "Commit-log flushes that failed", flush.failures());
            w.counter("hangar_flushed_bytes_total", "Commit-log bytes flushed", flush.flushedBytes());
            w.histogram("hangar_flush_latency_microseconds", "Latency of commit-log fsyncs", flush.fsyncLatencyMicros());
            w.counter("hangar_group_commit_puts_total", "SYNC_FLUSH puts completed by a group commit",
                    flush.groupCommitPuts());
            w.counter("hangar_group_commit_puts_waited_more_than_one_force_total", "SYNC_FLUSH puts that arrived "
                    + "while a force ran and so waited for the next one too", flush.groupCommitPutsWaitedMoreThanOneForce());
            Map<String, Long> gathers = new LinkedHashMap<>();
            gathers.put("everyone_back", flush.gathers() - flush.gathersBoundRanOut());
            gathers.put("bound_ran_out", flush.gathersBoundRanOut());
            w.counters("hangar_group_commit_gathers_total", "Pauses between two forces for the released writers to "
                    + "put again, by how they ended", "outcome", gathers);
            w.gauge("hangar_dispatch_behind_bytes", "Commit-log bytes written but not yet dispatched",
                    snapshot.dispatch().behindBytes());
            Map<String, Long> waits = new LinkedHashMap<>();
            waits.put("caught_up", snapshot.dispatch().backPressureWaits() - snapshot.dispatch().backPressureWaitsOutlasted());
            waits.put("outlasted", snapshot.dispatch().backPressureWaitsOutlasted());
            w.counters("hangar_put_dispatch_waits_total", "Puts held because dispatch was more than "
                    + "maxDispatchBehindBytes behind, by whether dispatch caught up within the limit", "outcome", waits);
            Map<String, Long> lag = new LinkedHashMap<>();
            Map<String, Long> disabled = new LinkedHashMap<>();
            snapshot.dispatch().plugins().forEach((name, plugin) -> {
                // a disabled plugin lags for good: its lag would page someone forever, its disabled gauge says it
                lag.put(name, plugin.disabled() ? 0L : plugin.lagBytes());
                disabled.put(name, plugin.disabled() ? 1L : 0L);
            });
            w.gauges("hangar_plugin_lag_bytes", "Commit-log bytes readable but not yet handed to a third-party "
                    + "dispatcher, per plugin", "plugin", lag);
            w.gauges("hangar_plugin_disabled", "1 when a third-party dispatcher was disabled after a failure (see stat)",
                    "plugin", disabled);
            StatsSnapshot.CommitLog log = snapshot.commitLog();
            w.gauge("hangar_commitlog_files", "Commit-log files", log.files());
            w.gauge("hangar_commitlog_min_offset", "First commit-log offset kept", log.minOffset());
            w.gauge("hangar_commitlog_max_offset", "Commit-log offset one past the last readable record", log.maxOffset());
            w.gauge("hangar_commitlog_commit_lag_bytes", "Commit-log bytes appended but not yet readable (a write "
                    + "buffer's committer is behind)", log.commitLagBytes());
            w.gauge("hangar_disk_used_ratio", "Used fraction of the store's file system",
                    snapshot.disk().usedRatio());
            ConsumerMetrics.write(w, store);
        }
        StatsSnapshot.Replication ha = snapshot.replication();
        if (ha != null && ha.enabled()) {
            w.gauge("hangar_ha_is_slave", "1 on a SLAVE, 0 on a master", ha.isSlave() ? 1 : 0);
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
        StatsSnapshot.Raft raft = snapshot.raft();
        if (raft != null) {
            raftMetrics(w, raft);
        }
        serverMetrics.accept(w);
        exchange.respond(HttpStatus.OK, PrometheusWriter.CONTENT_TYPE, w.text().getBytes(StandardCharsets.UTF_8));
    }

    /** A raft node's view of its group; the per-peer progress is known (not -1) on the leader only. */
    private static void raftMetrics(PrometheusWriter w, StatsSnapshot.Raft raft) {
        w.gauge("hangar_raft_term", "The current Raft term", raft.term());
        w.gauge("hangar_raft_is_leader", "1 on the leader, else 0", raft.isLeader() ? 1 : 0);
        w.gauge("hangar_raft_leader_ready", "1 on a leader that takes writes, else 0",
                raft.isLeader() && raft.leaderReady() ? 1 : 0);
        w.gauge("hangar_raft_has_leader", "1 while this node knows a leader, else 0", raft.leaderId().isEmpty() ? 0 : 1);
        w.gauge("hangar_raft_committed_offset", "CommitLog offset a majority holds (what reads may show)",
                raft.committedOffset());
        w.gauge("hangar_raft_log_end_offset", "This node's CommitLog end", raft.logEnd());
        w.gauge("hangar_raft_degraded", "1 when the group reports a problem or no leader (see /health)",
                raft.problem().isEmpty() && !raft.leaderId().isEmpty() ? 0 : 1);
        Map<String, Long> match = new LinkedHashMap<>();
        Map<String, Long> lag = new LinkedHashMap<>();
        for (StatsSnapshot.RaftPeer p : raft.peers()) {
            match.put(p.id(), p.matchOffset());
            lag.put(p.id(), p.lagBytes());
        }
        w.gauges("hangar_raft_peer_match_offset", "CommitLog offset the leader knows each peer holds (-1 when "
                + "unknown: on a follower)", "peer", match);
        w.gauges("hangar_raft_peer_lag_bytes", "Leader's log end minus each peer's match offset (-1 when unknown)",
                "peer", lag);
    }
}
