// The console's one way to the server: every data call goes through Hangar.api, which adds the bearer token kept
// in sessionStorage and turns a 401 into the login form. Shared helpers for building the DOM live here too.
"use strict";
window.Hangar = window.Hangar || {};

(function (H) {
  const TOKEN_KEY = "hangar.token";

  /** A refused call: the HTTP status and the server's one-line error. */
  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  function token() {
    return sessionStorage.getItem(TOKEN_KEY) || "";
  }

  function setToken(value) {
    if (value) {
      sessionStorage.setItem(TOKEN_KEY, value);
    } else {
      sessionStorage.removeItem(TOKEN_KEY);
    }
  }

  /**
   * fetch with the token; answers the parsed JSON (or text when asked), throws ApiError with the server's error.
   * A 401 also tells the app to show the login form.
   */
  async function call(path, options) {
    const opts = Object.assign({ method: "GET", headers: {} }, options || {});
    opts.headers = Object.assign({}, opts.headers);
    if (token()) {
      opts.headers["Authorization"] = "Bearer " + token();
    }
    const response = await fetch(path, { method: opts.method, headers: opts.headers, body: opts.body, cache: "no-store" });
    const text = await response.text();
    if (response.status === 401) {
      const error = new ApiError(401, errorOf(text) || "missing or wrong bearer token");
      if (H.onUnauthorized) {
        H.onUnauthorized(error);
      }
      throw error;
    }
    if (opts.text) {
      if (!response.ok) {
        throw new ApiError(response.status, errorOf(text) || ("HTTP " + response.status));
      }
      return text;
    }
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch (e) {
      throw new ApiError(response.status, "not JSON: " + text.slice(0, 200));
    }
    if (!response.ok && !opts.acceptAnyStatus) {
      throw new ApiError(response.status, (json && json.error) || ("HTTP " + response.status));
    }
    if (opts.acceptAnyStatus) {
      return { status: response.status, json: json };
    }
    return json;
  }

  function errorOf(text) {
    try {
      return JSON.parse(text).error;
    } catch (e) {
      return null;
    }
  }

  /** el("div", {class: "x"}, child, "text", ...): children are nodes or text (never parsed as HTML). */
  function el(tag, attrs) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) {
        continue;
      }
      if (k.startsWith("on") && typeof v === "function") {
        node.addEventListener(k.slice(2), v);
      } else {
        node.setAttribute(k, v === true ? "" : String(v));
      }
    }
    for (let i = 2; i < arguments.length; i++) {
      append(node, arguments[i]);
    }
    return node;
  }

  function append(node, child) {
    if (child === null || child === undefined || child === false) {
      return;
    }
    if (Array.isArray(child)) {
      child.forEach(c => append(node, c));
    } else if (child instanceof Node) {
      node.appendChild(child);
    } else {
      node.appendChild(document.createTextNode(String(child)));
    }
  }

  function clear(node) {
    while (node.firstChild) {
      node.removeChild(node.firstChild);
    }
    return node;
  }

  /** 1234567 -> "1.2 MB" (bytes), for tiles and axes. */
  function bytes(n) {
    if (n === null || n === undefined || isNaN(n)) {
      return "–";
    }
    const units = ["B", "KB", "MB", "GB", "TB"];
    let v = Math.abs(n);
    let u = 0;
    while (v >= 1000 && u < units.length - 1) {
      v /= 1000;
      u++;
    }
    return (n < 0 ? "-" : "") + (u === 0 ? v.toFixed(0) : v.toFixed(1)) + " " + units[u];
  }

  function number(n) {
    if (n === null || n === undefined || isNaN(n)) {
      return "–";
    }
    return Number(n).toLocaleString("en-US", { maximumFractionDigits: 1 });
  }

  function micros(n) {
    if (n === null || n === undefined || isNaN(n)) {
      return "–";
    }
    if (n >= 1000) {
      return Number((n / 1000).toFixed(n >= 100000 ? 0 : 1)) + " ms";
    }
    return (n < 10 ? Number(n.toFixed(1)) : Math.round(n)) + " µs";
  }

  H.ApiError = ApiError;
  H.api = { call: call, token: token, setToken: setToken };
  H.dom = { el: el, clear: clear };
  H.fmt = { bytes: bytes, number: number, micros: micros };
})(window.Hangar);
