"""The whole-book PDF that ``make pdf`` prints (tools/build_pdf.py).

Checks the file a reader downloads: it is the one the HTML build links to;
its page count is sane; every page of ``_toc.yml`` is in it under its title
(the notebooks' first heading, the Markdown pages' first heading), chapters
with their numbers; no raw TeX survived (MathJax typeset everything); every
figure of the HTML build is in it; the outline lists the chapters.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from functools import lru_cache

import pytest

from tools import book, build_pdf

ROOT = book.ROOT

PDF = ROOT / "_build" / "pdf" / build_pdf.PDF_NAME
LINKED = book.BUILD / build_pdf.PDF_NAME
#: A sane range for about 15 chapters of text, code, figures and solutions.
MIN_PAGES, MAX_PAGES = 150, 1200
RAW_TEX = ("$$", "\\begin", "\\frac", "\\mathbb", "\\(", "\\[")
PRE = re.compile(r"<pre[^>]*>(.*?)</pre>", re.S)


def _normalise(text: str) -> str:
    """Ligatures (ﬁ) and spacing as a PDF text extractor gives them."""
    text = unicodedata.normalize("NFKC", text)
    return re.sub(r"\s+", " ", text).strip()


def first_heading(doc: str) -> str:
    """The title of a page of the book: its first Markdown heading."""
    path = ROOT / doc
    if path.with_suffix(".ipynb").is_file():
        cells = json.loads(
            path.with_suffix(".ipynb").read_text(encoding="utf-8")
        )["cells"]
        lines = [
            line
            for cell in cells
            if cell["cell_type"] == "markdown"
            for line in "".join(cell["source"]).splitlines()
        ]
    elif path.with_suffix(".rst").is_file():
        # reStructuredText: the title is the line above the first underline.
        lines = (
            path.with_suffix(".rst").read_text(encoding="utf-8").splitlines()
        )
        for above, line in zip(lines, lines[1:], strict=False):
            if above.strip() and re.fullmatch(r"(=+|-+|\*+)", line.strip()):
                return re.sub(r"[`*_]", "", above.strip())
        raise AssertionError(f"{doc} has no title")
    else:
        lines = (
            path.with_suffix(".md").read_text(encoding="utf-8").splitlines()
        )
    for line in lines:
        if line.startswith("# "):
            title = line[2:].strip()
            # Inline Markdown code and emphasis, as printed.
            return re.sub(r"[`*_]", "", title)
    raise AssertionError(f"{doc} has no '# ' heading")


@lru_cache(maxsize=1)
def reader():
    from pypdf import PdfReader

    if not PDF.is_file():
        pytest.fail(f"{PDF} is missing: run `make pdf` (or `make book`)")
    return PdfReader(str(PDF))


@lru_cache(maxsize=1)
def text() -> str:
    return _normalise(
        "\n".join(page.extract_text() or "" for page in reader().pages)
    )


def test_pdf_is_linked_from_the_book():
    assert PDF.is_file(), f"{PDF} is missing: run `make pdf`"
    assert LINKED.is_file(), (
        f"{LINKED} is missing: `make book` copies the PDF into the HTML "
        "build, "
        "where the intro and the download menus link to it"
    )
    assert LINKED.read_bytes() == PDF.read_bytes(), (
        f"{LINKED} is not the PDF of this build ({PDF})"
    )
    intro = (book.BUILD / "intro.html").read_text(encoding="utf-8")
    assert f'href="{build_pdf.PDF_NAME}"' in intro


def test_page_count():
    pages = len(reader().pages)
    assert MIN_PAGES <= pages <= MAX_PAGES, (
        f"{pages} pages: expected between {MIN_PAGES} and {MAX_PAGES}"
    )


def test_every_page_of_the_toc_is_in_the_pdf():
    body = text()
    missing = []
    for doc in build_pdf.toc_pages()[1:]:
        title = _normalise(first_heading(doc))
        if title not in body:
            missing.append(title)
    assert not missing, f"titles not found in {PDF.name}: {missing}"


def test_chapters_are_numbered():
    """Chapter n's heading reads 'n. Title', as in the HTML; the parts
    marked ``numbered: false`` in _toc.yml (the appendix) are not numbered."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    numbered_by_default = toc.get("defaults", {}).get("numbered", False)
    numbered = [
        chapter["file"]
        for part in toc["parts"]
        if part.get("numbered", numbered_by_default)
        for chapter in part["chapters"]
    ]
    assert numbered
    body = text()
    missing = []
    for number, doc in enumerate(numbered, start=1):
        heading = f"{number}. {_normalise(first_heading(doc))}"
        if heading not in body:
            missing.append(heading)
    assert not missing, f"numbered chapter headings not in the PDF: {missing}"


def _in_code(tex: str) -> int:
    """How often ``tex`` occurs in the code blocks of the HTML build (a
    matplotlib label such as ``"$\\mathbb{R}^3$"`` is code, not math)."""
    count = 0
    for page in build_pdf.toc_pages():
        source = (book.BUILD / f"{page}.html").read_text(encoding="utf-8")
        for block in PRE.findall(source):
            count += html.unescape(re.sub(r"<[^>]+>", "", block)).count(tex)
    return count


def test_no_raw_tex():
    """No TeX outside code: every formula was typeset."""
    body = text()
    found = {
        tex: (body.count(tex), _in_code(tex))
        for tex in RAW_TEX
        if body.count(tex) > _in_code(tex)
    }
    assert not found, (
        f"raw TeX left in {PDF.name} (formulas MathJax did not typeset), "
        f"as (count in the PDF, count in code): {found}"
    )


def test_solutions_are_included():
    body = text()
    solutions = len(re.findall(r"Solution to Exercise \d", body))
    assert solutions >= 10, f"only {solutions} solutions in the PDF"


def test_every_figure_is_in_the_pdf():
    figures = set()
    for page in book.book_pages():
        html = (book.BUILD / page).read_text(encoding="utf-8")
        figures.update(re.findall(r'src="(?:\.\./)*_images/([^"]+)"', html))
    images = 0
    for page in reader().pages:
        images += len(page.images)
    assert figures, "the HTML build has no figure"
    assert images >= len(figures), (
        f"{images} images in the PDF, {len(figures)} figures in the HTML"
    )


def test_outline_lists_the_chapters():
    def titles(outline):
        for item in outline:
            if isinstance(item, list):
                yield from titles(item)
            else:
                yield _normalise(item.title)

    outline = list(titles(reader().outline))
    for caption, _ in build_pdf.toc_parts():
        assert _normalise(caption) in outline, (
            f"{caption!r} not in the outline"
        )
    for doc in build_pdf.toc_pages()[1:]:
        title = _normalise(first_heading(doc))
        assert any(title in entry for entry in outline), (
            f"{title!r} not in the PDF's outline"
        )
