"""What the rendered-book tests, ``build_pdf`` and ``measure`` share.

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

ROOT = Path(__file__).resolve().parents[1]
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
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
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
# JavaScript run in a loaded page (tools/js/)
# --------------------------------------------------------------------------


def _script(name: str) -> str:
    return (Path(__file__).parent / "js" / name).read_text(encoding="utf-8")


#: Wait for images (lazy ones too), MathJax's first pass and the fonts.
#: Returns the MathJax version, 'not needed' or 'missing'.
WAIT_FOR_PAGE = _script("wait_for_page.js")

#: Math typeset, MathJax errors, broken images, every link of the page.
INSPECT_PAGE = _script("inspect_page.js")

#: The layout a reader sees at the current width. For every display equation
#: and every table of the article, where its content ends up:
#:   'fits'      inside its box;
#:   'scrolls'   wider than its box, inside a box with overflow-x auto/scroll
#:               (the reader can scroll it, and nothing else moves);
#:   'clipped'   cut off by a box with overflow hidden/clip: unreadable;
#:   'page'      sticks out of the page, which then scrolls sideways.
#: Plus the page's own horizontal overflow, the elements that cause it, and
#: the equations whose number is drawn over the visible part of the formula.
LAYOUT = _script("layout.js")


def run_axe(page) -> list[dict]:
    """axe-core on the loaded page; the critical and serious violations.

    Each item: rule id, impact, help text and up to five offending nodes
    (CSS selector and a short snippet).
    """
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"resultTypes": ["violations"]}).response
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
