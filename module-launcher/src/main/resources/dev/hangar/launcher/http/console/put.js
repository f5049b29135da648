// Put a test message: the form becomes one POST /v1/topics/{topic}/messages, properties as `property=Name=value`
// query parameters; the answer (status, msgId, offsets, or the refusal) is shown as the server gave it.
"use strict";

(function (H) {
  const { el, clear } = H.dom;

  async function submit(e) {
    e.preventDefault();
    const value = id => document.getElementById(id).value;
    const query = new URLSearchParams();
    if (value("put-queue").trim()) {
      query.append("queue", value("put-queue").trim());
    }
    value("put-key").trim().split(/\s+/).filter(k => k).forEach(k => query.append("key", k));
    if (value("put-tag").trim()) {
      query.append("tag", value("put-tag").trim());
    }
    value("put-properties").split("\n").map(l => l.trim()).filter(l => l).forEach(l => query.append("property", l));
    const topic = value("put-topic").trim();
    const result = clear(document.getElementById("put-result"));
    try {
      const answer = await H.api.call("/v1/topics/" + encodeURIComponent(topic) + "/messages?" + query.toString(), {
        method: "POST",
        headers: { "Content-Type": "text/plain; charset=utf-8" },
        body: value("put-body"),
        acceptAnyStatus: true
      });
      const ok = answer.status < 300;
      result.appendChild(el("div", { class: "banner " + (ok ? "status-up" : "status-down"), id: "put-status" },
        ok ? "Stored: " + answer.json.status : "Refused (HTTP " + answer.status + "): " + (answer.json.error || answer.json.status)));
      result.appendChild(el("pre", { class: "body", id: "put-answer" }, JSON.stringify(answer.json, null, 2)));
      if (ok && answer.json.msgId) {
        document.getElementById("lookup-msgid").value = answer.json.msgId;
        result.appendChild(el("a", { href: "#topics", id: "put-open" }, "Find it in Topics"));
      }
    } catch (err) {
      if (err.status !== 401) {
        result.appendChild(el("div", { class: "banner status-down", id: "put-status" }, err.message));
      }
    }
  }

  function init() {
    document.getElementById("put-form").addEventListener("submit", submit);
  }

  H.put = { init: init };
})(window.Hangar);
