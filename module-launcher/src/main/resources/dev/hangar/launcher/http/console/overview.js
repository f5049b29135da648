// Overview: live charts of the last 15 minutes. The server keeps only current values (/v1/stats, /metrics,
// /health), so the history is kept here, one point per refresh; rates and interval percentiles are the difference
// between two readings of the server's counters and histograms.
"use strict";

(function (H) {
  const { el, clear } = H.dom;
  const fmt = H.fmt;
  const REFRESH_MS = 1000;
  const WINDOW_SECONDS = 15 * 60;

  /** Chart definitions: what each draws and how its values read. */
  const CHARTS = [
    { id: "putRate", title: "Put rate", unit: "messages/s", series: ["puts/s", "failed/s"], format: fmt.number },
    { id: "putLatency", title: "Put latency p99", unit: "per interval", series: ["p99"], format: fmt.micros },
    { id: "flushLatency", title: "Flush (fsync) latency p99", unit: "per interval", series: ["p99"], format: fmt.micros },
    { id: "dispatchLag", title: "Dispatch lag", unit: "bytes written, not yet dispatched", series: ["behind"], format: fmt.bytes },
    { id: "replicationLag", title: "Replication lag", unit: "bytes not acknowledged by the slaves", series: ["slaves"], format: fmt.bytes },
    { id: "disk", title: "Disk use", unit: "% of the store's file system, with the thresholds",
      series: ["used", "retention", "clean forcibly", "refuse puts"],
      format: v => v === null || v === undefined ? "–" : v.toFixed(1) + " %" }
  ];
  const COLORS = ["#2563eb", "#dc2626", "#d97706", "#7c3aed"];

  const history = { t: [] };
  CHARTS.forEach(c => history[c.id] = c.series.map(() => []));
  let previous = null;
  let latest = Date.now() / 1000;
  let timer = null;
  const charts = {};
  const notes = {};

  function build() {
    const box = clear(document.getElementById("charts"));
    CHARTS.forEach(c => {
      const target = el("div", { class: "chart-plot" });
      notes[c.id] = el("p", { class: "chart-note hidden" });
      box.appendChild(el("div", { class: "chart", id: "chart-" + c.id },
        el("h2", null, c.title, el("span", { class: "unit" }, c.unit)), notes[c.id], target));
      const series = [{}].concat(c.series.map((label, i) => ({
        label: label,
        stroke: COLORS[i % COLORS.length],
        width: i === 0 ? 2 : 1,
        dash: c.id === "disk" && i > 0 ? [6, 4] : undefined,
        value: (u, v) => c.format(v)
      })));
      charts[c.id] = new uPlot({
        width: 380,
        height: 180,
        series: series,
        scales: { x: { time: true, range: () => xRange() }, y: c.id === "disk" ? { range: [0, 100] } : { range: (u, min, max) => [0, Math.max(max, 10) * 1.1] } },
        axes: [{}, { size: 80, values: (u, ticks) => ticks.map(v => c.format(v)) }],
        legend: { live: false }
      }, [history.t].concat(history[c.id]), target);
    });
  }

  /** The last 15 minutes, or since the page opened while it is younger (at least 10 s, so one point has room). */
  function xRange() {
    const first = history.t.length ? history.t[0] : latest;
    return [Math.max(latest - WINDOW_SECONDS, Math.min(first, latest - 10)), latest];
  }

  /** Parses the Prometheus text of /metrics into name{labels} -> value. */
  function parseMetrics(text) {
    const out = {};
    text.split("\n").forEach(line => {
      if (!line || line.startsWith("#")) {
        return;
      }
      const space = line.lastIndexOf(" ");
      out[line.slice(0, space)] = Number(line.slice(space + 1));
    });
    return out;
  }

  /** Cumulative buckets of a histogram: [[upper bound, count], ...] ending with [Infinity, total]. */
  function buckets(metrics, name) {
    const prefix = name + "_bucket{le=\"";
    const list = [];
    for (const [k, v] of Object.entries(metrics)) {
      if (k.startsWith(prefix)) {
        const le = k.slice(prefix.length, k.length - 2);
        list.push([le === "+Inf" ? Infinity : Number(le), v]);
      }
    }
    return list.sort((a, b) => a[0] - b[0]);
  }

  /**
   * The q-quantile of what was recorded between two readings of a histogram, interpolated within its bucket as
   * Prometheus' histogram_quantile does; null when nothing was recorded in between.
   */
  function intervalQuantile(before, after, q) {
    if (!before.length || before.length !== after.length) {
      return null;
    }
    const delta = after.map((b, i) => [b[0], b[1] - before[i][1]]);
    const total = delta[delta.length - 1][1];
    if (total <= 0) {
      return null;
    }
    const rank = q * total;
    let lower = 0;
    let below = 0;
    for (const [le, count] of delta) {
      if (count >= rank) {
        if (le === Infinity) {
          return lower;
        }
        return lower + (le - lower) * (count === below ? 1 : (rank - below) / (count - below));
      }
      lower = le;
      below = count;
    }
    return lower;
  }

  function push(now, values) {
    latest = now;
    history.t.push(now);
    CHARTS.forEach(c => c.series.forEach((s, i) => history[c.id][i].push(values[c.id][i])));
    while (history.t.length && history.t[0] < now - WINDOW_SECONDS) {
      history.t.shift();
      CHARTS.forEach(c => history[c.id].forEach(a => a.shift()));
    }
    CHARTS.forEach(c => charts[c.id].setData([history.t].concat(history[c.id])));
  }

  /** A line above a chart saying why it is empty or what is wrong; `bad` marks the chart as a bad state. */
  function note(id, text, bad) {
    const n = notes[id];
    n.textContent = text || "";
    n.classList.toggle("hidden", !text);
    n.classList.toggle("muted", !!text && bad === false);
    document.getElementById("chart-" + id).classList.toggle("bad", !!text && bad !== false);
  }

  /** The largest lag of a raft leader's peers in bytes; null where it is not known (on a follower). */
  function raftLag(raft) {
    const known = (raft.peers || []).map(p => p.lagBytes).filter(v => v >= 0);
    return raft.role === "LEADER" && known.length > 0 ? Math.max(...known) : null;
  }

  function tile(label, value, cls, id) {
    const attrs = { class: "tile" + (cls ? " " + cls : "") };
    if (id) {
      attrs.id = id;
    }
    return el("div", attrs, el("div", { class: "tile-label" }, label), el("div", { class: "tile-value" }, value));
  }

  function render(stats, metrics, health, now) {
    const banner = document.getElementById("health-banner");
    const status = health.json ? health.json.status : "UNKNOWN";
    const reason = (health.json && health.json.reason) || stats.notWritableReason || "";
    banner.className = "banner status-" + status.toLowerCase();
    clear(banner).appendChild(el("span", { id: "health-status" }, status));
    const writer = !stats.raft || (stats.raft.role === "LEADER" && stats.raft.leaderReady);
    banner.appendChild(el("span", { id: "health-reason" }, reason ? " – " + reason : writer ? " – the store takes writes"
      : " – reads are served here; writes are redirected to the leader " + stats.raft.leaderId));
    const ha = stats.replication || {};
    // a raft node's role is its role in the group, with the term and the leader it follows
    const raft = stats.raft;
    const role = raft ? raft.role : ha.role || "ASYNC_MASTER";
    document.getElementById("store-state").textContent = role + " · " + status;

    const lat = stats.puts.latencyMicros || {};
    const disk = stats.disk || {};
    clear(document.getElementById("tiles")).append(
      tile("Health", status, "status-" + status.toLowerCase()),
      tile("Role", raft ? role + " (Raft, term " + raft.term + ", leader " + (raft.leaderId || "none") + ")"
        : role + (ha.enabled ? "" : " (replication off)"), null, "tile-role"),
      tile("Messages put", fmt.number(stats.puts.messages)),
      tile("Put latency p50 / p99 (since start)", fmt.micros(lat.p50) + " / " + fmt.micros(lat.p99)),
      tile("Commit log", !stats.commitLog ? "–" : stats.commitLog.files === 0 ? "empty"
        : fmt.bytes(stats.commitLog.maxOffset - stats.commitLog.minOffset) + " in " + stats.commitLog.files
        + (stats.commitLog.files === 1 ? " file" : " files")),
      tile("Disk used", disk.usedRatio !== undefined ? (disk.usedRatio * 100).toFixed(1) + " %" : "–"));

    const values = {};
    const seconds = previous ? Math.max(0.001, now - previous.now) : null;
    const failed = Object.values(stats.puts.failures || {}).reduce((a, b) => a + b, 0);
    values.putRate = previous ? [(stats.puts.messages - previous.puts) / seconds, (failed - previous.failed) / seconds] : [null, null];
    const putBuckets = buckets(metrics, "hangar_put_latency_microseconds");
    const flushBuckets = buckets(metrics, "hangar_flush_latency_microseconds");
    values.putLatency = [previous ? intervalQuantile(previous.putBuckets, putBuckets, 0.99) : null];
    values.flushLatency = [previous ? intervalQuantile(previous.flushBuckets, flushBuckets, 0.99) : null];
    values.dispatchLag = [stats.dispatch ? stats.dispatch.behindBytes : null];
    values.replicationLag = [raft ? raftLag(raft) : ha.enabled && ha.lagBytes >= 0 ? ha.lagBytes : null];
    values.disk = [disk.usedRatio !== undefined ? disk.usedRatio * 100 : null,
      disk.maxUsedPercent, disk.cleanForciblyPercent, disk.warningPercent];
    previous = { now: now, puts: stats.puts.messages, failed: failed, putBuckets: putBuckets, flushBuckets: flushBuckets };
    push(now, values);

    const refused = stats.writable === false ? "Puts are refused: " + (stats.notWritableReason || reason) : "";
    note("putRate", refused);
    note("putLatency", refused);
    note("dispatchLag", stats.started === false ? "The store is not started" : "");
    if (stats.flush && stats.flush.failures > 0) {
      note("flushLatency", stats.flush.failures + " commit-log flushes failed since start");
    } else {
      const flushed = history.flushLatency[0].some(v => v !== null);
      note("flushLatency", flushed ? "" : "No commit-log fsync since this page opened (an async flush waits for "
        + "enough new data)", false);
    }
    if (raft) {
      note("replicationLag", raft.problem ? raft.problem : raft.role === "LEADER" ? ""
        : "This node follows " + (raft.leaderId || "no leader yet") + "; the peers' lag is measured on the leader.",
        !!raft.problem);
    } else if (!ha.enabled) {
      note("replicationLag", "No replication: this store runs alone (" + role + ", no haListenPort or master "
        + "address configured), so there is no slave to lag.", false);
    } else if (ha.role === "SLAVE") {
      note("replicationLag", "This store is a slave of " + (ha.masterAddress || "?") + "; the lag is measured on "
        + "the master." + (ha.problem ? " Problem: " + ha.problem : ""));
    } else if (ha.connectedSlaves === 0) {
      // the problem says it already ("no slave is connected to HOST:PORT"); the fallback says it when there is none
      note("replicationLag", ha.problem ? ha.problem.charAt(0).toUpperCase() + ha.problem.slice(1) : "No slave is connected");
    } else {
      note("replicationLag", ha.problem || "");
    }
    note("disk", disk.full ? "Disk full: puts are refused past diskSpaceWarningLevelRatio (" + disk.warningPercent + " %)" : "");
  }

  async function refresh() {
    try {
      const [stats, metricsText, health] = await Promise.all([
        H.api.call("/v1/stats"),
        H.api.call("/metrics", { text: true }),
        H.api.call("/health", { acceptAnyStatus: true })
      ]);
      render(stats, parseMetrics(metricsText), health, Date.now() / 1000);
    } catch (e) {
      if (e.status !== 401) {
        const banner = document.getElementById("health-banner");
        banner.className = "banner status-down";
        banner.textContent = "Cannot read the store's figures: " + e.message;
      }
    }
  }

  function start() {
    if (!charts.putRate) {
      build();
    }
    if (!timer) {
      refresh();
      timer = setInterval(refresh, REFRESH_MS);
    }
  }

  function stop() {
    clearInterval(timer);
    timer = null;
  }

  H.overview = { start: start, stop: stop, charts: charts, intervalQuantile: intervalQuantile };
})(window.Hangar);
