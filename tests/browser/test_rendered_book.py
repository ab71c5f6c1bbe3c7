"""Open every page of the built book in a real browser and check what a reader sees.

Run after the build: ``pytest tests/browser`` (``make test`` does both).
For each ``.html`` page under ``_build/html`` it checks that

* every ``.math`` element was typeset by MathJax (holds an ``mjx-container``) and
  no MathJax error node or "Math input error" text is on the page;
* every ``<img>`` loaded (``complete`` and ``naturalWidth > 0``);
* no request failed or returned an HTTP error, and no request left the loopback
  server that serves the book (no CDN, no web font, no analytics);
* the browser console shows no error and no script threw;
* every internal link points at an existing file, and its ``#fragment`` (if any)
  is an id on the target page.

The pages are served by ``http.server`` on 127.0.0.1 and opened in Debian's
Chromium (``/usr/bin/chromium``) through Playwright; Playwright's own browser
download does not work on this network.
"""

from __future__ import annotations

import functools
import html.parser
import http.server
import re
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

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


def book_pages() -> list[str]:
    """All pages of the built book, as paths relative to ``_build/html``.

    ``genindex.html`` and ``search.html`` are included: both are static pages
    that load local scripts only (the search page runs no query without ``?q=``).
    """
    if not BUILD.is_dir():
        return []
    return sorted(
        p.relative_to(BUILD).as_posix()
        for p in BUILD.rglob("*.html")
        if not ASSET_DIRS.intersection(p.relative_to(BUILD).parts)
    )


PAGES = book_pages()


def require_build() -> None:
    if not (BUILD / "index.html").is_file():
        pytest.fail(
            f"{BUILD} has no built book: run `make book` (or `jupyter-book build . "
            "--builder html`) first",
            pytrace=False,
        )


# --------------------------------------------------------------------------
# Fixtures: one loopback server and one browser page for the whole session
# --------------------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        pass


@pytest.fixture(scope="session")
def server():
    require_build()
    handler = functools.partial(_QuietHandler, directory=str(BUILD))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    host, port = httpd.server_address[:2]
    yield f"http://{host}:{port}"
    httpd.shutdown()
    httpd.server_close()


class PageEvents:
    """What the browser reported while one page loaded."""

    def __init__(self, origin: str):
        self.origin = origin
        self.clear()

    def clear(self) -> None:
        self.foreign: list[str] = []
        self.failed: list[str] = []
        self.http_errors: list[str] = []
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []

    def on_request(self, request) -> None:
        url = request.url
        if url.startswith(("data:", "blob:", "about:")):
            return
        if not url.startswith(self.origin + "/"):
            self.foreign.append(url)

    def on_request_failed(self, request) -> None:
        self.failed.append(f"{request.url} ({request.failure})")

    def on_response(self, response) -> None:
        if response.status >= 400:
            self.http_errors.append(f"{response.status} {response.url}")

    def on_console(self, message) -> None:
        if message.type == "error":
            self.console_errors.append(f"{message.text} @ {message.location}")

    def on_page_error(self, error) -> None:
        self.page_errors.append(str(error))


@pytest.fixture(scope="session")
def browser_page(server, tmp_path_factory):
    if not CHROMIUM.is_file():
        pytest.fail(
            f"{CHROMIUM} not found: the rendered-book test needs Debian's Chromium. "
            "Install it with `apt-get install chromium` (as root: "
            "`apt-get update && apt-get install -y chromium`).",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    events = PageEvents(server)
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            user_data_dir=str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900},
            service_workers="block",
        )
        context.set_default_timeout(TIMEOUT_MS)
        page = context.pages[0] if context.pages else context.new_page()
        page.on("request", events.on_request)
        page.on("requestfailed", events.on_request_failed)
        page.on("response", events.on_response)
        page.on("console", events.on_console)
        page.on("pageerror", events.on_page_error)
        try:
            yield page, events, server
        finally:
            context.close()


# --------------------------------------------------------------------------
# Static helpers
# --------------------------------------------------------------------------


class _IdCollector(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is not None and (
                name == "id" or (tag == "a" and name == "name")
            ):
                self.ids.add(value)


@functools.cache
def ids_of(path: Path) -> frozenset[str]:
    collector = _IdCollector()
    collector.feed(path.read_text(encoding="utf-8"))
    return frozenset(collector.ids)


REFRESH = re.compile(
    r"""<meta\s+http-equiv=["']refresh["']\s+content=["']\d+;\s*url=([^"']+)["']""",
    re.I,
)


def redirect_target(page: str) -> str | None:
    match = REFRESH.search((BUILD / page).read_text(encoding="utf-8"))
    return match.group(1) if match else None


def check_internal_links(
    page: str, hrefs: list[str], origin: str
) -> list[str]:
    """Return a description of every broken internal link among ``hrefs``."""
    broken = []
    for href in sorted(set(hrefs)):
        if not href.startswith(origin + "/"):
            continue  # external (Binder, Colab, GitHub, ...) or javascript:
        parts = urlsplit(href)
        rel = unquote(parts.path).lstrip("/")
        target = BUILD / rel
        if rel == "" or target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            broken.append(f"{href}: no file {target.relative_to(BUILD)}")
            continue
        fragment = unquote(parts.fragment)
        if (
            fragment
            and target.suffix == ".html"
            and fragment not in ids_of(target)
        ):
            broken.append(
                f"{href}: no id {fragment!r} in {target.relative_to(BUILD)}"
            )
    return broken


# JavaScript run in the page once it has loaded.
WAIT_FOR_PAGE = """
async () => {
  // Images: load lazy ones too, then wait until every image has settled.
  const images = Array.from(document.images);
  for (const img of images) { if (img.loading === 'lazy') img.loading = 'eager'; }
  await Promise.all(images.map(img => img.complete ? null :
    new Promise(resolve => { img.addEventListener('load', resolve, {once: true});
                             img.addEventListener('error', resolve, {once: true}); })));
  // Math: wait for MathJax's first typesetting pass.
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


# --------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------


def test_build_exists():
    require_build()
    assert PAGES, f"no .html page in {BUILD}"


def test_mathjax_is_local():
    """Math is served from the build itself, never from a CDN."""
    require_build()
    assert (BUILD / "_static" / "mathjax" / "tex-chtml.js").is_file(), (
        "_static/mathjax/tex-chtml.js is missing: the offline_mathjax extension "
        "(_ext/offline_mathjax.py) did not copy MathJax into the build"
    )
    remote = re.compile(
        r"""<script[^>]+src=["'](?:https?:)?//[^"']*mathjax""", re.I
    )
    offenders = [
        p
        for p in PAGES
        if remote.search((BUILD / p).read_text(encoding="utf-8"))
    ]
    assert not offenders, (
        f"pages loading MathJax from a remote host: {offenders}"
    )


@pytest.mark.parametrize("page", PAGES or ["<no build>"])
def test_page_renders(page, browser_page):
    tab, events, origin = browser_page
    events.clear()

    target = redirect_target(page)
    if target is not None:
        # index.html only redirects to the root page: check the target exists and the
        # browser lands there; the target itself is checked as a page of its own.
        resolved = (BUILD / page).parent / target
        assert resolved.is_file(), (
            f"{page} redirects to a missing page {target}"
        )
        tab.goto(f"{origin}/{page}")
        tab.wait_for_url(re.compile(re.escape(urlsplit(target).path) + r"$"))
        tab.wait_for_load_state("load")
    else:
        response = tab.goto(f"{origin}/{page}", wait_until="load")
        assert response is not None and response.ok, (
            f"{page}: HTTP {response and response.status}"
        )

    mathjax = tab.evaluate(WAIT_FOR_PAGE)
    found = tab.evaluate(INSPECT_PAGE)

    problems = []
    if mathjax == "missing":
        problems.append(
            f"{found['nMath']} math elements but MathJax did not load"
        )
    if found["untypeset"]:
        problems.append(f"math not typeset: {found['untypeset'][:5]}")
    if found["mathErrors"]:
        problems.append(f"MathJax errors: {found['mathErrors'][:5]}")
    if found["brokenImages"]:
        problems.append(f"images that did not load: {found['brokenImages']}")
    if events.foreign:
        problems.append(
            f"requests to hosts other than {origin}: {sorted(set(events.foreign))}"
        )
    if events.failed:
        problems.append(f"failed requests: {events.failed}")
    if events.http_errors:
        problems.append(f"HTTP errors: {events.http_errors}")
    if events.console_errors:
        problems.append(f"console errors: {events.console_errors}")
    if events.page_errors:
        problems.append(f"uncaught script errors: {events.page_errors}")
    problems += [
        f"broken link {b}"
        for b in check_internal_links(page, found["hrefs"], origin)
    ]

    assert not problems, f"{page}:\n  " + "\n  ".join(problems)
