// One message as the API answers it (get --json's shape): the store's fields, its properties and its body, the
// body shown as text, pretty JSON or hex.
"use strict";

(function (H) {
  const { el } = H.dom;
  const HEX_LIMIT = 64 * 1024;

  function decodeBody(base64) {
    const raw = atob(base64 || "");
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) {
      bytes[i] = raw.charCodeAt(i);
    }
    return bytes;
  }

  /** The body as UTF-8 text, or null when it is not valid UTF-8. */
  function asText(bytes) {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (e) {
      return null;
    }
  }

  function asJson(text) {
    if (text === null) {
      return null;
    }
    const t = text.trim();
    if (!t.startsWith("{") && !t.startsWith("[")) {
      return null;
    }
    try {
      return JSON.stringify(JSON.parse(t), null, 2);
    } catch (e) {
      return null;
    }
  }

  /** Classic hex dump: offset, 16 bytes in hex, the printable ones as text. */
  function asHex(bytes) {
    const lines = [];
    const n = Math.min(bytes.length, HEX_LIMIT);
    for (let off = 0; off < n; off += 16) {
      const row = bytes.subarray(off, Math.min(off + 16, n));
      let hex = "";
      let ascii = "";
      row.forEach((b, i) => {
        hex += b.toString(16).padStart(2, "0") + (i === 7 ? "  " : " ");
        ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".";
      });
      lines.push(off.toString(16).padStart(8, "0") + "  " + hex.padEnd(49) + " " + ascii);
    }
    if (bytes.length > n) {
      lines.push("... " + (bytes.length - n) + " more bytes");
    }
    return lines.join("\n");
  }

  function fieldTable(rows) {
    return el("table", { class: "fields" },
      rows.map(([k, v]) => el("tr", null, el("th", null, k), el("td", null, v === null || v === undefined ? "" : String(v)))));
  }

  /** A message's full view: fields, properties, body with its three views (JSON first when it parses). */
  function view(m) {
    const bytes = decodeBody(m.bodyBase64);
    const text = asText(bytes);
    const json = asJson(text);
    const views = { text: text === null ? "(not UTF-8 text: see hex)" : text, json: json, hex: asHex(bytes) };
    const initial = json !== null ? "json" : text !== null ? "text" : "hex";
    const pre = el("pre", { class: "body", "data-view": initial }, views[initial]);
    const buttons = ["text", "json", "hex"].map(name => el("button", {
      type: "button",
      class: "view-" + name + (name === initial ? " active" : ""),
      disabled: name === "json" && json === null,
      onclick: e => {
        pre.textContent = views[name];
        pre.setAttribute("data-view", name);
        e.target.parentNode.querySelectorAll("button").forEach(b => b.classList.remove("active"));
        e.target.classList.add("active");
      }
    }, name === "json" ? "JSON" : name === "hex" ? "Hex" : "Text"));
    const properties = Object.entries(m.properties || {});
    return el("div", { class: "message", "data-msgid": m.msgId },
      el("h3", null, m.topic + " / queue " + m.queueId + " / offset " + m.queueOffset),
      fieldTable([
        ["msgId", m.msgId],
        ["keys", m.keys],
        ["tags", m.tags],
        ["stored", new Date(m.storeTimestamp).toISOString()],
        ["born", new Date(m.bornTimestamp).toISOString()],
        ["commitLogOffset", m.commitLogOffset],
        ["sysFlag", m.sysFlag],
        ["flag", m.flag],
        ["bodyCrc", m.bodyCrc],
        ["bodySize", m.bodySize + " bytes"]
      ]),
      el("h4", null, "Properties"),
      properties.length ? fieldTable(properties) : el("p", { class: "muted" }, "none"),
      el("h4", null, "Body ", el("span", { class: "body-views" }, buttons)),
      pre);
  }

  /** One line of a message list; calls onOpen(m) when clicked. */
  function row(m, onOpen) {
    const text = asText(decodeBody(m.bodyBase64));
    const preview = text === null ? "(binary, " + m.bodySize + " bytes)" : text.slice(0, 80);
    return el("tr", { class: "message-row", onclick: () => onOpen(m) },
      el("td", null, m.queueOffset),
      el("td", null, new Date(m.storeTimestamp).toLocaleTimeString()),
      el("td", null, m.keys || ""),
      el("td", null, m.tags || ""),
      el("td", { class: "preview" }, preview));
  }

  H.messages = { view: view, row: row, decodeBody: decodeBody, asText: asText };
})(window.Hangar);
