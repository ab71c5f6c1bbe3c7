/* Search results quote a few lines of each page. Sphinx takes them from the
   page's HTML, where formulas are still TeX source ("\(C = U\Lambda U^\top\)")
   and the article header holds the download buttons' labels. Quote formulas
   as plain text (Greek letters and common symbols kept, other commands and
   braces dropped) and leave the header out. */
(function () {
  "use strict";

  const SYMBOLS = {
    alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε",
    varepsilon: "ε", zeta: "ζ", eta: "η", theta: "θ", kappa: "κ",
    lambda: "λ", mu: "μ", nu: "ν", xi: "ξ", pi: "π", rho: "ρ", sigma: "σ",
    tau: "τ", phi: "φ", varphi: "φ", chi: "χ", psi: "ψ", omega: "ω",
    Gamma: "Γ", Delta: "Δ", Theta: "Θ", Lambda: "Λ", Xi: "Ξ", Pi: "Π",
    Sigma: "Σ", Phi: "Φ", Psi: "Ψ", Omega: "Ω",
    top: "ᵀ", times: "×", cdot: "·", le: "≤", leq: "≤", ge: "≥", geq: "≥",
    ne: "≠", neq: "≠", approx: "≈", in: "∈", to: "→", mapsto: "↦",
    infty: "∞", sum: "Σ", prod: "Π", sqrt: "√", partial: "∂", nabla: "∇",
    dots: "…", ldots: "…", cdots: "…", quad: " ", qquad: " ",
  };

  function plainTeX(tex) {
    return tex
      .replace(/^\s*\\[([]|\\[)\]]\s*$/g, "")
      .replace(/\\([A-Za-z]+)/g, (match, name) => SYMBOLS[name] || "")
      .replace(/\\./g, " ")
      .replace(/[{}&]/g, "")
      .replace(/\s+/g, " ")
      .trim();
  }

  function install() {
    if (typeof Search === "undefined" || !Search.htmlToText) return;
    if (Search.htmlToText.plainMath) return;
    const original = Search.htmlToText;
    const htmlToText = (htmlString, anchor) => {
      const doc = new DOMParser().parseFromString(htmlString, "text/html");
      for (const el of doc.querySelectorAll(".math")) {
        el.querySelectorAll(".eqno").forEach((eqno) => eqno.remove());
        el.textContent = " " + plainTeX(el.textContent) + " ";
      }
      for (const el of doc.querySelectorAll(
        ".bd-header-article, .header-article-items, #jb-print-docs-body"
      )) {
        el.remove();
      }
      return original(doc.documentElement.outerHTML, anchor);
    };
    htmlToText.plainMath = true;
    Search.htmlToText = htmlToText;
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", install);
  } else {
    install();
  }
})();
