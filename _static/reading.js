/* A solution's title ("Solution to Exercise 12.1") opens the solution when
   tapped or clicked anywhere, the exercise link in it included: the link
   would otherwise jump back to the exercise, which on a phone (where the
   title is mostly link) is what a tap did. From the keyboard the link still
   leads to the exercise (Enter on it), and the title's button toggles. */
(function () {
  "use strict";

  document.addEventListener(
    "click",
    (event) => {
      const link = event.target.closest("a[href]");
      if (!link || event.detail === 0) return;  // keyboard activation
      const title = link.closest(".admonition.toggle > .admonition-title");
      if (!title) return;
      // sphinx-togglebutton's title handler finds no button from a link:
      // toggle through the title's own button instead.
      event.preventDefault();
      event.stopPropagation();
      const button = title.querySelector(".toggle-button");
      if (button) button.click();
    },
    true
  );
})();
