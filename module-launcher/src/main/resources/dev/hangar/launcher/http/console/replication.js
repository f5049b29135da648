// Replication: who is connected, the acknowledged offset against the log's end, throughput and problems, as
// /v1/stats and /health report them (the store keeps one figure for all slaves: the highest acknowledged offset).
"use strict";

(function (H) {
  const { el, clear } = H.dom;
  const fmt = H.fmt;

  function table(rows) {
    return el("table", { class: "fields", id: "replication-fields" },
      rows.map(([k, v]) => el("tr", null, el("th", null, k), el("td", null, v))));
  }

  async function load() {
    const view = clear(document.getElementById("replication-view"));
    let stats;
    let health;
    try {
      [stats, health] = await Promise.all([H.api.call("/v1/stats"), H.api.call("/health", { acceptAnyStatus: true })]);
    } catch (e) {
      view.appendChild(el("p", { class: "error" }, e.message));
      return;
    }
    const ha = stats.replication || {};
    const end = stats.commitLog ? stats.commitLog.maxOffset : null;
    if (!ha.enabled) {
      view.appendChild(el("div", { class: "banner status-degraded", id: "replication-state" },
        "Replication is off: this store (" + (ha.role || "ASYNC_MASTER") + ") runs alone. "
        + "A master listens for slaves on haListenPort; a slave names its master with haMasterAddress."));
      return;
    }
    const problem = ha.problem || "";
    view.appendChild(el("div", { class: "banner " + (problem ? "status-degraded" : "status-up"), id: "replication-state" },
      problem ? "Problem: " + problem : ha.role === "SLAVE" ? "Copying from the master" : "Slaves in step"));
    if (ha.role === "SLAVE") {
      view.appendChild(table([
        ["Role", "SLAVE"],
        ["Master", ha.masterAddress || "–"],
        ["Own end (acknowledged to the master)", fmt.number(ha.ackedOffset)],
        ["Since the last frame", fmt.number(ha.lagMillis) + " ms"],
        ["Receiving", fmt.bytes(ha.bytesPerSecond) + "/s"],
        ["Connections refused", fmt.number(ha.rejectedConnections)]
      ]));
    } else {
      view.appendChild(table([
        ["Role", ha.role],
        ["Listening for slaves on", ha.listenAddress || "–"],
        ["Slaves connected", ha.connectedSlaves],
        ["Commit log end", fmt.number(end)],
        ["Acknowledged by a slave up to", fmt.number(ha.ackedOffset)],
        ["Lag", fmt.bytes(ha.lagBytes) + (ha.lagMillis ? ", behind for " + fmt.number(ha.lagMillis) + " ms" : "")],
        ["Shipping", fmt.bytes(ha.bytesPerSecond) + "/s"],
        ["Connections refused (bad input, stalled peer)", fmt.number(ha.rejectedConnections)],
        ["Health", health.json ? health.json.status + (health.json.reason ? ": " + health.json.reason : "") : "–"]
      ]));
    }
  }

  H.replication = { load: load };
})(window.Hangar);
