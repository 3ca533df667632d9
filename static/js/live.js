/* Live encounter pages: follow new steps over server-sent events, or poll.
 *
 * The stream carries only sequence numbers; on each one the page fetches its own
 * fragment from the poll URL (permission-checked, rendered from the viewer's view).
 * A dropped stream reconnects with Last-Event-ID and catches up; where there is
 * no stream (no Redis, or EventSource failing) the page polls every second.
 * Keyboard shortcuts for the GM: 1-9 take the listed action, u undoes, n auto-plays one step.
 */
(function () {
  "use strict";
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

  function refresh(reason) {
    if (fetching) return;
    fetching = true;
    var before = head();
    fetch(pollUrl + "?seen=" + before, {headers: {"HX-Request": "true"}, credentials: "same-origin"})
      .then(function (r) { return r.status === 200 ? r.text() : null; })
      .then(function (html) {
        if (html === null) return;
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
          note.textContent = "The encounter moved on in another tab or window; this page has been refreshed.";
          fresh.prepend(note);
        }
        fresh.dispatchEvent(new CustomEvent("live:updated", {bubbles: true}));
      })
      .catch(function () {})
      .finally(function () { fetching = false; });
  }

  function startPolling() {
    if (pollTimer) return;
    live.dataset.mode = "polling";
    pollTimer = setInterval(function () { if (!pending) refresh("moved"); }, 1000);
  }

  function startStream() {
    var failures = 0;
    var source = new EventSource(streamUrl + "?after=" + head());
    live.dataset.mode = "streaming";
    source.addEventListener("step", function (e) {
      failures = 0;
      latest = JSON.parse(e.data).seq;
      // A step this page is posting right now comes back in its own response.
      if (!pending && (latest !== head() || live.dataset.role !== "gm")) refresh("moved");
    });
    source.onerror = function () {
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures > 5) {
        source.close();
        startPolling();
      }
    };
  }

  document.body.addEventListener("htmx:beforeRequest", function () { pending += 1; });
  document.body.addEventListener("htmx:afterRequest", function () {
    pending = Math.max(0, pending - 1);
    if (!pending && latest > head()) refresh("moved");
  });

  if (streamUrl && window.EventSource) startStream(); else startPolling();

  document.addEventListener("keydown", function (e) {
    if (live.dataset.role !== "gm" || e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    var button = null;
    if (e.key >= "1" && e.key <= "9") {
      button = document.querySelectorAll("#actions .actions button[type=submit]")[parseInt(e.key, 10) - 1];
    } else if (e.key === "u") {
      button = document.querySelector("#undo-button");
    } else if (e.key === "n") {
      button = document.querySelector("#auto-step-button");
    }
    if (button) { e.preventDefault(); button.click(); }
  });
})();
