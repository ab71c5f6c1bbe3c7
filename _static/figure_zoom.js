/* Every figure of the book opens full screen with a tap or a click.

   A figure is a link to its PNG (Sphinx) or an image in a cell's output.
   Activating it (tap, click, Enter) opens the image in a modal <dialog>
   instead of the raw file: fitted to the screen when that shows it at a
   readable size (a laptop), else at its own size, to be panned with a finger
   or the scrollbars (a phone). A tap or click anywhere, Esc, or the close
   button closes it, and the focus returns to the figure. A click with a
   modifier key (or the middle button) still opens the PNG itself. */
(function () {
  "use strict";

  const IMAGES =
    ".bd-article figure img, .bd-article div.cell_output img";
  /* Below this fraction of its own size a fitted image is too small to read:
     show it at its own size and let the reader pan. */
  const READABLE = 0.75;
  let dialog = null;
  let opener = null;

  function build() {
    dialog = document.createElement("dialog");
    dialog.className = "kpca-zoom";
    dialog.innerHTML =
      '<div class="kpca-zoom-bar">' +
      '<span class="kpca-zoom-label"></span>' +
      '<span class="kpca-zoom-hint">Tap, click or Esc to close</span>' +
      '<button type="button" class="kpca-zoom-close"' +
      ' aria-label="Close the full-screen figure">' +
      '<span aria-hidden="true">\u00d7</span></button></div>' +
      '<div class="kpca-zoom-view" tabindex="0"><img alt=""></div>';
    // Any click or tap closes: a drag that pans the image is not a click.
    dialog.addEventListener("click", () => dialog.close());
    // The theme's own key handlers may swallow Esc before the dialog's
    // built-in cancel sees it: close on Esc here.
    dialog.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        dialog.close();
      }
    });
    dialog.addEventListener("close", () => {
      document.documentElement.classList.remove("kpca-zoom-open");
      dialog.querySelector("img").removeAttribute("src");
      if (opener && document.contains(opener)) opener.focus();
      opener = null;
    });
    document.body.append(dialog);
  }

  function label(img) {
    const number = img.closest("figure")?.querySelector(".caption-number");
    return number ? number.textContent.trim() : "Figure";
  }

  function open(img, trigger) {
    if (!dialog) build();
    opener = trigger;
    const shown = dialog.querySelector("img");
    shown.src = img.currentSrc || img.src;
    shown.alt = img.alt;
    const name = label(img);
    dialog.querySelector(".kpca-zoom-label").textContent = name;
    dialog.setAttribute("aria-label", `${name}, full screen`);
    document.documentElement.classList.add("kpca-zoom-open");
    dialog.showModal();
    size(img, shown);
    const view = dialog.querySelector(".kpca-zoom-view");
    const pans = view.scrollWidth > view.clientWidth + 1
      || view.scrollHeight > view.clientHeight + 1;
    dialog.querySelector(".kpca-zoom-hint").textContent = pans
      ? "Drag to see all of it; tap or Esc to close"
      : "Tap, click or Esc to close";
    view.scrollTo(0, 0);
    view.focus();
  }

  /* The width at which the image is shown: fitted to the screen, no larger
     than its pixels, or its own (CSS) size when fitting makes it too small. */
  function size(img, shown) {
    const pixels = img.naturalWidth || img.width;
    const height = img.naturalHeight || img.height;
    const own = parseFloat(img.style.width) || img.getAttribute("width")
      || pixels;
    const view = dialog.querySelector(".kpca-zoom-view");
    const room = view.getBoundingClientRect();
    const fit = Math.min(room.width / pixels, room.height / height) * pixels;
    let width = Math.min(fit, Math.max(pixels, own));
    if (width < READABLE * own) width = own;
    shown.style.width = `${Math.round(width)}px`;
  }

  function trigger(img) {
    const link = img.closest("a.image-reference");
    return link || img;
  }

  function setUp() {
    for (const img of document.querySelectorAll(IMAGES)) {
      const control = trigger(img);
      if (control.dataset.kpcaZoom) continue;
      control.dataset.kpcaZoom = "1";
      control.classList.add("kpca-zoomable");
      control.setAttribute("aria-haspopup", "dialog");
      if (control === img) {
        img.tabIndex = 0;
        img.setAttribute("role", "button");
        img.setAttribute(
          "aria-label",
          `Open full screen${img.alt ? ": " + img.alt : ""}`
        );
        img.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            open(img, img);
          }
        });
      } else {
        control.title = "Open full screen";
      }
      control.addEventListener("click", (event) => {
        if (event.button !== 0 || event.ctrlKey || event.metaKey
            || event.shiftKey || event.altKey) return;
        event.preventDefault();
        open(img, control);
      });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
