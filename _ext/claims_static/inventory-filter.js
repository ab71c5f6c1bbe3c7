// Filter box of the claims index (chapters/appendix_claims): shows the
// entries whose text contains every word typed, hides the notes with no
// match, and keeps the query in the address (?q=...) so a filtered view can
// be shared. Runs only on a page that has the box; needs no network.
(function () {
  "use strict";
  function setup() {
    var input = document.getElementById("inventory-filter-input");
    if (!input) return;
    var count = document.getElementById("inventory-filter-count");
    var entries = Array.prototype.slice.call(
      document.querySelectorAll(".inventory-entry"));
    var sections = Array.prototype.slice.call(
      document.querySelectorAll("section[id^='claims-note-']"));
    var texts = entries.map(function (el) {
      return el.textContent.toLowerCase().replace(/\s+/g, " ");
    });
    function apply() {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      entries.forEach(function (el, i) {
        var match = words.every(function (w) { return texts[i].indexOf(w) >= 0; });
        el.hidden = !match;
        if (match) shown += 1;
      });
      sections.forEach(function (section) {
        section.hidden = !section.querySelector(".inventory-entry:not([hidden])");
      });
      count.textContent = words.length
        ? shown + " of " + entries.length + " claims"
        : entries.length + " claims";
      var url = new URL(window.location.href);
      if (words.length) url.searchParams.set("q", input.value);
      else url.searchParams.delete("q");
      window.history.replaceState(null, "", url.toString());
    }
    var initial = new URL(window.location.href).searchParams.get("q");
    if (initial) input.value = initial;
    input.addEventListener("input", apply);
    apply();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
