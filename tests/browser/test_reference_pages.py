"""The book as a reference: claims index, errata, notation index, API page.

Run after the build (``make test`` step 4, or ``pytest tests/browser``). Two
kinds of checks:

* on the built HTML: every id of the inventory (``reference/*.yaml``) has its
  entry, the claims index lists for each claim exactly the chapters whose
  claims tables list it, every error and gap has an erratum entry with a check
  that resolves, the chapters' tables link their ids, ids in prose link to
  their entries but never inside a heading, and the API page documents every
  name of ``kpca.__all__`` and of the public submodules;
* in Debian's Chromium through Playwright, like ``test_rendered_book.py``: the
  new pages load with no console error and no request leaving the loopback
  server, every math element is typeset, every internal link resolves, and
  the filter box of the claims index filters.
"""

from __future__ import annotations

import functools
import http.server
import re
import sys
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
TIMEOUT_MS = 30_000
PAGES = {
    "claims": "chapters/appendix_claims.html",
    "errata": "chapters/appendix_errata.html",
    "notation": "chapters/appendix_notation_index.html",
    "api": "chapters/api.html",
}

sys.path.insert(0, str(ROOT / "_ext"))
import claims_api  # noqa: E402
import claims_data  # noqa: E402

bs4 = pytest.importorskip("bs4")

INVENTORY = claims_data.load(ROOT)
ROWS = claims_data.scan_tables(ROOT)


def require_build() -> None:
    missing = [p for p in PAGES.values() if not (BUILD / p).is_file()]
    if missing:
        pytest.fail(
            f"{BUILD} lacks {missing}: run `make book` (or `jupyter-book "
            "build . --builder html`) first",
            pytrace=False,
        )


@functools.cache
def soup(page: str):
    return bs4.BeautifulSoup(
        (BUILD / page).read_text(encoding="utf-8"), "html.parser"
    )


@functools.cache
def ids_of(page: str) -> frozenset[str]:
    """Every id on a built page (a regex is enough for Sphinx's output)."""
    text = (BUILD / page).read_text(encoding="utf-8")
    return frozenset(unquote(i) for i in re.findall(r'\bid="([^"]+)"', text))


def page_of(docname: str) -> str:
    return docname + ".html"


def resolve(page: str, href: str) -> tuple[str, str]:
    """``(page, fragment)`` of an internal href relative to ``page``."""
    parts = urlsplit(href)
    if not parts.path:
        return page, unquote(parts.fragment)
    target = (BUILD / page).parent / unquote(parts.path)
    return target.resolve().relative_to(BUILD).as_posix(), unquote(
        parts.fragment
    )


def broken(page: str, href: str) -> str | None:
    """Why an internal link of ``page`` does not resolve, or None."""
    if re.match(r"^[a-z]+:", href) or href.startswith("//"):
        return None
    target, fragment = resolve(page, href)
    if not (BUILD / target).is_file():
        return f"{href}: no file {target}"
    if fragment and fragment not in ids_of(target):
        return f"{href}: no id {fragment!r} in {target}"
    return None


def chapters_linked(entry, page: str) -> set[str]:
    """Pages named first in each "Checked in" item of an entry."""
    found = set()
    for item in entry.select(".inventory-checks > li"):
        link = item.find("a", href=True)
        if link is not None and "pending-check" not in item.get("class", []):
            found.add(resolve(page, link["href"])[0])
    return found


# --------------------------------------------------------------------------
# The built HTML
# --------------------------------------------------------------------------


def test_claims_index_lists_each_claim_under_the_chapters_that_check_it():
    require_build()
    page = PAGES["claims"]
    expected: dict[str, set[str]] = {}
    for row in ROWS:
        expected.setdefault(row.id, set()).add(page_of(row.docname))
    problems = []
    for entry in INVENTORY.claims:
        nodes = soup(page).select(f"#{entry.label}")
        if len(nodes) != 1:
            problems.append(f"{entry.id}: {len(nodes)} entries")
            continue
        linked = chapters_linked(nodes[0], page)
        if linked != expected.get(entry.id, set()):
            problems.append(
                f"{entry.id}: index lists {sorted(linked)}, the tables "
                f"{sorted(expected.get(entry.id, set()))}"
            )
    assert len(soup(page).select(".claim-entry")) == len(INVENTORY.claims)
    assert not problems, "\n".join(problems)


def test_every_chapter_table_links_its_ids_to_their_entries():
    require_build()
    problems = []
    for docname in sorted({r.docname for r in ROWS}):
        page = page_of(docname)
        listed = [r.id for r in ROWS if r.docname == docname]
        cells = soup(page).select(
            "table.claims-table tbody tr > td:first-child a, "
            "table.errata-table tbody tr > td:first-child a"
        )
        shown = [a.get_text() for a in cells]
        if shown != listed:
            problems.append(f"{page}: tables show {shown}, source {listed}")
        for a in cells:
            entry = INVENTORY.entries[a.get_text()]
            target, fragment = resolve(page, a["href"])
            if (target, fragment) != (entry.page + ".html", entry.label):
                problems.append(f"{page}: {entry.id} links to {a['href']}")
    assert not problems, "\n".join(problems)


def test_every_error_and_gap_has_an_erratum_with_a_working_check():
    require_build()
    page = PAGES["errata"]
    problems, pending = [], []
    for entry in INVENTORY.errata:
        node = soup(page).find(id=entry.label)
        if node is None:
            problems.append(f"{entry.id}: no entry #{entry.label}")
            continue
        links = [
            a["href"]
            for item in node.select(".inventory-checks > li")
            if "pending-check" not in item.get("class", [])
            for a in item.find_all("a", href=True)
        ]
        bad = [b for b in (broken(page, h) for h in links) if b]
        checks = [h for h in links if not h.startswith("#")]
        if bad or not checks:
            problems.append(f"{entry.id}: checks {links}, broken {bad}")
        if node.select(".pending-check"):
            pending.append(entry.id)
        # an entry repeats under every note it concerns
        for note in entry.notes:
            section = soup(page).find(id=f"errata-note-{note}")
            if entry.id not in section.get_text():
                problems.append(f"{entry.id}: missing under note {note}")
    assert not problems, "\n".join(problems)
    assert sorted(pending) == sorted(e.id for e in INVENTORY.pending.values())


def test_notation_index_has_every_row_and_scaling_statement():
    require_build()
    page = PAGES["notation"]
    for entry in INVENTORY.of_kind("row") + INVENTORY.of_kind("scaling"):
        row = soup(page).find(id=entry.label)
        assert row is not None and row.name == "tr", entry.id
        assert entry.id in row.get_text(), entry.id
    for symbol in INVENTORY.symbols:
        assert symbol["chapter"] in str(soup(page)), symbol["symbol"]


def test_reference_pages_have_no_broken_internal_link():
    require_build()
    problems = []
    for page in PAGES.values():
        for a in soup(page).find_all("a", href=True):
            reason = broken(page, a["href"])
            if reason:
                problems.append(f"{page}: {reason}")
    assert not problems, "\n".join(problems)


def test_ids_in_prose_link_to_their_entries_but_not_in_headings():
    require_build()
    pages = sorted(
        p.relative_to(BUILD).as_posix()
        for p in (BUILD / "chapters").glob("[01]*.html")
    )
    linked = 0
    for page in pages:
        main = soup(page).find("main") or soup(page)
        for heading in main.find_all(re.compile(r"^h[1-6]$")):
            inner = [
                a
                for a in heading.find_all("a", href=True)
                if "headerlink" not in a.get("class", [])
            ]
            assert not inner, f"{page}: link inside heading {heading}"
        for a in main.select("p a.reference.internal"):
            text = a.get_text()
            if claims_data.PROSE_ID.fullmatch(text):
                entry = INVENTORY.entries[
                    claims_data.prose_id(claims_data.PROSE_ID.fullmatch(text))
                ]
                target, fragment = resolve(page, a["href"])
                assert (target, fragment) == (
                    entry.page + ".html",
                    entry.label,
                ), f"{page}: {text} links to {a['href']}"
                linked += 1
    assert linked > 500, f"only {linked} ids linked in the chapters"


def test_no_link_inside_a_link():
    """Ids in titles of theorems are linked; a reference to such a theorem
    must not wrap those links in another one."""
    require_build()
    nested = re.compile(r"<a [^>]*>(?:(?!</a>).)*<a ", re.S)
    pages = sorted(
        p.relative_to(BUILD).as_posix() for p in BUILD.rglob("*.html")
    )
    offenders = [
        p
        for p in pages
        if not p.startswith("_")
        and nested.search((BUILD / p).read_text(encoding="utf-8"))
    ]
    assert not offenders, f"pages with a link inside a link: {offenders}"


def test_api_page_documents_every_public_name():
    require_build()
    exported, modules = claims_api.layout()
    page = soup(PAGES["api"])
    missing = [n for n in exported if page.find(id=f"kpca.{n}") is None]
    assert not missing, (
        f"kpca.__all__ names missing from the API page: {missing}"
    )
    for module in modules:
        for path, _ in module.objects:
            assert page.find(id=path) is not None, f"{path} is not documented"
    public = {m.name for m in modules}
    for name in (
        "book.datasets",
        "book.plotting",
        "book.symbolic",
        "preimage",
        "feature_maps",
    ):
        assert f"kpca.{name}" in public


# --------------------------------------------------------------------------
# In the browser
# --------------------------------------------------------------------------


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - base class signature
        pass


@pytest.fixture(scope="module")
def browser():
    require_build()
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} not found (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Quiet, directory=str(BUILD))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    origin = "http://{}:{}".format(*httpd.server_address[:2])
    events = {"foreign": [], "failed": [], "console": [], "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(
            viewport={"width": 1280, "height": 900}, service_workers="block"
        )
        context.set_default_timeout(TIMEOUT_MS)
        tab = context.new_page()
        tab.on(
            "request",
            lambda r: (
                None
                if r.url.startswith((origin + "/", "data:", "blob:", "about:"))
                else events["foreign"].append(r.url)
            ),
        )
        tab.on(
            "requestfailed",
            lambda r: events["failed"].append(f"{r.url} ({r.failure})"),
        )
        tab.on(
            "console",
            lambda m: (
                events["console"].append(m.text) if m.type == "error" else None
            ),
        )
        tab.on("pageerror", lambda e: events["errors"].append(str(e)))
        try:
            yield tab, origin, events
        finally:
            context.close()
            browser.close()
            httpd.shutdown()
            httpd.server_close()


LOADED = """
async () => {
  const maths = document.querySelectorAll('.math');
  if (maths.length && window.MathJax && MathJax.startup) {
    await MathJax.startup.promise;
  }
  return {
    nMath: maths.length,
    untypeset: Array.from(maths)
      .filter(m => !m.querySelector('mjx-container'))
      .map(m => m.textContent.slice(0, 80)),
    mathErrors:
      document.querySelectorAll('mjx-merror, [data-mjx-error]').length,
    hrefs: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
  };
}
"""


@pytest.mark.parametrize("name", sorted(PAGES))
def test_reference_page_renders(name, browser):
    tab, origin, events = browser
    for key in events:
        events[key].clear()
    page = PAGES[name]
    response = tab.goto(f"{origin}/{page}", wait_until="load")
    assert response is not None and response.ok
    found = tab.evaluate(LOADED)
    problems = []
    if name != "api" and found["nMath"] == 0:
        problems.append("no math on the page")
    if found["untypeset"]:
        problems.append(f"math not typeset: {found['untypeset'][:5]}")
    if found["mathErrors"]:
        problems.append(f"{found['mathErrors']} MathJax errors")
    for key, values in events.items():
        if values:
            problems.append(f"{key}: {values[:5]}")
    for href in sorted(set(found["hrefs"])):
        if not href.startswith(origin + "/"):
            continue  # Binder, Colab, GitHub buttons
        parts = urlsplit(href)
        target = unquote(parts.path).lstrip("/") or "index.html"
        if not (BUILD / target).is_file():
            problems.append(f"{href}: no file {target}")
        elif parts.fragment and target.endswith(".html"):
            if unquote(parts.fragment) not in ids_of(target):
                problems.append(f"{href}: no id {parts.fragment!r}")
    assert not problems, f"{page}:\n  " + "\n  ".join(problems)


def test_claims_filter_box_filters(browser):
    tab, origin, events = browser
    tab.goto(f"{origin}/{PAGES['claims']}", wait_until="load")
    count = tab.locator("#inventory-filter-count")
    total = len(INVENTORY.claims)
    assert count.inner_text() == f"{total} claims"
    box = tab.locator("#inventory-filter-input")
    box.fill("S003-09")
    shown = tab.locator(".claim-entry:not([hidden])")
    assert tab.locator("#claim-s003-09").is_visible()
    assert 1 <= shown.count() < total
    assert count.inner_text() == f"{shown.count()} of {total} claims"
    assert not tab.locator("#claims-note-000").is_visible()
    box.fill("")
    assert shown.count() == total
    assert not events["errors"], events["errors"]
