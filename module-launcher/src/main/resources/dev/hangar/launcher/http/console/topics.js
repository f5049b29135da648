// Topics: every topic and queue from /v1/stats (offsets and counts), a queue's newest messages a page at a time
// (never the whole queue), and a message by msgId or by key.
"use strict";

(function (H) {
  const { el, clear } = H.dom;
  const fmt = H.fmt;
  const PAGE = 20;

  function showError(e) {
    document.getElementById("topics-error").textContent = e ? e.message : "";
  }

  function byTopic(queues) {
    const topics = new Map();
    (queues || []).forEach(q => {
      if (!topics.has(q.topic)) {
        topics.set(q.topic, []);
      }
      topics.get(q.topic).push(q);
    });
    return [...topics.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  }

  async function load() {
    showError(null);
    let stats;
    try {
      stats = await H.api.call("/v1/stats");
    } catch (e) {
      showError(e);
      return;
    }
    const list = clear(document.getElementById("topic-list"));
    const topics = byTopic(stats.queues);
    if (!topics.length) {
      list.appendChild(el("p", { class: "muted" }, "No topic has a message yet. Put one from “Put a message”."));
      return;
    }
    list.appendChild(el("table", { id: "topics-table", class: "grid" },
      el("tr", null, el("th", null, "Topic"), el("th", null, "Queues"), el("th", null, "Messages kept")),
      topics.map(([topic, queues]) => el("tr", { class: "topic-row", "data-topic": topic, onclick: () => showTopic(topic, queues) },
        el("td", null, topic), el("td", null, queues.length),
        el("td", null, fmt.number(queues.reduce((n, q) => n + q.maxOffset - q.minOffset, 0)))))));
  }

  function showTopic(topic, queues) {
    document.getElementById("lookup-topic").value = topic;
    const detail = clear(document.getElementById("topic-detail"));
    detail.appendChild(el("h2", null, topic));
    detail.appendChild(el("table", { class: "grid", id: "queues-table" },
      el("tr", null, el("th", null, "Queue"), el("th", null, "Min offset"), el("th", null, "Max offset"),
        el("th", null, "Messages")),
      queues.sort((a, b) => a.queueId - b.queueId).map(q => el("tr", { class: "queue-row", "data-queue": q.queueId,
        onclick: () => showQueue(topic, q.queueId, null) },
        el("td", null, q.queueId), el("td", null, q.minOffset), el("td", null, q.maxOffset),
        el("td", null, fmt.number(q.maxOffset - q.minOffset))))));
    detail.appendChild(el("div", { id: "queue-messages" }));
  }

  /**
   * One page of a queue: PAGE messages ending before `end` (null: the newest), newest first, with buttons to
   * the older and the newer page. Reads exactly one page from the server.
   */
  async function showQueue(topic, queueId, end) {
    showError(null);
    const box = document.getElementById("queue-messages") || document.getElementById("topic-detail");
    let page;
    try {
      // first learn the bounds cheaply, then read the page that ends at `end`
      const probe = await H.api.call(path(topic, queueId) + "?offset=0&max=1");
      const last = end === null ? probe.maxOffset : Math.min(end, probe.maxOffset);
      const from = Math.max(probe.minOffset, last - PAGE);
      page = await H.api.call(path(topic, queueId) + "?offset=" + from + "&max=" + Math.max(1, last - from));
      page.from = from;
      page.last = last;
      page.messages = page.messages.filter(m => m.queueOffset < last).reverse();
    } catch (e) {
      showError(e);
      return;
    }
    clear(box).appendChild(el("h3", null, "Queue " + queueId + ": offsets " + page.from + " to " + (page.last - 1)
      + " of " + page.minOffset + ".." + (page.maxOffset - 1)));
    box.appendChild(el("div", { class: "pager" },
      el("button", { type: "button", id: "page-newer", disabled: page.last >= page.maxOffset,
        onclick: () => showQueue(topic, queueId, page.last + PAGE) }, "Newer"),
      el("button", { type: "button", id: "page-older", disabled: page.from <= page.minOffset,
        onclick: () => showQueue(topic, queueId, page.from) }, "Older")));
    messageList(box, page.messages);
  }

  function path(topic, queueId) {
    return "/v1/topics/" + encodeURIComponent(topic) + "/queues/" + queueId + "/messages";
  }

  function messageList(box, messages) {
    if (!messages.length) {
      box.appendChild(el("p", { class: "muted" }, "No message."));
      return;
    }
    const view = el("div", { class: "message-view" });
    box.appendChild(el("table", { class: "grid messages" },
      el("tr", null, el("th", null, "Offset"), el("th", null, "Stored"), el("th", null, "Keys"), el("th", null, "Tag"),
        el("th", null, "Body")),
      messages.map(m => H.messages.row(m, open => clear(view).appendChild(H.messages.view(open))))));
    box.appendChild(view);
    clear(view).appendChild(H.messages.view(messages[0]));
  }

  async function byId(e) {
    e.preventDefault();
    showError(null);
    const id = document.getElementById("lookup-msgid").value.trim();
    const detail = clear(document.getElementById("topic-detail"));
    try {
      const m = await H.api.call("/v1/messages/" + encodeURIComponent(id));
      detail.appendChild(el("h2", null, "Message " + id));
      detail.appendChild(H.messages.view(m));
    } catch (err) {
      showError(err);
    }
  }

  async function byKey() {
    showError(null);
    const topic = document.getElementById("lookup-topic").value.trim();
    const key = document.getElementById("lookup-key").value.trim();
    const detail = clear(document.getElementById("topic-detail"));
    try {
      const found = await H.api.call("/v1/topics/" + encodeURIComponent(topic) + "/keys/" + encodeURIComponent(key) + "?max=32");
      detail.appendChild(el("h2", null, found.messages.length + " message(s) with key " + key + " in " + topic));
      const box = el("div", { id: "key-results" });
      detail.appendChild(box);
      messageList(box, found.messages);
    } catch (err) {
      showError(err);
    }
  }

  function init() {
    document.getElementById("lookup-form").addEventListener("submit", byId);
    document.getElementById("lookup-key-go").addEventListener("click", byKey);
  }

  H.topics = { load: load, init: init, showQueue: showQueue };
})(window.Hangar);
