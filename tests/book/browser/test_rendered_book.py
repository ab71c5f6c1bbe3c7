"""Open every page of the built book in a real browser, as a reader would.

Run after the build: ``pytest -n 2 tests/book/browser`` (``make test`` does both).
Pages are served by ``http.server`` on 127.0.0.1 and opened in Debian's
Chromium (``/usr/bin/chromium``) through Playwright, at 1280 px (a laptop)
and 390 px (a phone), in the light and the dark theme.

For every page:

* ``test_page_renders`` (1280 px, light): every ``.math`` element typeset by
  the local MathJax and no MathJax error; every image loaded; no request
  failed or left the loopback server; no console error or uncaught script
  error; every internal link and ``#fragment`` resolves;
* ``test_layout`` (1280 and 390 px): no display equation or table clipped
  or sticking out of the page (each fits, or scrolls inside its own box), no
  equation number drawn over its formula, and the page itself never scrolls
  sideways (``scrollWidth <= clientWidth``);
* ``test_accessibility`` (light and dark): axe-core finds no critical or
  serious violation.

And on one chapter, what a reader clicks (``test_reader_controls``): the
sidebar toggle, the page-contents toggle, the launch menu and the download
menu, at both widths; that a code cell holds 79 characters on a desktop; that
proofs end with a tombstone; that printing unfolds solutions and hidden code.
"""

from __future__ import annotations

import functools
import html.parser
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tools import book

BUILD = book.BUILD
PAGES = book.book_pages()
#: A chapter with figures, proofs, exercises with solutions, hidden code.
CHAPTER = "chapters/08_kernel_pca.html"
#: The width the chapters' code is formatted to (ruff, pyproject.toml).
CODE_COLUMNS = 79

REFRESH = re.compile(
    r"""<meta\s+http-equiv=["']refresh["']\s+content=["']\d+;\s*url=([^"']+)["']""",
    re.I,
)


def redirect_target(page: str) -> str | None:
    match = REFRESH.search((BUILD / page).read_text(encoding="utf-8"))
    return match.group(1) if match else None


#: Pages with content (index.html only redirects to the root page).
CONTENT_PAGES = [p for p in PAGES if redirect_target(p) is None]


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


def check_internal_links(hrefs: list[str], origin: str) -> list[str]:
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


# --------------------------------------------------------------------------
# The build
# --------------------------------------------------------------------------


def test_build_exists():
    assert (BUILD / "index.html").is_file(), f"{BUILD}: run `make book` first"
    assert CONTENT_PAGES, f"no .html page in {BUILD}"


def test_mathjax_is_local():
    """Math is served from the build itself, never from a CDN."""
    assert (BUILD / "_static" / "mathjax" / "tex-chtml.js").is_file(), (
        "_static/mathjax/tex-chtml.js is missing: the offline_mathjax "
        "extension "
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


def test_redirects_resolve(readers):
    """index.html sends the reader to the root page."""
    reader = readers("desktop")
    for page in PAGES:
        target = redirect_target(page)
        if target is None:
            continue
        assert ((BUILD / page).parent / target).is_file(), (
            f"{page} redirects to a missing page {target}"
        )
        reader.tab.goto(f"{reader.origin}/{page}")
        reader.tab.wait_for_url(
            re.compile(re.escape(urlsplit(target).path) + r"$")
        )


# --------------------------------------------------------------------------
# Every page
# --------------------------------------------------------------------------


@pytest.mark.parametrize("page", CONTENT_PAGES or ["<no build>"])
def test_page_renders(page, readers):
    reader = readers("desktop")
    mathjax = reader.open(page)
    found = reader.tab.evaluate(book.INSPECT_PAGE)
    events = reader.events

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
            f"requests to hosts other than {reader.origin}: "
            f"{sorted(set(events.foreign))}"
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
        for b in check_internal_links(found["hrefs"], reader.origin)
    ]
    assert not problems, f"{page}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("viewport", list(book.VIEWPORTS))
@pytest.mark.parametrize("page", CONTENT_PAGES or ["<no build>"])
def test_layout(page, viewport, readers):
    """Nothing is cut off and nothing widens the page, at 1280 and 390 px."""
    reader = readers(viewport)
    reader.open(page)
    layout = reader.tab.evaluate(book.LAYOUT)
    width = book.VIEWPORTS[viewport][0]
    problems = []
    for kind in ("equations", "tables"):
        bad = [
            f"{item['where']}: {item['what']}"
            for item in layout[kind]
            if item["where"] in ("clipped", "page")
        ]
        if bad:
            problems.append(
                f"{len(bad)} {kind} cut off or wider than the page "
                f"(neither fit nor scroll in their own box): {bad[:5]}"
            )
    if layout["eqnoOverlaps"]:
        problems.append(
            f"equation numbers drawn over their formula: "
            f"{layout['eqnoOverlaps'][:5]}"
        )
    if layout["pageOverflow"] > 1:
        problems.append(
            f"the page scrolls sideways by {layout['pageOverflow']:.0f} px; "
            f"elements sticking out: {layout['offenders']}"
        )
    assert not problems, f"{page} at {width} px:\n  " + "\n  ".join(problems)


def _format_violations(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(
            f"{v['id']} ({v['impact']}, {v['count']} nodes): {v['help']}"
        )
        for node in v["nodes"]:
            lines.append(f"    {node['target']}: {node['html']}")
            if node["summary"]:
                lines.append(f"      {node['summary'].splitlines()[-1]}")
    return "\n  ".join(lines)


@pytest.mark.parametrize("theme", book.THEMES)
@pytest.mark.parametrize("page", CONTENT_PAGES or ["<no build>"])
def test_accessibility(page, theme, readers):
    """axe-core: no critical or serious violation (WCAG 2.x A/AA rules and
    axe's best practices, colour contrast included) in either theme."""
    reader = readers("desktop", theme)
    reader.open(page)
    assert (
        reader.tab.evaluate("document.documentElement.dataset.theme") == theme
    )
    violations = book.run_axe(reader.tab)
    assert not violations, f"{page} ({theme} theme):\n  " + _format_violations(
        violations
    )


# --------------------------------------------------------------------------
# What a reader clicks, on one chapter
# --------------------------------------------------------------------------


def _visible_within(tab, selector: str, timeout: int = 5_000) -> bool:
    try:
        tab.locator(selector).first.wait_for(state="visible", timeout=timeout)
        return True
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError
        return False


def _hidden_within(tab, selector: str, timeout: int = 5_000) -> bool:
    try:
        tab.locator(selector).first.wait_for(state="hidden", timeout=timeout)
        return True
    except Exception:  # noqa: BLE001
        return False


def test_sidebar_toggle_on_phone(readers):
    tab = readers("phone").tab
    readers("phone").open(CHAPTER)
    assert not tab.locator("#pst-primary-sidebar").is_visible()
    tab.locator(".primary-toggle").click()
    assert _visible_within(tab, "#pst-primary-sidebar-modal"), (
        "at 390 px the sidebar button did not open the navigation"
    )
    assert tab.locator(
        "#pst-primary-sidebar-modal a[href$='13_mds_and_pca.html']"
    ).is_visible(), "the opened navigation does not list the chapters"
    tab.keyboard.press("Escape")
    assert _hidden_within(tab, "#pst-primary-sidebar-modal")


def test_contents_toggle_on_phone(readers):
    tab = readers("phone").tab
    readers("phone").open(CHAPTER)
    tab.locator(".secondary-toggle").click()
    assert _visible_within(tab, "#pst-secondary-sidebar-modal"), (
        "at 390 px the page-contents button did not open the contents"
    )
    assert tab.locator(
        "#pst-secondary-sidebar-modal nav a[href^='#']"
    ).first.is_visible()
    tab.keyboard.press("Escape")
    assert _hidden_within(tab, "#pst-secondary-sidebar-modal")


def test_sidebar_toggle_on_desktop(readers):
    tab = readers("desktop").tab
    readers("desktop").open(CHAPTER)
    assert tab.locator("#pst-primary-sidebar").is_visible()
    assert tab.locator("#pst-secondary-sidebar").is_visible(), (
        "at 1280 px the page contents should be shown beside the text"
    )
    tab.locator(".primary-toggle").click()
    assert _hidden_within(tab, "#pst-primary-sidebar"), (
        "at 1280 px the sidebar button did not collapse the sidebar"
    )
    tab.locator(".primary-toggle").click()
    assert _visible_within(tab, "#pst-primary-sidebar"), (
        "at 1280 px a second click did not bring the sidebar back"
    )


@pytest.mark.parametrize("viewport", list(book.VIEWPORTS))
def test_launch_and_download_menus(viewport, readers):
    reader = readers(viewport)
    tab = reader.tab
    reader.open(CHAPTER)
    tab.locator(".dropdown-launch-buttons > button").click()
    menu = ".dropdown-launch-buttons .dropdown-menu"
    assert _visible_within(tab, menu), "the launch menu did not open"
    for name in ("Binder", "Colab"):
        assert tab.locator(menu).get_by_text(name).is_visible(), (
            f"no visible {name} entry in the launch menu"
        )
    tab.keyboard.press("Escape")

    tab.locator(".dropdown-download-buttons > button").click()
    menu = ".dropdown-download-buttons .dropdown-menu"
    assert _visible_within(tab, menu), "the download menu did not open"
    link = tab.locator(f"{menu} a.btn-download-book-pdf-button")
    assert link.is_visible(), (
        "no 'Whole book (PDF)' entry in the download menu"
    )
    href = link.evaluate("a => a.href")
    assert not check_internal_links([href], reader.origin), (
        f"the download menu's whole-book PDF link is dead: {href} "
        "(`make book` builds the PDF and puts it there)"
    )
    assert tab.locator(f"{menu} .btn-print-page-button").is_visible()
    tab.keyboard.press("Escape")


def test_code_holds_79_columns_on_desktop(readers):
    """A line formatted at 79 columns fits a code cell at 1280 px."""
    reader = readers("desktop")
    reader.open(CHAPTER)
    fit = reader.tab.evaluate(
        """columns => {
          const pre = document.querySelector('div.cell_input pre');
          const probe = document.createElement('span');
          probe.textContent = 'x'.repeat(columns);
          pre.append(probe);
          const cs = getComputedStyle(pre);
          const room = pre.clientWidth - parseFloat(cs.paddingLeft)
                       - parseFloat(cs.paddingRight);
          const need = probe.getBoundingClientRect().width;
          probe.remove();
          return {room, need, font: cs.fontSize};
        }""",
        CODE_COLUMNS,
    )
    assert fit["need"] <= fit["room"], (
        f"{CODE_COLUMNS} columns of code need {fit['need']:.0f} px, the cell "
        f"has {fit['room']:.0f} px (font size {fit['font']})"
    )


def test_proofs_end_with_a_tombstone(readers):
    reader = readers("desktop")
    reader.open(CHAPTER)
    marks = reader.tab.evaluate(
        """() => Array.from(document.querySelectorAll('div.proof.admonition'))
              .filter(d => d.id.startsWith('proof'))
              .map(d => getComputedStyle(d, '::after').content)"""
    )
    assert marks, f"{CHAPTER} has no proof"
    assert all(m == '"∎"' for m in marks), marks


def test_printing_unfolds_everything(readers):
    """Print (the download menu's 'Print this page'): hidden code, solutions
    and dropdowns open; code wraps instead of being cut."""
    reader = readers("desktop")
    tab = reader.tab
    reader.open(CHAPTER)
    assert tab.locator("details:not([open])").count() > 0
    assert tab.locator(".solution.toggle-hidden").count() > 0
    tab.emulate_media(media="print")
    try:
        tab.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        state = tab.evaluate(
            """() => ({
              closed: document.querySelectorAll('details:not([open])').length,
              hiddenSolutions: Array.from(document.querySelectorAll(
                  '.solution > .admonition-title ~ *'))
                .filter(el => getComputedStyle(el).visibility === 'hidden'
                              || el.getBoundingClientRect().height === 0)
                .length,
              solutions: document.querySelectorAll('.solution').length,
              preWrap: getComputedStyle(document.querySelector('pre'))
                .whiteSpace,
            })"""
        )
        tab.evaluate("window.dispatchEvent(new Event('afterprint'))")
    finally:
        tab.emulate_media(media="screen")
    assert state["solutions"] > 0
    assert state["closed"] == 0, f"{state['closed']} <details> stay closed"
    assert state["hiddenSolutions"] == 0, (
        f"{state['hiddenSolutions']} parts of solutions stay hidden in print"
    )
    assert state["preWrap"] == "pre-wrap"


def test_search_snippets_quote_formulas_as_text(readers):
    """Search results quote the pages without TeX source or button labels."""
    reader = readers("desktop")
    tab = reader.tab
    reader.open("search.html?q=covariance")
    snippets = tab.locator("#search-results ul.search li p.context")
    # Sphinx lists the results one by one and then writes its summary, while
    # each snippet arrives later from its own fetch of the page: wait for the
    # summary's text and then for a snippet under every result, or the test
    # reads whichever few snippets have come back so far.
    tab.wait_for_function(
        """() => {
          const summary = document.querySelector('#search-results .search-summary');
          if (!summary || !summary.textContent) return false;
          const items = document.querySelectorAll('#search-results ul.search li');
          return Array.from(items).every(
            li => li.querySelector('p.context') || li.querySelector('span'));
        }""",
        timeout=60_000,
    )
    texts = snippets.all_text_contents()
    assert texts, "no search result for 'covariance'"
    raw = [t for t in texts if "\\" in t]
    assert not raw, f"search snippets with TeX source: {raw[:3]}"
    buttons = [t for t in texts if "Print this page" in t or ".ipynb" in t]
    assert not buttons, f"search snippets quote the page's buttons: {buttons}"
    # The article header (buttons, the print-only contents list) is left out,
    # so the snippets quote the text, formulas included ("C = UΛ U^ᵀ").
    contents = [t for t in texts if "Contents" in t[:20]]
    assert not contents, f"snippets quote the contents list: {contents[:2]}"
    assert any("ᵀ" in t for t in texts), texts[:3]
