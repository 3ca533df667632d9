/* "Copy" buttons: <button data-copy="#some-input">Copy</button> puts the input's value on the
 * clipboard and says so on the button for a moment. No inline script (the CSP allows none). */
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("[data-copy]") : null;
    if (!button) return;
    var field = document.querySelector(button.dataset.copy);
    if (!field) return;
    var label = button.textContent;
    function done(text) {
      button.textContent = text;
      setTimeout(function () { button.textContent = label; }, 1500);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { done("Copied"); },
                                                      function () { field.select(); done("Press Ctrl+C"); });
    } else {
      field.select();
      try { done(document.execCommand("copy") ? "Copied" : "Press Ctrl+C"); } catch (err) { done("Press Ctrl+C"); }
    }
  });
})();
