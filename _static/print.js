/* Printing a page of the book (the download menu's "Print this page", or the
   browser's Print) shows everything a reader could unfold, and no equation is
   cut at the paper's edge. tools/build_pdf.py calls the same function before
   it prints the whole book. */
(function () {
  "use strict";

  // Printable width of an A4 or Letter page with the browser's default
  // margins, in CSS px: the widest a display equation can be on paper.
  const PAPER_WIDTH = 680;
  const opened = [];
  const shrunk = [];

  /* Open every <details> (hidden code cells) and every togglebutton
     admonition (solutions, dropdowns). */
  function unfold() {
    for (const details of document.querySelectorAll("details:not([open])")) {
      details.open = true;
      opened.push(details);
    }
    for (const el of document.querySelectorAll(".toggle-hidden")) {
      el.classList.remove("toggle-hidden");
      el.dataset.kpcaWasHidden = "1";
    }
  }

  /* Shrink a display equation wider than the space it has, so that it fits
     (never below half size). `maxWidth` caps the space (the paper's width
     when the page is measured at screen width). */
  function fitEquations(maxWidth) {
    for (const container of document.querySelectorAll('mjx-container[display="true"]')) {
      const math = container.querySelector("mjx-math");
      const box = container.closest("div.math") || container.parentElement;
      if (!math || !box) continue;
      const natural = math.getBoundingClientRect().width;
      const room = Math.min(box.clientWidth, maxWidth || Infinity) - 4;
      if (natural > room && room > 0) {
        const percent = Math.max(50, Math.floor((100 * room) / natural));
        container.style.fontSize = percent + "%";
        shrunk.push(container);
      }
    }
  }

  function prepare(maxWidth) {
    unfold();
    fitEquations(maxWidth === undefined ? PAPER_WIDTH : maxWidth);
  }

  function restore() {
    while (opened.length) opened.pop().open = false;
    for (const el of document.querySelectorAll('[data-kpca-was-hidden="1"]')) {
      el.classList.add("toggle-hidden");
      delete el.dataset.kpcaWasHidden;
    }
    while (shrunk.length) shrunk.pop().style.fontSize = "";
  }

  window.kpcaPrint = { prepare: prepare, restore: restore, fitEquations: fitEquations };
  window.addEventListener("beforeprint", function () { prepare(); });
  window.addEventListener("afterprint", restore);
})();
