/* Players take their own steps (issue 22): attention when it is your turn, dice typed per die,
 * and a page waiting on a confirmation that updates by itself.
 *
 * - "Your turn": a banner (#your-turn, drawn by the server), the tab title changes, the phone
 *   vibrates where the browser can, an optional sound (off by default; the choice is remembered
 *   in localStorage), and the page scrolls to the actions.  Each new turn (a new head) once.
 * - Each die box checks its face where it is typed: a face out of range is refused beside the
 *   box with the app's message in the page's language (never the browser's bubble: the dice
 *   forms are novalidate), and nothing else typed is lost.  The GM's prompt (run.html) too.
 * A step waiting for the GM reaches the GM's page, and its confirm or send-back the player's,
 * over the live stream like any step (live.js; polling only while the stream is down).
 */
(function () {
  "use strict";
  // The words a reader sees, in the page's language: Django's JavaScript catalogue
  // (/jsi18n/, loaded before this script) defines gettext and interpolate; without it, English.
  var gettext = window.gettext || function (text) { return text; };
  var live = document.getElementById("live");
  if (!live) return;
  var baseTitle = document.title;
  var announced = null;
  var SOUND_KEY = "starship-table:turn-sound";

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "1"; } catch (e) { return false; }
  }

  function beep() {
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      var ctx = new Ctx(), osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 660; gain.gain.value = 0.1;
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.25);
    } catch (e) { /* no audio */ }
  }

  function attention() {
    var runner = document.getElementById("runner");
    var panel = document.getElementById("your-turn");
    var box = document.getElementById("turn-sound");
    if (box) {
      box.checked = soundOn();
      box.onchange = function () {
        try { window.localStorage.setItem(SOUND_KEY, box.checked ? "1" : "0"); } catch (e) { /* private mode */ }
      };
    }
    if (!runner || !panel) { document.title = baseTitle; announced = null; return; }
    var title = panel.querySelector(".your-turn-title");
    document.title = (title ? title.textContent.trim() : gettext("Your turn")) + " · " + baseTitle;
    var turn = runner.dataset.myTurn;
    if (turn === announced) return;
    announced = turn;
    if (navigator.vibrate) { try { navigator.vibrate([120, 60, 120]); } catch (e) { /* not allowed */ } }
    if (soundOn()) beep();
    panel.scrollIntoView({block: "start"});
  }

  // Each die box: a face out of range is said beside the box, at once; nothing else is touched.
  document.addEventListener("input", function (e) {
    var box = e.target;
    if (!box.dataset || !box.dataset.sides) return;
    var sides = parseInt(box.dataset.sides, 10), text = box.value.trim(), note = box.parentElement.querySelector(".die-error");
    var face = parseInt(text, 10), bad = "";
    if (text && (isNaN(face) || String(face) !== text || face < 1 || face > sides)) {
      // The words come from the page (data-bad-face, translated by the server): the page's language.
      var words = (box.form && box.form.dataset.badFace) || "A d{sides} shows 1 to {sides}: {face} is not one of its faces.";
      bad = words.split("{sides}").join(String(sides)).split("{face}").join(text);
    }
    // Said beside the box, not in the browser's own bubble (the form is novalidate; the server refuses too).
    box.setAttribute("aria-invalid", bad ? "true" : "false");
    if (note) note.textContent = bad;
  });

  document.body.addEventListener("live:updated", attention);
  document.body.addEventListener("htmx:afterSettle", attention);
  attention();
})();
