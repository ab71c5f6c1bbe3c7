"""The book as a student reads it, on a laptop and on a phone.

Run after the build, with the other rendered-book tests
(``pytest -n 2 tests/browser``). The file sorts after test_reference_pages.py
on purpose: that module starts its own Playwright, which fails in a worker
where the shared browser of conftest.py is already running.

* figures: a tap (phone) or a click or Enter (laptop) opens a figure full
  screen, and a tap, Esc or the close button closes it; axe-core finds
  nothing to object to while it is open, in either theme; every figure's
  smallest text is at least 9 CSS px on a 390 px phone, and
  ``tools/figure_text.py`` (the same check on the notebooks, offline) knows
  the real width of the phone's text column;
* search: "Nystrom" finds the chapter on Nyström's method, "centering" and
  "centring" the chapter on centring, each as the first result;
* teaching code and checking code apart: at most 70 visible ``assert`` lines
  in the whole book and no visible code cell over 20 lines; check cells are
  folded under their label, marked as checks, one click from open;
* small things: tapping a solution's title opens the solution, claim ids
  never break across lines, captions are set in the text's colour and
  weight, the phone's toolbar has no full-screen button, and the Markdown
  download of an appendix page holds its content.
"""

from __future__ import annotations

import html.parser
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tools import book, figure_text

BUILD = book.BUILD
#: A chapter with figures, exercises with solutions and claim links.
CHAPTER = "chapters/12_mds_real_map.html"
#: The key under which the book's figure style records, in each PNG, the
#: size of the figure's smallest text in the PNG's own pixels.
SMALLEST_TEXT_KEY = "kpca-book smallest text px"
#: Smallest text a figure may show on a phone, in CSS px.
TARGET_PX = 9.0
MAX_VISIBLE_ASSERTS = 70
MAX_VISIBLE_CELL_LINES = 20
CHAPTERS = sorted(
    p.relative_to(BUILD).as_posix()
    for p in (BUILD / "chapters").glob("[0-9][0-9]_*.html")
)


def _touch_reader(browser, theme: str = "light"):
    """A phone with a touch screen (the shared readers have a mouse)."""
    width, height = book.VIEWPORTS["phone"]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        color_scheme=theme,
        has_touch=True,
        is_mobile=True,
        service_workers="block",
        reduced_motion="reduce",
    )
    context.set_default_timeout(book.TIMEOUT_MS)
    return context


def _open(tab, origin: str, page: str) -> None:
    response = tab.goto(f"{origin}/{page}", wait_until="load")
    assert response is not None and response.ok, page
    tab.evaluate(book.WAIT_FOR_PAGE)


DIALOG = "dialog.kpca-zoom"
FIGURE_LINK = "figure a.kpca-zoomable"


def _dialog_state(tab) -> dict:
    return tab.evaluate(
        """() => {
          const d = document.querySelector('dialog.kpca-zoom');
          if (!d) return {open: false};
          const r = d.getBoundingClientRect();
          const img = d.querySelector('img');
          const i = img.getBoundingClientRect();
          return {
            open: d.open,
            top: d.matches(':modal'),
            box: [r.left, r.top, r.width, r.height],
            image: {width: i.width, height: i.height, loaded: img.complete
                    && img.naturalWidth > 0, src: img.src},
            focus: document.activeElement
              && document.activeElement.className,
          };
        }"""
    )


# --------------------------------------------------------------------------
# Figures: full screen with a tap or a click
# --------------------------------------------------------------------------


def test_tapping_a_figure_opens_it_full_screen_on_a_phone(browser, origin):
    context = _touch_reader(browser)
    try:
        tab = context.new_page()
        _open(tab, origin, CHAPTER)
        link = tab.locator(FIGURE_LINK).first
        link.scroll_into_view_if_needed()
        own_width = link.evaluate(
            "a => parseFloat(a.querySelector('img').style.width)"
            " || a.querySelector('img').naturalWidth / 2"
        )
        url = tab.url
        link.locator("img").tap()
        tab.wait_for_selector(f"{DIALOG}[open]")
        state = _dialog_state(tab)
        width, height = book.VIEWPORTS["phone"]
        assert state["top"], "the figure did not open in a modal dialog"
        assert state["box"] == [0, 0, width, height], (
            f"the full-screen figure does not cover the screen: {state}"
        )
        assert state["image"]["loaded"], state
        # On a phone the figure is shown at its own size (pan to see it),
        # wider than the text column it had.
        assert state["image"]["width"] >= min(own_width, width) - 1, state
        assert tab.url == url, "the tap followed the link to the PNG"

        tab.locator(f"{DIALOG} .kpca-zoom-view").tap()
        tab.wait_for_selector(f"{DIALOG}:not([open])", state="attached")
        assert not _dialog_state(tab)["open"], "a tap did not close it"
    finally:
        context.close()


def test_figure_opens_and_closes_with_the_keyboard(readers):
    reader = readers("desktop")
    tab = reader.tab
    reader.open(CHAPTER)
    link = tab.locator(FIGURE_LINK).first
    link.focus()
    tab.keyboard.press("Enter")
    tab.wait_for_selector(f"{DIALOG}[open]")
    state = _dialog_state(tab)
    width, height = book.VIEWPORTS["desktop"]
    assert state["box"] == [0, 0, width, height], state
    # On a laptop the figure is fitted to the screen: larger than in the
    # text column, or, for a tall figure, as tall as the screen allows.
    column_width = link.evaluate(
        "a => a.querySelector('img').getBoundingClientRect().width"
    )
    assert (
        state["image"]["width"] > column_width
        or state["image"]["height"] >= 0.8 * height
    ), state
    tab.keyboard.press("Escape")
    tab.wait_for_selector(f"{DIALOG}:not([open])", state="attached")
    assert tab.evaluate(
        "() => document.activeElement.matches('figure a.kpca-zoomable')"
    ), "after Esc the focus did not return to the figure"

    # The close button closes it too.
    tab.keyboard.press("Enter")
    tab.wait_for_selector(f"{DIALOG}[open]")
    tab.locator(f"{DIALOG} .kpca-zoom-close").click()
    tab.wait_for_selector(f"{DIALOG}:not([open])", state="attached")


def test_every_figure_opens_full_screen(readers):
    """Every image of every chapter is wired up (one click each, on one
    chapter per test run would miss a page whose figures are not)."""
    reader = readers("desktop")
    missing = []
    for page in CHAPTERS:
        reader.open(page)
        missing += [
            f"{page}: {alt[:60]}"
            for alt in reader.tab.evaluate(
                """() => Array.from(document.querySelectorAll(
                    '.bd-article figure img, .bd-article .cell_output img'))
                  .filter(img => !img.closest('.kpca-zoomable')
                                 && !img.matches('.kpca-zoomable'))
                  .map(img => img.alt || img.src)"""
            )
        ]
    assert not missing, f"figures that do not open full screen: {missing}"


@pytest.mark.parametrize("theme", book.THEMES)
def test_full_screen_figure_is_accessible(theme, readers):
    reader = readers("desktop", theme)
    tab = reader.tab
    reader.open(CHAPTER)
    tab.locator(FIGURE_LINK).first.click()
    tab.wait_for_selector(f"{DIALOG}[open]")
    try:
        violations = book.run_axe(tab)
    finally:
        tab.keyboard.press("Escape")
    assert not violations, json.dumps(violations, indent=1)[:3000]


# --------------------------------------------------------------------------
# Figures: legible on a phone
# --------------------------------------------------------------------------


def _png_text(path: Path) -> dict[str, str]:
    from PIL import Image

    with Image.open(path) as image:
        return dict(getattr(image, "text", {}) or {})


def _figures_on_phone(reader, page: str) -> list[dict]:
    """Each figure image of ``page`` at 390 px: where its PNG is in the
    build and how wide it is shown."""
    reader.open(page)
    return reader.tab.evaluate(
        """() => Array.from(document.querySelectorAll(
              '.bd-article figure img, .bd-article .cell_output img'))
            .map(img => ({
              src: new URL(img.src).pathname,
              shown: img.getBoundingClientRect().width,
              id: (img.closest('figure[id]') || {}).id || '',
            }))"""
    )


def test_figure_text_is_legible_on_a_phone(readers):
    """smallest text px x shown width / PNG width >= 9 CSS px, for every
    figure of the book, at a 390 px viewport."""
    from PIL import Image

    reader = readers("phone")
    too_small, unmeasured, sizes = [], [], {}
    for page in CHAPTERS:
        for figure in _figures_on_phone(reader, page):
            path = BUILD / unquote(figure["src"]).lstrip("/")
            with Image.open(path) as image:
                png_width = image.width
                text = (getattr(image, "text", {}) or {}).get(
                    SMALLEST_TEXT_KEY
                )
            name = f"{page} {figure['id'] or path.name}"
            if text is None:
                unmeasured.append(name)
                continue
            px = float(text) * figure["shown"] / png_width
            sizes.setdefault(page, []).append(px)
            if px < TARGET_PX:
                too_small.append(f"{name}: {px:.1f} px")
    assert not too_small and not unmeasured, (
        f"{len(too_small)} figures with text under {TARGET_PX} CSS px at "
        f"390 px: {too_small}\n{len(unmeasured)} PNGs without "
        f"{SMALLEST_TEXT_KEY!r} (not drawn under the book's figure style, "
        f"kpca.book.plotting.use_book_style): {unmeasured}"
    )


def test_figure_text_tool_knows_the_phone_column(readers):
    """tools/figure_text.py assumes the width a figure gets on a phone."""
    reader = readers("phone")
    widest = max(
        f["shown"] for f in _figures_on_phone(reader, CHAPTER) if f["id"]
    )
    column = reader.tab.evaluate(
        "() => document.querySelector('article.bd-article section > p')"
        ".getBoundingClientRect().width"
    )
    assert abs(widest - column) <= 1, (
        f"a wide figure is {widest:.0f} px on a phone, the text column "
        f"{column:.0f} px"
    )
    assert abs(figure_text.PHONE_COLUMN_PX - widest) <= 1, (
        f"tools/figure_text.py: PHONE_COLUMN_PX = "
        f"{figure_text.PHONE_COLUMN_PX}, but figures are {widest:.0f} px "
        f"wide at 390 px"
    )
    assert figure_text.KEY == SMALLEST_TEXT_KEY


# --------------------------------------------------------------------------
# Search
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("Nystrom", "chapters/14_kernel_pca_at_scale.html"),
        ("nyström", "chapters/14_kernel_pca_at_scale.html"),
        ("centering", "chapters/09_centring_in_feature_space.html"),
        ("centring", "chapters/09_centring_in_feature_space.html"),
    ],
)
def test_search_ranks_the_chapter_first(query, first, readers):
    reader = readers("desktop")
    tab = reader.tab
    reader.open(f"search.html?q={query}")
    tab.wait_for_function(
        "() => (document.querySelector('#search-results .search-summary')"
        " || {}).textContent",
        timeout=60_000,
    )
    results = tab.evaluate(
        """() => Array.from(document.querySelectorAll(
              '#search-results ul.search li > a'))
            .map(a => a.getAttribute('href'))"""
    )
    assert results, f"searching {query!r} finds nothing"
    assert urlsplit(results[0]).path == first, (
        f"searching {query!r}: first result {results[0]}, expected {first}; "
        f"all: {results[:6]}"
    )


# --------------------------------------------------------------------------
# Teaching code and checking code apart (the built HTML)
# --------------------------------------------------------------------------


class _CodeCells(html.parser.HTMLParser):
    """The code of every cell input of a page, and whether it is folded."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cells: list[dict] = []
        self._stack: list[tuple[str, set[str]]] = []
        self._pre = 0
        self._text: list[str] = []

    def _inside(self, predicate) -> bool:
        return any(predicate(tag, cls) for tag, cls in self._stack)

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "img", "input", "meta", "link", "hr", "wbr"):
            return
        classes = set((dict(attrs).get("class") or "").split())
        self._stack.append((tag, classes))
        if tag == "pre" and self._inside(lambda t, c: "cell_input" in c):
            self._pre += 1
            self._text = []

    def handle_endtag(self, tag):
        while self._stack:
            open_tag, _ = self._stack.pop()
            if open_tag == tag:
                break
        if tag == "pre" and self._pre:
            self._pre -= 1
            # Folded: a hidden-input cell (<details>), a cell inside a
            # solution or other dropdown (opened by a click), or a cell whose
            # input is removed.
            folded = self._inside(
                lambda t, c: (
                    t == "details"
                    or "dropdown" in c
                    or "tag_remove-input" in c
                )
            )
            cell_tags = set()
            for _, c in self._stack:
                cell_tags |= {x for x in c if x.startswith("tag_")}
            self.cells.append(
                {
                    "code": "".join(self._text),
                    "folded": folded,
                    "tags": sorted(cell_tags),
                }
            )

    def handle_data(self, data):
        if self._pre:
            self._text.append(data)


def _visible_code(page: str) -> list[str]:
    parser = _CodeCells()
    parser.feed((BUILD / page).read_text(encoding="utf-8"))
    return [cell["code"] for cell in parser.cells if not cell["folded"]]


ASSERT_LINE = re.compile(r"^\s*assert\b")


def _count_visible():
    asserts, long_cells = {}, []
    for page in CHAPTERS + ["chapters/appendix_notations.html"]:
        if not (BUILD / page).is_file():
            continue
        for code in _visible_code(page):
            lines = code.rstrip("\n").splitlines()
            n = sum(bool(ASSERT_LINE.match(line)) for line in lines)
            if n:
                asserts[page] = asserts.get(page, 0) + n
            if len(lines) > MAX_VISIBLE_CELL_LINES:
                long_cells.append(f"{page}: {len(lines)} lines: {lines[0]}")
    return asserts, long_cells


def test_the_assert_counter_sees_folded_cells_as_folded():
    """The counter below is right: a folded cell's code is not counted."""
    parser = _CodeCells()
    parser.feed(
        '<div class="cell docutils container"><div class="cell_input">'
        "<pre>assert a\nx = 1\n</pre></div></div>"
        '<div class="cell tag_hide-input tag_check docutils container">'
        '<details class="hide above-input"><summary>Check</summary>'
        '<div class="cell_input"><pre>assert b\nassert c\n</pre></div>'
        "</details></div>"
    )
    assert [
        (c["folded"], c["code"].count("assert")) for c in parser.cells
    ] == [
        (False, 1),
        (True, 2),
    ]


def test_visible_asserts_and_long_cells():
    """At most 70 ``assert`` lines a reader sees without unfolding anything,
    in the whole book, and no visible code cell over 20 lines."""
    asserts, long_cells = _count_visible()
    total = sum(asserts.values())
    assert total <= MAX_VISIBLE_ASSERTS and not long_cells, (
        f"{total} visible assert lines (at most {MAX_VISIBLE_ASSERTS}): "
        f"{asserts}\n{len(long_cells)} visible code cells over "
        f"{MAX_VISIBLE_CELL_LINES} lines: {long_cells}"
    )


CHECK = "div.cell.tag_check > details.hide"


def _pages_with_checks() -> list[str]:
    return [
        page
        for page in CHAPTERS
        if "tag_check" in (BUILD / page).read_text(encoding="utf-8")
    ]


@pytest.mark.parametrize("viewport", list(book.VIEWPORTS))
@pytest.mark.parametrize("theme", book.THEMES)
def test_check_cells_are_marked_and_one_click_away(viewport, theme, readers):
    pages = _pages_with_checks()
    if not pages:
        pytest.skip("no check cell in this build yet (chapter branches)")
    reader = readers(viewport, theme)
    tab = reader.tab
    reader.open(pages[0])
    check = tab.locator(CHECK).first
    check.scroll_into_view_if_needed()
    summary = check.locator("summary")
    label = summary.inner_text().strip()
    assert label.startswith("Check "), (
        f"a check cell's fold reads {label!r}, not its label "
        "(mystnb.code_prompt_show, CONTRIBUTING.md item 5)"
    )
    look = summary.evaluate(
        """s => {
          const cs = getComputedStyle(s);
          const mark = getComputedStyle(s, '::before').content;
          const line = parseFloat(cs.lineHeight)
            || 1.4 * parseFloat(cs.fontSize);
          return {mark, fontSize: parseFloat(cs.fontSize),
                  lines: Math.round(
                    (s.getBoundingClientRect().height
                     - parseFloat(cs.paddingTop)
                     - parseFloat(cs.paddingBottom)) / line),
                  code: !!s.parentElement.querySelector('.cell_input pre')}
        }"""
    )
    assert look["mark"] == '"✓"', f"the fold is not marked as a check: {look}"
    assert look["fontSize"] <= 16, look
    assert not check.locator(".cell_input").is_visible()
    summary.click()
    assert check.locator(".cell_input pre").first.is_visible(), (
        "one click on the check's label did not show its code"
    )
    assert "assert" in check.locator(".cell_input pre").first.inner_text()
    summary.click()
    assert not check.locator(".cell_input").is_visible()


# --------------------------------------------------------------------------
# Small things
# --------------------------------------------------------------------------


def test_tapping_a_solution_title_opens_the_solution(browser, origin):
    context = _touch_reader(browser)
    try:
        tab = context.new_page()
        _open(tab, origin, CHAPTER)
        solution = tab.locator(".solution.toggle").first
        link = solution.locator(".admonition-title a").first
        link.scroll_into_view_if_needed()
        url = tab.url
        assert "toggle-hidden" in (solution.get_attribute("class") or "")
        link.tap()
        # Wait for the toggle rather than a fixed time: a loaded CI machine
        # may take longer than any fixed pause to run the click handler.
        try:
            tab.wait_for_function(
                "el => !el.classList.contains('toggle-hidden')",
                arg=solution.element_handle(),
                timeout=10_000,
            )
        except Exception:  # noqa: BLE001 - Playwright's TimeoutError
            pass
        assert tab.url == url, f"the tap followed the link to {tab.url}"
        assert "toggle-hidden" not in (
            solution.get_attribute("class") or ""
        ), "tapping the solution's title did not open the solution"
        title = solution.locator(":scope > .admonition-title").inner_text()
        assert "Solution to Exercise" in " ".join(title.split()), title
    finally:
        context.close()


def test_solution_title_link_has_no_underlined_space():
    page = (BUILD / CHAPTER).read_text(encoding="utf-8")
    titles = re.findall(
        r'<p class="admonition-title">Solution to.{0,200}', page
    )
    assert titles
    bad = [t for t in titles if re.search(r"<a [^>]*>\s", t)]
    assert not bad, bad[:2]


def test_claim_ids_never_break(readers):
    reader = readers("phone")
    reader.open(CHAPTER)
    broken = reader.tab.evaluate(
        """() => Array.from(document.querySelectorAll(
              '.bd-article a[href*="#claim-"], .bd-article code.literal'))
            .filter(a => /^[SEGNP]\\d{2,3}-\\d{2}$/.test(a.textContent.trim())
                         || a.matches('a'))
            .filter(a => a.getClientRects().length > 1)
            .map(a => a.textContent.trim())"""
    )
    assert not broken, f"claim ids broken across lines at 390 px: {broken}"


@pytest.mark.parametrize("theme", book.THEMES)
def test_captions_in_text_colour_and_weight(theme, readers):
    reader = readers("desktop", theme)
    reader.open(CHAPTER)
    style = reader.tab.evaluate(
        """() => {
          const cap = document.querySelector('figcaption .caption-text');
          const cs = getComputedStyle(cap);
          const body = getComputedStyle(
            document.querySelector('article.bd-article p'));
          return {weight: +cs.fontWeight, color: cs.color,
                  text: body.color};
        }"""
    )
    assert style["weight"] >= 400, style
    assert style["color"] == style["text"], style


def test_phone_toolbar_has_no_full_screen_button(readers):
    reader = readers("phone")
    reader.open(CHAPTER)
    assert not reader.tab.locator(".btn-fullscreen-button").first.is_visible()
    reader = readers("desktop")
    reader.open(CHAPTER)
    assert reader.tab.locator(".btn-fullscreen-button").first.is_visible()


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("appendix_claims", ["S000-24", "S004-16"]),
        ("appendix_errata", ["E01", "G01"]),
        ("appendix_notation_index", ["N01", "P1"]),
        ("bibliography", ["Pearson", "1901"]),
    ],
)
def test_markdown_download_of_appendix_pages_has_content(page, expected):
    source = BUILD / "_sources" / "chapters" / f"{page}.md"
    text = source.read_text(encoding="utf-8")
    missing = [word for word in expected if word not in text]
    assert not missing, (
        f"{source.relative_to(BUILD)} ({len(text)} characters) lacks "
        f"{missing}: the download is the page's directive, not its content"
    )
    assert len(text) > 2_000


# --------------------------------------------------------------------------
# Equations on a laptop
# --------------------------------------------------------------------------


def _scrolling_equations(reader, page: str) -> list[str]:
    reader.open(page)
    layout = reader.tab.evaluate(book.LAYOUT)
    return [
        item["what"] for item in layout["equations"] if item["where"] != "fits"
    ]


def test_no_display_equation_scrolls_on_a_laptop(readers):
    """At 1280 px every display equation fits its column: none needs a
    scrollbar (on a phone a long one may scroll)."""
    reader = readers("desktop")
    wide = {}
    for page in book.book_pages():
        if "chapters/" not in page and page != "intro.html":
            continue
        found = _scrolling_equations(reader, page)
        if found:
            wide[page] = found
    assert not wide, json.dumps(wide, indent=1, ensure_ascii=False)


def test_pillow_reads_png_text_chunks(tmp_path):
    """The PNG text chunk the figure test reads survives a save and load."""
    from PIL import Image, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text(SMALLEST_TEXT_KEY, "18.00")
    path = tmp_path / "probe.png"
    Image.new("RGB", (4, 4), "white").save(path, pnginfo=info)
    assert _png_text(path)[SMALLEST_TEXT_KEY] == "18.00"
