"""What the rendered-book tests and ``measure.py`` share.

The built pages, a loopback server for them, Debian's Chromium, and the
JavaScript that inspects a loaded page: MathJax and images, the layout (does
any display equation, table or the page itself overflow without a scrollbar)
and the accessibility check (axe-core, from the ``axe-playwright-python``
package, so it runs offline).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "_build" / "html"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Folders of the build that hold assets, not pages of the book.
ASSET_DIRS = {"_static", "_sources", "_images", "_downloads"}
TIMEOUT_MS = 30_000

#: The two reader set-ups the layout is checked for: (width, height) in CSS px.
VIEWPORTS = {"desktop": (1280, 900), "phone": (390, 844)}
THEMES = ("light", "dark")
#: axe-core impacts that fail the accessibility check.
BLOCKING_IMPACTS = ("critical", "serious")


def book_pages(build: Path = BUILD) -> list[str]:
    """All pages of a built book, as paths relative to the build folder."""
    if not build.is_dir():
        return []
    return sorted(
        p.relative_to(build).as_posix()
        for p in build.rglob("*.html")
        if not ASSET_DIRS.intersection(p.relative_to(build).parts)
    )


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - base class signature
        pass


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1; yield the origin."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    host, port = httpd.server_address[:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def launch(playwright):
    """Debian's Chromium, headless (Playwright's own download is not used)."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )


def new_context(browser, viewport: str, theme: str):
    """A fresh browser context: one reader's window size and colour scheme.

    The book follows the reader's light/dark preference (``default_mode:
    auto``), so the theme is chosen the way a reader's system chooses it.
    """
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        color_scheme=theme,
        service_workers="block",
        reduced_motion="reduce",
    )
    context.set_default_timeout(TIMEOUT_MS)
    return context


# --------------------------------------------------------------------------
# JavaScript run in a loaded page
# --------------------------------------------------------------------------

#: Wait for images (lazy ones too), MathJax's first pass and the fonts.
#: Returns the MathJax version, 'not needed' or 'missing'.
WAIT_FOR_PAGE = """
async () => {
  const images = Array.from(document.images);
  for (const img of images) { if (img.loading === 'lazy') img.loading = 'eager'; }
  await Promise.all(images.map(img => img.complete ? null :
    new Promise(resolve => { img.addEventListener('load', resolve, {once: true});
                             img.addEventListener('error', resolve, {once: true}); })));
  const maths = document.querySelectorAll('.math');
  let mathjax = 'not needed';
  if (maths.length) {
    if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {
      await window.MathJax.startup.promise;
      mathjax = window.MathJax.version || 'loaded';
    } else {
      mathjax = 'missing';
    }
  }
  await document.fonts.ready;
  return mathjax;
}
"""

#: Math typeset, MathJax errors, broken images, every link of the page.
INSPECT_PAGE = """
() => {
  const maths = Array.from(document.querySelectorAll('.math'));
  const untypeset = maths.filter(el => !el.querySelector('mjx-container'))
                         .map(el => el.textContent.trim().slice(0, 120));
  const mathErrors = Array.from(document.querySelectorAll('mjx-merror, [data-mjx-error]'))
                          .map(el => (el.getAttribute('data-mjx-error') || el.textContent).slice(0, 120));
  if (document.body.innerText.includes('Math input error')) mathErrors.push('Math input error');
  const brokenImages = Array.from(document.images)
      .filter(img => !img.complete || img.naturalWidth === 0)
      .map(img => img.currentSrc || img.src);
  const hrefs = Array.from(document.querySelectorAll('a[href]')).map(a => a.href);
  return {nMath: maths.length, untypeset, mathErrors, brokenImages, hrefs};
}
"""

#: The layout a reader sees at the current width. For every display equation
#: and every table of the article, where its content ends up:
#:   'fits'      inside its box;
#:   'scrolls'   wider than its box, inside a box with overflow-x auto/scroll
#:               (the reader can scroll it, and nothing else moves);
#:   'clipped'   cut off by a box with overflow hidden/clip: unreadable;
#:   'page'      sticks out of the page, which then scrolls sideways.
#: Plus the page's own horizontal overflow, the elements that cause it, and
#: the equations whose number is drawn over the visible part of the formula.
LAYOUT = """
() => {
  const SLACK = 1;  // px of sub-pixel rounding
  const root = document.scrollingElement || document.documentElement;
  const viewWidth = root.clientWidth;
  const hidden = el => { const r = el.getBoundingClientRect(); return r.width === 0 && r.height === 0; };
  const describe = el => {
    const sec = el.closest('section[id]');
    const id = el.id || (el.closest('[id]') || {}).id || '';
    return `${el.tagName.toLowerCase()}${id ? '#' + id : ''}` +
           `${sec && sec.id !== id ? ' in #' + sec.id : ''}: ` +
           (el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 60);
  };
  function classify(el, content) {
    const r = content.getBoundingClientRect();
    for (let a = el; a; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'visible') continue;
      const box = a.getBoundingClientRect();
      const left = box.left + a.clientLeft, right = left + a.clientWidth;
      if (r.left >= left - SLACK && r.right <= right + SLACK) continue;
      if (ox === 'auto' || ox === 'scroll') return 'scrolls';
      if (a === document.documentElement || a === document.body) return 'page';
      return 'clipped';
    }
    return (r.left < -SLACK || r.right > viewWidth + SLACK) ? 'page' : 'fits';
  }
  const result = {equations: [], tables: [], eqnoOverlaps: []};
  for (const c of document.querySelectorAll('mjx-container[display="true"]')) {
    if (hidden(c)) continue;
    const content = c.querySelector('mjx-math') || c;
    const where = classify(c, content);
    result.equations.push({where, what: describe(c.closest('div.math') || c.parentElement)});
  }
  for (const div of document.querySelectorAll('div.math')) {
    const eqno = div.querySelector(':scope > .eqno');
    const c = div.querySelector('mjx-container');
    const m = c && c.querySelector('mjx-math');
    if (!eqno || !m || hidden(eqno)) continue;
    const e = eqno.getBoundingClientRect(), mr = m.getBoundingClientRect(), cr = c.getBoundingClientRect();
    const left = Math.max(mr.left, cr.left), right = Math.min(mr.right, cr.right);
    const overlap = Math.min(e.right, right) - Math.max(e.left, left);
    const vertical = Math.min(e.bottom, mr.bottom) - Math.max(e.top, mr.top);
    if (overlap > SLACK && vertical > SLACK) result.eqnoOverlaps.push(describe(div));
  }
  for (const t of document.querySelectorAll('main table')) {
    if (hidden(t)) continue;
    result.tables.push({where: classify(t.parentElement, t), what: describe(t)});
  }
  result.pageOverflow = Math.max(0, root.scrollWidth - root.clientWidth);
  result.offenders = [];
  if (result.pageOverflow > SLACK) {
    // The outermost elements that stick out of the page.
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.right <= viewWidth + SLACK || r.width === 0) continue;
      let inner = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const ox = getComputedStyle(a).overflowX;
        if (ox !== 'visible') { inner = true; break; }
        if (a.getBoundingClientRect().right > viewWidth + SLACK) { inner = true; break; }
      }
      if (!inner) result.offenders.push(describe(el));
      if (result.offenders.length >= 5) break;
    }
  }
  return result;
}
"""


def run_axe(page) -> list[dict]:
    """axe-core on the loaded page; the critical and serious violations.

    Each item: rule id, impact, help text and up to five offending nodes
    (CSS selector and a short snippet).
    """
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(
        page, options={"resultTypes": ["violations"]}
    ).response
    blocking = []
    for violation in results["violations"]:
        if violation["impact"] not in BLOCKING_IMPACTS:
            continue
        blocking.append(
            {
                "id": violation["id"],
                "impact": violation["impact"],
                "help": violation["help"],
                "count": len(violation["nodes"]),
                "nodes": [
                    {
                        "target": " ".join(map(str, node["target"])),
                        "html": node["html"][:160],
                        "summary": (node.get("failureSummary") or "")[:200],
                    }
                    for node in violation["nodes"][:5]
                ],
            }
        )
    return blocking
