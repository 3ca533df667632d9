/* Live encounter pages: follow new steps over server-sent events, or poll.
 *
 * A player's stream carries the page itself: each step event holds the runner fragment
 * the poll URL would answer (permission-checked, rendered once per kind of viewer), and the
 * page swaps it in.  The GM's stream carries only sequence numbers: the GM's page fetches
 * its own fragment (it holds the GM's controls).  A dropped stream reconnects with
 * Last-Event-ID and catches up; where there is no stream (no Redis, or EventSource
 * failing) the page polls every second.  A player's step proposed, confirmed or sent back
 * (the GM confirms players' steps) is published like a step: the same events, the same fallback.  When the server says live updates are unavailable
 * (Redis down: an "unavailable" event, in words) the page shows the words, polls, and opens
 * the stream again every few seconds until it says "live".  A page that cannot reach the
 * server at all says so on screen until it can again.
 * Keyboard shortcuts for the GM: each listed action has a key (1-9, 0, then letters, shown
 * beside it), u undoes, n auto-plays one step; they work whatever has focus but a text box.
 *
 * The runner's small helpers live here too: a refused action (4xx) is said where the GM
 * acted, a form with data-confirm asks first, the dice prompt keeps what was typed across a
 * reload (sessionStorage) and focuses its first empty box, and the override's field picker
 * fills in the field's current value.
 */
(function () {
  "use strict";
  // The words a reader sees, in the page's language: Django's JavaScript catalogue
  // (/jsi18n/, loaded before this script) defines gettext and interpolate; without it, English.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };
  var live = document.getElementById("live");
  if (!live) return;
  var pollUrl = live.dataset.poll;
  var streamUrl = live.dataset.stream;
  var pollTimer = null;
  var fetching = false;
  var pending = 0;   // this page's own htmx requests in flight
  var latest = -1;   // the newest sequence the stream announced

  function head() {
    var runner = document.getElementById("runner");
    return runner ? parseInt(runner.dataset.head, 10) : -1;
  }

  function swap(html, reason) {
    var runner = document.getElementById("runner");
    var tmp = document.createElement("div");
    tmp.innerHTML = html.trim();
    var fresh = tmp.firstElementChild;
    if (!fresh || !runner) return;
    runner.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    if (reason === "moved" && live.dataset.role === "gm") {
      var note = document.createElement("p");
      note.className = "notice";
      note.setAttribute("role", "status");
      note.textContent = gettext("The encounter moved on in another tab or window; this page has been refreshed.");
      fresh.prepend(note);
    }
    fresh.dispatchEvent(new CustomEvent("live:updated", {bubbles: true}));
  }

  // What the page says about its own connection: above the runner (which is swapped whole).
  var trouble = {unreachable: "", degraded: ""};
  function say(kind, text) {
    trouble[kind] = text || "";
    var note = document.getElementById("live-status");
    var words = trouble.unreachable || trouble.degraded;
    if (!words) { if (note) note.hidden = true; return; }
    if (!note) {
      note = document.createElement("p");
      note.id = "live-status";
      note.className = "notice live-status";
      note.setAttribute("role", "status");
      live.prepend(note);
    }
    note.textContent = words;
    note.hidden = false;
  }
  var UNREACHABLE = gettext("Cannot reach the server: this page may be out of date. It keeps trying and updates by itself when the server answers.");

  function refresh(reason) {
    if (fetching) return;
    fetching = true;
    var before = head();
    var runner = document.getElementById("runner");
    var status = runner && runner.dataset.status ? "&status=" + encodeURIComponent(runner.dataset.status) : "";
    // A page that shows a player's step waiting for the GM (or could: the GM's queue, a player's
    // turn) names the one it shows: a proposal, a confirm or a send-back at the same head is news.
    if (runner && runner.dataset.proposal !== undefined) status += "&proposal=" + encodeURIComponent(runner.dataset.proposal);
    fetch(pollUrl + "?seen=" + before + status, {headers: {"HX-Request": "true"}, credentials: "same-origin"})
      .then(function (r) {
        say("unreachable", r.status >= 500 ? UNREACHABLE : "");
        return r.status === 200 ? r.text() : null;
      })
      .then(function (html) { if (html !== null) swap(html, reason); })
      .catch(function () { say("unreachable", UNREACHABLE); })
      .finally(function () { fetching = false; });
  }

  function startPolling() {
    if (pollTimer) return;
    live.dataset.mode = "polling";
    pollTimer = setInterval(function () { if (!pending) refresh("moved"); }, 1000);
  }

  function stopPolling() {
    if (pollTimer) clearInterval(pollTimer);
    pollTimer = null;
  }

  var STREAM_AGAIN = 5000;  // ms before a page that fell back to polling opens its stream again

  function startStream() {
    var failures = 0;
    var source = new EventSource(streamUrl + "?after=" + head());
    function fallBack() {
      source.close();
      startPolling();
      setTimeout(startStream, STREAM_AGAIN);
    }
    source.addEventListener("live", function () {
      failures = 0;
      stopPolling();
      live.dataset.mode = "streaming";
      say("degraded", "");
      say("unreachable", "");
    });
    source.addEventListener("unavailable", function (e) {
      var data = {};
      try { data = JSON.parse(e.data); } catch (err) { data = {}; }
      say("unreachable", "");
      say("degraded", data.message || gettext("Live updates are unavailable just now: this page checks for new steps every few seconds instead."));
      fallBack();
    });
    source.addEventListener("step", function (e) {
      failures = 0;
      say("unreachable", "");
      var data = JSON.parse(e.data);
      latest = data.seq;
      // A step this page is posting right now comes back in its own response.
      if (pending) return;
      if (data.html) swap(data.html, "moved");  // a player's page, pushed whole
      // The GM's page asks with its head and status: a pause or resume from another tab (same
      // head) is fetched, its own step (already shown) answers 204.
      else refresh(latest !== head() ? "moved" : "");
    });
    source.onerror = function () {
      failures += 1;
      if (failures > 1) say("unreachable", UNREACHABLE);
      if (source.readyState === EventSource.CLOSED || failures > 5) fallBack();
    };
  }

  document.body.addEventListener("htmx:beforeRequest", function () { pending += 1; });
  document.body.addEventListener("htmx:afterRequest", function () {
    pending = Math.max(0, pending - 1);
    if (!pending && latest > head()) refresh("moved");
  });

  if (streamUrl && window.EventSource) startStream(); else startPolling();

  // The boards' hexes and places are buttons drawn in SVG (role="button", tabindex="0"):
  // Enter or Space on one clicks it, as on a real button.
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if ((e.key !== "Enter" && e.key !== " ") || !t || !t.getAttribute) return;
    if (t.getAttribute("role") !== "button" || t.tagName === "BUTTON") return;
    e.preventDefault();
    t.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));
  });

  var NOT_TYPING = {checkbox: 1, radio: 1, button: 1, submit: 1, reset: 1};

  function typing(t) {
    if (!t || !t.tagName) return false;
    if (t.tagName === "INPUT") return !NOT_TYPING[(t.type || "").toLowerCase()];
    return t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable;
  }

  document.addEventListener("keydown", function (e) {
    if (live.dataset.role !== "gm" || e.ctrlKey || e.metaKey || e.altKey || e.key.length !== 1) return;
    if (typing(e.target)) return;
    var button = null;
    if (e.key === "u") {
      button = document.querySelector("#undo-button");
    } else if (e.key === "n") {
      button = document.querySelector("#auto-step-button");
    } else {
      document.querySelectorAll("#actions .actions kbd.key").forEach(function (k) {
        if (!button && k.textContent.trim() === e.key) button = k.parentElement.querySelector("button[type=submit]");
      });
    }
    if (button) { e.preventDefault(); button.click(); }
  });

  // A refused action (400, 409: the runner answered with itself and the message) is said where
  // the GM acted: the message is copied beside the control they used when that is not the turn panel.
  var actedAt = null;
  document.body.addEventListener("htmx:beforeRequest", function (e) {
    var place = e.target.closest ? e.target.closest("[id]") : null;
    actedAt = place ? place.id : null;
  });
  document.body.addEventListener("htmx:afterSettle", function (e) {
    var status = e.detail.xhr ? e.detail.xhr.status : 200;
    var refusal = document.getElementById("refusal");
    if (status >= 400 && refusal) {
      var place = actedAt && document.getElementById(actedAt);
      if (place && !place.closest("#actions") && place.id !== "runner") {
        var copy = refusal.cloneNode(true);
        copy.removeAttribute("id");
        place.prepend(copy);
        copy.scrollIntoView({block: "nearest"});
      } else {
        refusal.scrollIntoView({block: "nearest"});
      }
    }
    settle();
  });
  // Anything else refused (403, 500, the network): say so, keep the page.
  document.body.addEventListener("htmx:responseError", function (e) {
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (status === 400 || status === 409) return;
    sayProblem(status === 403 ? gettext("Only the campaign's GM may do that.") :
               interpolate(gettext("The server could not do that (error %(status)s); nothing was changed. Reload the page to be sure."),
                           {status: status}, true));
  });
  document.body.addEventListener("htmx:sendError", function () {
    sayProblem(gettext("The server did not answer: check the connection and try again."));
  });

  function sayProblem(text) {
    var runner = document.getElementById("runner");
    if (!runner) return;
    var note = runner.querySelector(".problem") || document.createElement("p");
    note.className = "error refusal problem";
    note.setAttribute("role", "alert");
    note.textContent = text;
    (document.getElementById("actions") || runner).prepend(note);
    note.scrollIntoView({block: "nearest"});
  }

  // Forms that ask first (End encounter).
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) e.preventDefault();
  }, true);

  // The dice prompt: what was typed survives a reload; the first empty box has the focus.
  function remember(form) {
    var key = form.dataset.remember;
    var saved = null;
    try { saved = JSON.parse(window.sessionStorage.getItem(key) || "null"); } catch (err) { saved = null; }
    var boxes = form.querySelectorAll("input[name=face]");
    function restore() {
      // a die of a whole ship's turn by its key (the boxes change as faces are typed), else by place
      try { saved = JSON.parse(window.sessionStorage.getItem(key) || "null"); } catch (err) { /* keep */ }
      boxes = form.querySelectorAll("input[name=face]");
      boxes.forEach(function (box, i) { var at = box.dataset.key || i; if (!box.value && saved && saved[at]) box.value = saved[at]; });
    }
    // the boxes of a whole turn, said again as faces are typed: what was typed meanwhile stays
    form.addEventListener("htmx:afterSwap", restore);
    restore();
    form.addEventListener("input", function () {
      var values = {};
      boxes = form.querySelectorAll("input[name=face]");
      boxes.forEach(function (box, i) { values[box.dataset.key || i] = box.value; });
      try { window.sessionStorage.setItem(key, JSON.stringify(values)); } catch (err) { /* private mode */ }
    });
    var focus = form.querySelector("input[autofocus]");
    if (!focus || focus.value) {
      focus = null;
      boxes.forEach(function (box) { if (!focus && !box.value) focus = box; });
    }
    if (focus) focus.focus();
  }

  // The override's field picker fills in the field's current value.
  document.addEventListener("change", function (e) {
    var pick = e.target;
    if (!pick.classList || !pick.classList.contains("override-field")) return;
    var value = pick.form && pick.form.querySelector(".override-value");
    var option = pick.options[pick.selectedIndex];
    if (value && option) value.value = option.dataset.current || "";
  });

  // A board wider than the screen (a phone) scrolls sideways: bring the ship that moves into view.
  function centreBoard() {
    document.querySelectorAll(".board-scroll").forEach(function (frame) {
      if (frame.scrollWidth <= frame.clientWidth) return;
      // The ship that moves, else a lit destination, else the ship whose turn it is, else any.
      var focus = frame.querySelector(".moving") || frame.querySelector(".target") ||
                  frame.querySelector(".active") || frame.querySelector("[data-ship]");
      if (!focus) return;
      var box = focus.getBoundingClientRect(), at = frame.getBoundingClientRect();
      frame.scrollLeft += (box.left + box.width / 2) - (at.left + at.width / 2);
    });
  }

  function settle() {
    var form = document.querySelector("form[data-remember]");
    if (form && !form.dataset.remembered) { form.dataset.remembered = "1"; remember(form); }
    centreBoard();
  }
  document.body.addEventListener("live:updated", settle);
  settle();
})();
