// The console's pages by URL hash (#overview, #topics, #groups, #replication, #put) and the login form: a data call
// refused with 401 shows the form; a token entered there is kept in sessionStorage for this tab.
"use strict";

(function (H) {
  const PAGES = ["overview", "topics", "groups", "replication", "put"];
  let loginShown = false;

  function show(page) {
    document.querySelectorAll(".page").forEach(p => p.classList.add("hidden"));
    document.getElementById(page === "login" ? "login" : "page-" + page).classList.remove("hidden");
    document.querySelectorAll("nav a").forEach(a => a.classList.toggle("active", a.id === "nav-" + page));
  }

  function route() {
    const page = PAGES.includes(location.hash.slice(1)) ? location.hash.slice(1) : "overview";
    if (loginShown) {
      return;
    }
    show(page);
    if (page === "topics") {
      H.topics.load();
    } else if (page === "groups") {
      H.groups.load();
    } else if (page === "replication") {
      H.replication.load();
    }
  }

  H.onUnauthorized = function (error) {
    if (!loginShown) {
      loginShown = true;
      H.overview.stop();
      H.groups.stop();
      show("login");
    }
    document.getElementById("login-error").textContent = H.api.token()
      ? "The server refused this token: " + error.message : "";
  };

  async function signIn(e) {
    e.preventDefault();
    H.api.setToken(document.getElementById("login-token").value);
    try {
      await H.api.call("/health", { acceptAnyStatus: true });
    } catch (err) {
      return;
    }
    loginShown = false;
    document.getElementById("login-error").textContent = "";
    document.getElementById("logout").classList.toggle("hidden", !H.api.token());
    H.overview.start();
    route();
  }

  function init() {
    document.getElementById("login-form").addEventListener("submit", signIn);
    document.getElementById("logout").addEventListener("click", () => {
      H.api.setToken("");
      location.reload();
    });
    document.getElementById("logout").classList.toggle("hidden", !H.api.token());
    H.topics.init();
    H.put.init();
    window.addEventListener("hashchange", route);
    route();
    // the history is collected from the start, whichever page is shown
    H.overview.start();
  }

  init();
})(window.Hangar);
