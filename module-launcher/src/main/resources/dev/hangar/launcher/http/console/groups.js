// Consumer groups (read-only): every group with its total lag (/v1/groups); for the selected group its committed
// offset, max offset and lag per topic and queue (/v1/groups/{group}) and a lag chart. The server keeps only
// current values, so each group's lag history is kept here, one point per refresh while it is the selected group.
"use strict";

(function (H) {
  const { el, clear } = H.dom;
  const fmt = H.fmt;
  const REFRESH_MS = 1500;
  const WINDOW_SECONDS = 15 * 60;
  /** Up to this many queues the chart draws one line per queue beside the total; more would be unreadable. */
  const MAX_QUEUE_SERIES = 6;
  const COLORS = ["#111827", "#2563eb", "#dc2626", "#d97706", "#7c3aed", "#059669", "#db2777"];

  let timer = null;
  let selected = null;
  let chart = null;
  let chartLabels = "";
  /** group -> { t: [...], total: [...], queues: Map("topic/queue" -> [...]) } */
  const histories = new Map();

  function showError(e) {
    document.getElementById("groups-error").textContent = e ? e.message : "";
  }

  function historyOf(group) {
    if (!histories.has(group)) {
      histories.set(group, { t: [], total: [], queues: new Map() });
    }
    return histories.get(group);
  }

  /** One point of the group's report: the total lag and each queue's (null for a queue the group no longer has). */
  function record(report, now) {
    const h = historyOf(report.group);
    const seen = new Set();
    h.t.push(now);
    h.total.push(report.lag);
    report.topics.forEach(t => t.queues.forEach(q => {
      const key = t.topic + "/" + q.queueId;
      seen.add(key);
      if (!h.queues.has(key)) {
        h.queues.set(key, h.t.slice(0, -1).map(() => null));
      }
      h.queues.get(key).push(q.lag);
    }));
    h.queues.forEach((values, key) => {
      if (!seen.has(key)) {
        values.push(null);
      }
    });
    while (h.t.length && h.t[0] < now - WINDOW_SECONDS) {
      h.t.shift();
      h.total.shift();
      h.queues.forEach(values => values.shift());
    }
    return h;
  }

  /** The last 15 minutes, or since the group was first shown while that is younger (at least 10 s). */
  function xRange(h) {
    const latest = h.t.length ? h.t[h.t.length - 1] : Date.now() / 1000;
    const first = h.t.length ? h.t[0] : latest;
    return [Math.max(latest - WINDOW_SECONDS, Math.min(first, latest - 10)), latest];
  }

  function draw(group, h) {
    const keys = h.queues.size <= MAX_QUEUE_SERIES ? [...h.queues.keys()].sort() : [];
    const labels = ["total"].concat(keys);
    const data = [h.t, h.total].concat(keys.map(k => h.queues.get(k)));
    const target = document.getElementById("group-lag-plot");
    // a new group or a new queue changes the series: uPlot takes its series when it is built
    if (!chart || chartLabels !== group + "|" + labels.join("|") || !target.contains(chart.root)) {
      if (chart) {
        chart.destroy();
      }
      clear(target);
      chartLabels = group + "|" + labels.join("|");
      chart = new uPlot({
        width: 760,
        height: 220,
        series: [{}].concat(labels.map((label, i) => ({
          label: label,
          stroke: COLORS[i % COLORS.length],
          width: i === 0 ? 2 : 1,
          value: (u, v) => fmt.number(v)
        }))),
        scales: { x: { time: true, range: () => xRange(histories.get(group) || h) },
          y: { range: (u, min, max) => [0, Math.max(max, 10) * 1.1] } },
        axes: [{}, { size: 70, values: (u, ticks) => ticks.map(v => fmt.number(v)) }],
        legend: { live: false }
      }, data, target);
      H.groups.chart = chart;
    } else {
      chart.setData(data);
    }
    document.getElementById("group-lag-note").textContent = h.queues.size > MAX_QUEUE_SERIES
      ? "Total lag only: the group has " + h.queues.size + " queues (one line each up to " + MAX_QUEUE_SERIES + ")" : "";
  }

  function listTable(groups) {
    return el("table", { id: "groups-table", class: "grid" },
      el("tr", null, el("th", null, "Group"), el("th", null, "Topics"), el("th", null, "Lag (messages)")),
      groups.map(g => el("tr", { class: "group-row" + (g.group === selected ? " selected" : ""), "data-group": g.group,
        onclick: () => select(g.group) },
        el("td", null, g.group), el("td", null, g.topics), el("td", null, fmt.number(g.lag)))));
  }

  function queuesTable(report) {
    const rows = [];
    report.topics.forEach(t => t.queues.slice().sort((a, b) => a.queueId - b.queueId).forEach(q =>
      rows.push(el("tr", { class: "group-queue-row", "data-topic": t.topic, "data-queue": q.queueId },
        el("td", null, t.topic), el("td", null, q.queueId), el("td", null, fmt.number(q.committed)),
        el("td", null, fmt.number(q.maxOffset)), el("td", null, fmt.number(q.lag))))));
    return el("table", { id: "group-queues", class: "grid" },
      el("tr", null, el("th", null, "Topic"), el("th", null, "Queue"), el("th", null, "Committed"),
        el("th", null, "Max offset"), el("th", null, "Lag")), rows);
  }

  function detailBox() {
    let box = document.getElementById("group-detail-box");
    if (!box) {
      box = el("div", { id: "group-detail-box" },
        el("h2", { id: "group-title" }),
        el("div", { class: "chart wide", id: "chart-groupLag" },
          el("h2", null, "Lag", el("span", { class: "unit" }, "messages not yet read: max offset − committed")),
          el("p", { class: "chart-note muted", id: "group-lag-note" }),
          el("div", { class: "chart-plot", id: "group-lag-plot" })),
        el("div", { id: "group-queues-box" }));
      document.getElementById("group-detail").appendChild(box);
    }
    return box;
  }

  /**
   * Puts what `build` makes into `box` only when `signature` differs from what the box shows: rows rebuilt at every
   * refresh would swallow a click that lands while they are replaced.
   */
  function replaceIfChanged(box, signature, build) {
    if (box.dataset.signature !== signature || !box.firstChild) {
      clear(box).appendChild(build());
      box.dataset.signature = signature;
    }
  }

  let busy = false;
  let again = false;

  /** One refresh at a time; a call while one runs (a click on a group) runs once more after it. */
  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      await refreshOnce();
    } finally {
      busy = false;
    }
    if (again) {
      again = false;
      refresh();
    }
  }

  async function refreshOnce() {
    let list;
    try {
      list = await H.api.call("/v1/groups");
    } catch (e) {
      showError(e);
      return;
    }
    const groups = list.groups.slice().sort((a, b) => a.group.localeCompare(b.group));
    const listBox = document.getElementById("group-list");
    if (!groups.length) {
      selected = null;
      clear(document.getElementById("group-detail"));
      replaceIfChanged(listBox, "empty", () => el("p", { class: "muted", id: "groups-empty" }, "No consumer group has "
        + "committed yet. A group appears here with its first committed offset "
        + "(POST /v1/groups/{group}/topics/{topic}/queues/{q}/offset)."));
      showError(null);
      return;
    }
    if (!groups.some(g => g.group === selected)) {
      selected = groups[0].group;
    }
    replaceIfChanged(listBox, JSON.stringify([selected, groups]), () => listTable(groups));
    const group = selected;
    let report;
    try {
      report = await H.api.call("/v1/groups/" + encodeURIComponent(group));
    } catch (e) {
      // deleted between the two calls: the next refresh no longer lists it
      showError(e);
      return;
    }
    if (group !== selected) {
      return;
    }
    showError(null);
    detailBox();
    document.getElementById("group-title").textContent = group + " · total lag " + fmt.number(report.lag);
    replaceIfChanged(document.getElementById("group-queues-box"), JSON.stringify(report), () => queuesTable(report));
    draw(group, record(report, Date.now() / 1000));
  }

  function select(group) {
    selected = group;
    refresh();
  }

  /** Shows the page and keeps it refreshed from then on (the histories go on while another page is shown). */
  function load() {
    if (!timer) {
      timer = setInterval(refresh, REFRESH_MS);
    }
    refresh();
  }

  function stop() {
    clearInterval(timer);
    timer = null;
  }

  H.groups = { load: load, stop: stop, chart: null, histories: histories };
})(window.Hangar);
