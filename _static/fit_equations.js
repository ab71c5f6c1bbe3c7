/* A display equation a little wider than its column fits it, instead of
   needing a scrollbar: first its number moves below it (as on a phone),
   which gives it the number's column; then, if it is still too wide by at
   most MIN_SCALE, it is set slightly smaller. A wider one still scrolls in
   its own box (and its chapter should break it into lines). Run once
   MathJax has typeset the page, again when the window is resized and after
   printing (print.js fits equations to the paper and restores them). */
(function () {
  "use strict";

  const MIN_SCALE = 0.85;
  const STACKED = "kpca-eqno-below";

  function natural(container) {
    const math = container.querySelector("mjx-math");
    return math ? math.getBoundingClientRect().width : 0;
  }

  function fit() {
    for (const container of document.querySelectorAll(
      'div.math > mjx-container[display="true"]'
    )) {
      const box = container.parentElement;
      // MathJax sets its own scale (font-size: 119.1%, say) on the
      // container: shrink relative to it, and restore it when refitting.
      if (container.dataset.kpcaFontSize === undefined) {
        container.dataset.kpcaFontSize = container.style.fontSize;
      }
      const own = container.dataset.kpcaFontSize;
      const ownPercent = own.endsWith("%") ? parseFloat(own) : 100;
      box.classList.remove(STACKED);
      container.style.fontSize = own;
      if (natural(container) <= container.clientWidth + 1) continue;
      box.classList.add(STACKED);
      const width = natural(container);
      const room = container.clientWidth - 2;
      if (width <= room) continue;
      if (width * MIN_SCALE <= room) {
        const scale = Math.floor((1000 * room) / width) / 1000;
        container.style.fontSize = `${(ownPercent * scale).toFixed(1)}%`;
      } else {
        box.classList.remove(STACKED);  // scrolls: keep the number beside
      }
    }
  }

  let pending = null;
  function later() {
    if (pending) cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      pending = null;
      fit();
    });
  }

  function start() {
    const mathjax = window.MathJax && window.MathJax.startup;
    if (!mathjax || !mathjax.promise) return;
    mathjax.promise.then(() => document.fonts.ready).then(fit);
    window.addEventListener("resize", later);
    window.addEventListener("afterprint", later);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
