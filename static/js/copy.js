/* "Copy" buttons: <button data-copy="#some-input">Copy</button> puts the input's value on the
 * clipboard and says so on the button for a moment. No inline script (the CSP allows none). */
(function () {
  "use strict";
  // The words a reader sees, in the page's language: Django's JavaScript catalogue
  // (/jsi18n/, loaded before this script) defines gettext and interpolate; without it, English.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };
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
      navigator.clipboard.writeText(field.value).then(function () { done(gettext("Copied")); },
                                                      function () { field.select(); done(gettext("Press Ctrl+C")); });
    } else {
      field.select();
      try { done(document.execCommand("copy") ? gettext("Copied") : gettext("Press Ctrl+C")); } catch (err) { done(gettext("Press Ctrl+C")); }
    }
  });
})();
