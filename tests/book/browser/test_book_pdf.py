"""The print edition that ``make pdf`` makes (tools/build_pdf.py).

Checks the files a reader downloads, page by page, as a reader would see
them: the text of each page (poppler's ``pdftotext``) and, where text cannot
tell, the page rendered to an image (``tools/pdf_layout.py``):

* a title page, its back, and contents with page numbers that are right;
* a page for each part; each chapter on a right-hand page under "Chapter n"
  and its title; running heads with the chapter or part and the page number;
* equation numbers beside their equations; no code box left empty at the foot
  of a page; no half-empty page inside a chapter beyond a small allowance;
* captions in the text's colour, no screen-only wording, checks and solutions
  printed; the appendix compact, the file under 15 MB;
* one PDF per chapter, linked from that chapter's download menu.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import unicodedata
from functools import lru_cache

import pytest

from tools import book, build_pdf, pdf_layout

ROOT = book.ROOT

PDF = ROOT / "_build" / "pdf" / build_pdf.PDF_NAME
REPORT = PDF.parent / build_pdf.REPORT_NAME
LINKED = book.BUILD / build_pdf.PDF_NAME
MAX_BYTES = 15 * 2**20
RAW_TEX = ("$$", "\\begin", "\\frac", "\\mathbb", "\\(", "\\[")
PRE = re.compile(r"<pre[^>]*>(.*?)</pre>", re.S)
#: Words that make sense only on a screen.
SCREEN_ONLY = (
    "rocket icon",
    "Filter the claims",
    "Click to show",
    "Show code cell",
    "Hide code cell",
    "Copy to clipboard",
    "Print this page",
    "Launch Binder",
)


def _normalise(text: str) -> str:
    """Ligatures (ﬁ) and spacing as a PDF text extractor gives them."""
    text = unicodedata.normalize("NFKC", text)
    return re.sub(r"\s+", " ", text).strip()


@lru_cache(maxsize=1)
def report() -> dict:
    if not PDF.is_file() or not REPORT.is_file():
        pytest.fail(f"{PDF} is missing: run `make pdf` (or `make book`)")
    return json.loads(REPORT.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def pages() -> list[str]:
    """The text of every page, laid out as printed (pdftotext -layout)."""
    report()
    out = subprocess.run(
        ["pdftotext", "-layout", str(PDF), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.split("\f")[: report()["pages"]]


@lru_cache(maxsize=1)
def margins() -> list[tuple[str, str]]:
    """What the top and the bottom margin of each page say: the running head
    and the foot, from the position of each word (``pdftotext -bbox``)."""
    out = subprocess.run(
        ["pdftotext", "-bbox", str(PDF), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = []
    word = re.compile(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" '
        r'yMax="([\d.]+)">([^<]*)</word>'
    )
    for page in re.findall(r"<page [^>]*>(.*?)</page>", out, re.S):
        head, foot = [], []
        for x, top, bottom, text in word.findall(page):
            if float(bottom) < 19 * 72 / 25.4:  # above the text area
                head.append((float(x), html.unescape(text)))
            elif float(top) > 842 - 17 * 72 / 25.4:  # below it
                foot.append((float(x), html.unescape(text)))
        found.append(
            tuple(
                " ".join(t for _, t in sorted(band)) for band in (head, foot)
            )
        )
    return found


def head_and_foot(index: int) -> tuple[str, str]:
    head, foot = margins()[index]
    return _normalise(head), _normalise(foot)


def page_text(index: int) -> str:
    """Page ``index`` (0-based), whitespace normalised."""
    return _normalise(pages()[index])


def lines(index: int) -> list[str]:
    return [
        line.strip() for line in pages()[index].splitlines() if line.strip()
    ]


@lru_cache(maxsize=1)
def layout() -> list:
    return pdf_layout.layout(PDF)


def entries(kind: str | None = None) -> list[dict]:
    return [e for e in report()["entries"] if kind in (None, e["kind"])]


def test_pdf_and_chapter_pdfs_are_linked_from_the_book():
    assert LINKED.is_file(), (
        f"{LINKED} is missing: `make book` copies the PDF into the HTML build"
    )
    assert LINKED.read_bytes() == PDF.read_bytes(), (
        f"{LINKED} is not the PDF of this build ({PDF})"
    )
    intro = (book.BUILD / "intro.html").read_text(encoding="utf-8")
    assert f'href="{build_pdf.PDF_NAME}"' in intro
    chapter_pdfs = report()["chapter_pdfs"]
    assert len(chapter_pdfs) == len(entries("chapter"))
    for doc, name in chapter_pdfs.items():
        built = PDF.parent / build_pdf.CHAPTER_PDF_DIR / name
        served = book.BUILD / build_pdf.CHAPTER_PDF_DIR / name
        assert built.is_file() and served.is_file(), name
        assert built.read_bytes() == served.read_bytes(), name
        page = (book.BUILD / f"{doc}.html").read_text(encoding="utf-8")
        assert f'href="../{build_pdf.CHAPTER_PDF_DIR}/{name}"' in page, (
            f"{doc}: no link to its PDF in the download menu"
        )


def test_title_page_and_its_back():
    facts = report()["facts"]
    title = page_text(0)
    for part in ("title", "subtitle", "author", "version", "date"):
        assert _normalise(facts[part]) in title, (part, title)
    assert facts["licence"] in title
    assert "Chapter" not in title and "Contents" not in title
    back = page_text(1)
    assert facts["licence"] in back and facts["version"] in back


def test_contents_give_the_page_of_every_part_and_chapter():
    front = report()["front_pages"]
    contents = [line for index in range(2, front) for line in lines(index)]
    assert contents and contents[0] == "Contents"
    for entry in entries():
        heading = _normalise(entry["heading"])
        row = next(
            (
                line
                for line in contents
                if _normalise(line).startswith(heading)
            ),
            None,
        )
        assert row, f"{heading!r} is not in the contents"
        number = int(row.split()[-1])
        assert number == entry["page_number"], (heading, number)
        # The page with that number starts the part or chapter.
        target = page_text(front + number - 1)
        if entry["kind"] == "part":
            assert _normalise(entry["heading"].split(":")[0]).upper() in (
                target.upper()
            )
        else:
            assert heading.split(". ", 1)[-1] in target, (heading, number)


def test_each_part_has_a_page_of_its_own():
    for entry in entries("part"):
        text = page_text(entry["first_page"])
        label, _, title = entry["heading"].partition(": ")
        assert label.upper() in text.upper() and title in text
        assert len(text) < len(entry["heading"]) + 20, text


def test_chapters_start_on_a_right_hand_page_under_their_numbered_title():
    numbered = 0
    for entry in entries("chapter"):
        first = entry["first_page"]
        assert first % 2 == 0, (
            f"{entry['heading']} starts on page {first + 1}, a left-hand page"
        )
        text = page_text(first)
        if re.match(r"\d+\. ", entry["heading"]):
            numbered += 1
            number, title = entry["heading"].split(". ", 1)
            assert f"CHAPTER {number}" in text.upper(), entry["heading"]
            assert int(number) == numbered
        else:
            title = entry["heading"]
        assert _normalise(title) in text[: 40 + len(title)], entry["heading"]
    assert numbered >= 15


def test_every_page_has_its_running_head_or_number():
    front = report()["front_pages"]
    blanks = set(report()["blank_pages"])
    starts = {e["first_page"] for e in entries()}
    parts = {e["first_page"] for e in entries("part")}
    owner = {}
    for entry in entries():
        for index in range(entry["first_page"], entry["last_page"] + 1):
            owner[index] = entry
    for index in range(front, report()["pages"]):
        head, foot = head_and_foot(index)
        if index in blanks or index in parts:
            assert not head and not foot, (index + 1, head, foot)
            continue
        number = str(index - front + 1)
        if index in starts:  # a chapter's first page: the number at the foot
            assert not head and foot == number, (index + 1, head, foot)
            continue
        entry = owner[index]
        if int(number) % 2:  # right-hand: the chapter, the number outside
            expected = entry["heading"]
            assert head.endswith(number), (index + 1, head)
        else:  # left-hand: the part, the number outside
            expected = entry["part"] or "About this book"
            assert head.startswith(number), (index + 1, head)
        assert _normalise(expected) in head, (index + 1, head, expected)
        assert not foot, (index + 1, foot)


def test_equation_numbers_sit_beside_their_equations():
    # Measured on the page that was printed: each number level with its
    # formula and to its right.
    numbers = report()["equation_numbers"]
    assert numbers["total"] > 100, numbers
    assert numbers["beside"] == numbers["total"], numbers
    # And in the PDF's text: a number and its formula share a line, except
    # for formulas several lines tall, whose number is centred beside them.
    eqno = re.compile(r"\((\d+\.\d+)\)$")
    beside = alone = 0
    for text in pages():
        for line in text.splitlines():
            found = eqno.search(line.strip())
            if found:
                if line.strip()[: found.start()].strip():
                    beside += 1
                else:
                    alone += 1
    assert beside >= 2 * alone, (beside, alone)


def test_no_code_box_is_left_empty_at_the_foot_of_a_page():
    # A box keeps a few mm of padding below its last line; an empty box left
    # behind by code that moved on is taller than that.
    empty = [p for p in layout() if p.empty_box_mm > 9]
    assert not empty, [(p.page, round(p.empty_box_mm, 1)) for p in empty]


def test_few_half_empty_pages_inside_chapters():
    # A chapter's text ends before its solutions, which start a new page.
    before_solutions = {page - 1 for page in report()["solutions_pages"]}
    last_pages = {e["last_page"] for e in entries()} | before_solutions
    front = report()["front_pages"]
    blanks = set(report()["blank_pages"])
    parts = {e["first_page"] for e in entries("part")}
    inside = [
        p
        for p in layout()
        if p.page - 1 >= front
        and p.page - 1 not in last_pages | blanks | parts
    ]
    half = [p.page for p in inside if p.white_share > 0.4]
    assert len(half) <= 0.03 * len(inside), (
        f"{len(half)} of {len(inside)} pages inside chapters are more than "
        f"40% white: {half}"
    )


def test_captions_print_dark():
    colours = report()["caption_colours"]
    assert colours == ["rgb(0, 0, 0)"], colours


def test_no_screen_only_wording():
    text = _normalise("\n".join(pages()))
    found = [w for w in SCREEN_ONLY if w.lower() in text.lower()]
    assert not found, found


def test_checks_and_solutions_are_printed():
    text = _normalise("\n".join(pages()))
    solutions = len(re.findall(r"Solution to Exercise \d", text))
    assert solutions >= 30, f"only {solutions} solutions in the PDF"
    headed = text.count("Solutions to the exercises")
    assert headed >= 10, f"{headed} chapters end with their solutions"
    checks = len(re.findall(r"✓ ?Check ", text))
    assert checks >= 20, f"only {checks} labelled checks in the PDF"


def test_size_and_a_page_count_driven_by_the_chapters():
    assert PDF.stat().st_size < MAX_BYTES, PDF.stat().st_size
    # The reference matter: the indexes, the errata, the API, the references
    # (the appendix's five notations is a chapter of its own).
    reference = ("notation_index", "claims", "errata", "api", "bibliography")

    def length(entry):
        return entry["last_page"] - entry["first_page"] + 1

    reference_pages = sum(
        length(e) for e in entries("chapter") if e["doc"].endswith(reference)
    )
    chapter_pages = sum(
        length(e)
        for e in entries("chapter")
        if not e["doc"].endswith(reference)
    )
    assert chapter_pages >= 2 / 3 * report()["pages"], (
        chapter_pages,
        report()["pages"],
    )
    assert reference_pages < chapter_pages / 3, (
        reference_pages,
        chapter_pages,
    )


def test_chapter_pdfs_are_the_chapters_pages():
    from pypdf import PdfReader

    for entry in entries("chapter"):
        name = report()["chapter_pdfs"][entry["doc"]]
        reader = PdfReader(str(PDF.parent / build_pdf.CHAPTER_PDF_DIR / name))
        assert (
            len(reader.pages) == entry["last_page"] - entry["first_page"] + 1
        )
        first = _normalise(reader.pages[0].extract_text() or "")
        title = entry["heading"].split(". ", 1)[-1]
        assert _normalise(title) in first, (name, first[:80])


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
    body = _normalise("\n".join(pages()))
    found = {
        tex: (body.count(tex), _in_code(tex))
        for tex in RAW_TEX
        if body.count(tex) > _in_code(tex)
    }
    assert not found, (
        f"raw TeX left in {PDF.name} (formulas MathJax did not typeset), "
        f"as (count in the PDF, count in code): {found}"
    )


def test_every_figure_is_in_the_pdf():
    from pypdf import PdfReader

    figures = set()
    for page in book.book_pages():
        source = (book.BUILD / page).read_text(encoding="utf-8")
        figures.update(re.findall(r'src="(?:\.\./)*_images/([^"]+)"', source))
    images = sum(len(p.images) for p in PdfReader(str(PDF)).pages)
    assert figures, "the HTML build has no figure"
    assert images >= len(figures), (
        f"{images} images in the PDF, {len(figures)} figures in the HTML"
    )


def test_outline_lists_the_parts_and_chapters():
    from pypdf import PdfReader

    def titles(outline):
        for item in outline:
            if isinstance(item, list):
                yield from titles(item)
            else:
                yield _normalise(item.title)

    outline = list(titles(PdfReader(str(PDF)).outline))
    for entry in entries():
        assert _normalise(entry["heading"]) in outline, entry["heading"]
