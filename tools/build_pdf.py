"""Print the book as a book: one PDF of the whole, and one per chapter.

    .venv/bin/python tools/build_pdf.py [--html _build/html] [--out FILE]

``make pdf`` runs this after the HTML build, offline, with Debian's Chromium
(Playwright) and pypdf:

1. **Body.** Every page of ``_toc.yml`` is put, in order, into one page of the
   HTML build (``tools/assemble_book.js``): the root page as "About this book",
   a title page for each part, each chapter under "Chapter n" and its title;
   links between pages become links inside the PDF; solutions move to the end
   of their chapter; the folded checks print as their label and what they
   printed; ``tools/print_book.css`` sets the paper layout. Chromium prints it.
2. **Pages.** The PDF's named destinations give the page of each part and
   chapter; a blank page is inserted before any that would start on a
   left-hand page, so each starts on a right-hand one.
3. **Front matter.** A title page, its back (version, date, licence), and the
   contents with the page numbers of step 2, numbered i, ii, ...
4. **Running heads.** Every page gets its head or foot (the part on the left
   page, the chapter on the right, the page number outside; the number alone
   at the foot of a chapter's first page), printed as a transparent overlay
   and stamped onto the pages.
5. **Outline and editions.** Bookmarks for the parts and chapters, and one PDF
   per chapter cut from the whole, with the same pages and numbers.

``tests/browser/test_book_pdf.py`` checks the result page by page.
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import json
import logging
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import book  # noqa: E402  (tests/browser/book.py: server and browser set-up)

#: Name of the PDF; _ext/book_download.py links to it at the HTML root.
PDF_NAME = "kpca-book.pdf"
#: Folder, next to the whole-book PDF and at the HTML root, of the chapters'
#: PDFs (``chapters/<name>.pdf``); _ext/book_download.py links to them.
CHAPTER_PDF_DIR = "pdf"
#: A report of the build, next to the PDF, that the tests read.
REPORT_NAME = "kpca-book.json"
PAGE_FORMAT = "A4"
#: A4 with 15 mm side margins leaves 180 mm = 680 CSS px of text width; the
#: running head sits in the top margin, the page number of an opening page in
#: the bottom one.
MARGIN = {"top": "19mm", "bottom": "17mm", "left": "15mm", "right": "15mm"}
TEXT_WIDTH_PX = 680
TIMEOUT_MS = 600_000
ASSEMBLE = (ROOT / "tools" / "assemble_book.js").read_text(encoding="utf-8")
PRINT_CSS = (ROOT / "tools" / "print_book.css").read_text(encoding="utf-8")
#: Links of the contents to the body's pages, rewritten into page links.
GOTO = "https://kpca-book.invalid/page/"
ROMAN = [
    (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"),
    (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"),
    (4, "iv"), (1, "i"),
]  # fmt: skip


def roman(number: int) -> str:
    out = ""
    for value, letters in ROMAN:
        while number >= value:
            out += letters
            number -= value
    return out


def _slug(doc: str) -> str:
    # The same ids as ASSEMBLE's slug().
    return "pdf-" + re.sub(r"[^A-Za-z0-9]+", "-", doc)


@dataclass
class Entry:
    """A part's title page or a page of _toc.yml, as the body prints it."""

    kind: str  # "preface", "part" or "chapter"
    id: str
    title: str = ""
    label: str = ""
    doc: str = ""
    number: int | None = None
    part: str = ""  # the part a chapter belongs to (running head)
    first_page: int = 0  # 0-based, in the body once blanks are inserted
    last_page: int = 0
    chapters: list[Entry] = field(default_factory=list)

    @property
    def heading(self) -> str:
        """The title as the contents, the heads and the outline show it."""
        if self.kind == "part":
            return f"{self.label}: {self.title}" if self.title else self.label
        if self.number is not None:
            return f"{self.number}. {self.title}"
        return self.title


def toc_pages(toc_file: Path = ROOT / "_toc.yml") -> list[str]:
    """Document names in reading order: the root, then every chapter."""
    toc = yaml.safe_load(toc_file.read_text(encoding="utf-8"))
    pages = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                pages.append(entry["file"])
            walk(entry.get("sections"))

    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    walk(toc.get("chapters"))
    return [str(Path(p).with_suffix("")) for p in pages]


def toc_parts(
    toc_file: Path = ROOT / "_toc.yml",
) -> list[tuple[str, list[str]]]:
    """(caption, [document names]) of each part of _toc.yml."""
    toc = yaml.safe_load(toc_file.read_text(encoding="utf-8"))
    return [
        (
            part.get("caption", ""),
            [str(Path(c["file"]).with_suffix("")) for c in part["chapters"]],
        )
        for part in toc.get("parts", [])
    ]


def first_heading(html_file: Path) -> str:
    """The text of a built page's first heading (its title)."""
    source = html_file.read_text(encoding="utf-8")
    found = re.search(r"<h1[^>]*>(.*?)</h1>", source, re.S)
    if not found:
        raise SystemExit(f"{html_file}: no <h1>")
    text = re.sub(r"<a class=\"headerlink\".*?</a>", "", found.group(1))
    return html.unescape(re.sub(r"<[^>]+>|\s+", " ", text)).split("#")[0]


def structure(html_dir: Path, toc_file: Path = ROOT / "_toc.yml") -> list:
    """The body's entries: the root page, then each part and its chapters."""
    toc = yaml.safe_load(toc_file.read_text(encoding="utf-8"))
    numbered_default = toc.get("defaults", {}).get("numbered", False)
    root = str(Path(toc["root"]).with_suffix(""))
    entries = [
        Entry("preface", _slug(root), "About this book", doc=root),
    ]
    number = 0
    for index, part in enumerate(toc.get("parts", []), start=1):
        caption = part.get("caption", f"Part {index}")
        label, _, title = caption.partition(": ")
        part_entry = Entry("part", f"pdf-part-{index}", title.strip(), label)
        entries.append(part_entry)
        for chapter in part["chapters"]:
            doc = str(Path(chapter["file"]).with_suffix(""))
            numbered = part.get("numbered", numbered_default)
            if numbered:
                number += 1
            title = re.sub(
                r"\s+", " ", first_heading(html_dir / f"{doc}.html")
            ).strip()
            entry = Entry(
                "chapter",
                _slug(doc),
                title,
                doc=doc,
                number=number if numbered else None,
                part=caption,
            )
            part_entry.chapters.append(entry)
            entries.append(entry)
    return entries


def _git(*args: str) -> str:
    try:
        return subprocess.run(
            ["git", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def book_facts() -> dict:
    """Title, subtitle, authors, version, date and licence for the title page."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    intro = (ROOT / "intro.md").read_text(encoding="utf-8")
    subtitle = re.search(r"^\*(.+)\*\s*$", intro, re.M)
    init = (ROOT / "kpca" / "__init__.py").read_text(encoding="utf-8")
    version = re.search(r'__version__ = "([^"]+)"', init)
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8").splitlines()[0]
    # The date of the commit printed, so the same sources give the same PDF.
    date = _git("log", "-1", "--format=%cs") or dt.date.today().isoformat()
    title = config["title"].split(":")[0].strip()
    return {
        "title": title,
        "subtitle": subtitle.group(1) if subtitle else "",
        "author": config.get("author", ""),
        "version": version.group(1) if version else "",
        "commit": _git("rev-parse", "--short", "HEAD"),
        "date": date,
        "licence": licence,
        "url": config.get("repository", {}).get("url", ""),
    }


# ---------------------------------------------------------------------------
# Printing with Chromium


def _print(page, path: Path, margin: dict, **options) -> None:
    page.pdf(
        path=str(path),
        format=PAGE_FORMAT,
        margin=margin,
        print_background=True,
        display_header_footer=False,
        **options,
    )


def print_body(browser, origin: str, entries: list, out: Path) -> dict:
    page = browser.new_page(
        viewport={"width": TEXT_WIDTH_PX, "height": 1000},
        color_scheme="light",
        reduced_motion="reduce",
    )
    page.set_default_timeout(TIMEOUT_MS)
    page.emulate_media(media="print", color_scheme="light")
    page.goto(f"{origin}/{entries[0].doc}.html", wait_until="load")
    page.evaluate(book.WAIT_FOR_PAGE)
    found = page.evaluate(
        ASSEMBLE,
        {
            "entries": [
                {
                    "kind": e.kind,
                    "id": e.id,
                    "doc": e.doc,
                    "title": e.title,
                    "label": e.label,
                    "number": e.number,
                }
                for e in entries
            ],
            "textWidth": TEXT_WIDTH_PX,
            "css": PRINT_CSS,
        },
    )
    problems = []
    if found["broken"]:
        problems.append(f"images that did not load: {found['broken']}")
    if found["errors"] or found["untypeset"]:
        problems.append(
            f"MathJax errors {found['errors'][:5]}, "
            f"{found['untypeset']} formulas not typeset"
        )
    if problems:
        raise SystemExit("; ".join(problems))
    found["captionColours"] = page.evaluate(
        """() => Array.from(document.querySelectorAll(
              'figcaption, p.caption, .caption-text'))
            .map(el => getComputedStyle(el).color)"""
    )
    started = time.perf_counter()
    _print(page, out, MARGIN)
    found["printSeconds"] = time.perf_counter() - started
    page.close()
    return found


FRONT_CSS = """
@page { size: A4; margin: 0; }
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto,
       "Helvetica Neue", Arial, sans-serif; color: #000; }
.sheet { width: 210mm; height: 297mm; padding: 19mm 15mm 17mm;
         break-after: page; position: relative; overflow: hidden; }
.sheet:last-child { break-after: auto; }
.title { padding-top: 62mm; text-align: center; }
.title h1 { font-size: 27pt; line-height: 1.2; margin: 0 0 7mm; }
.title .subtitle { font-size: 14pt; font-style: italic; margin: 0 0 28mm; }
.title .author { font-size: 13pt; margin: 0 0 4mm; }
.title .edition { font-size: 10.5pt; color: #222; margin: 0 0 2mm; }
.colophon { display: flex; flex-direction: column; justify-content: flex-end;
            font-size: 9pt; line-height: 1.5; }
.colophon p { margin: 0 0 3mm; }
.contents { height: auto; min-height: 297mm; }
.contents h1 { font-size: 22pt; margin: 18mm 0 9mm; padding-bottom: 3mm;
               border-bottom: 1.5pt solid #000; }
.contents ol { list-style: none; margin: 0; padding: 0; }
.contents li { break-inside: avoid; }
.contents a { color: inherit; text-decoration: none; display: flex;
              align-items: baseline; gap: 2mm; padding: 0.9mm 0;
              font-size: 10.5pt; }
.contents a .leader { flex: 1; border-bottom: 0.7pt dotted #777;
                      transform: translateY(-1mm); }
.contents a .number { min-width: 9mm; text-align: right; }
.contents li.part > a { font-weight: 700; font-size: 11.5pt;
                        margin-top: 4mm; }
.contents li.chapter > a { padding-left: 6mm; }
"""


def front_matter_html(facts: dict, entries: list) -> str:
    def link(entry: Entry, css: str) -> str:
        number = entry.first_page + 1
        return (
            f'<li class="{css}"><a href="{GOTO}{entry.first_page}">'
            f"<span>{html.escape(entry.heading)}</span>"
            f'<span class="leader"></span>'
            f'<span class="number">{number}</span></a></li>'
        )

    rows = []
    for entry in entries:
        if entry.kind == "preface":
            rows.append(link(entry, "part"))
        elif entry.kind == "part":
            rows.append(link(entry, "part"))
        else:
            rows.append(link(entry, "chapter"))
    e = {k: html.escape(str(v)) for k, v in facts.items()}
    edition = f"Version {e['version']}"
    if e["commit"]:
        edition += f" (commit {e['commit']})"
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>{e["title"]}</title><style>{FRONT_CSS}</style></head><body>
<section class="sheet title">
  <h1>{e["title"]}</h1>
  <p class="subtitle">{e["subtitle"]}</p>
  <p class="author">{e["author"]}</p>
  <p class="edition">{edition}, {e["date"]}</p>
  <p class="edition">Text and code under the {e["licence"]}</p>
</section>
<section class="sheet colophon">
  <p><strong>{e["title"]}</strong>. {e["subtitle"]}</p>
  <p>{edition}, printed from the sources of {e["date"]}.
     {e["licence"]}; see the file LICENSE of the repository.</p>
  <p>Every number, table and figure in this book was computed by the code of
     its chapter, and every claim it checks is checked by code that runs in
     the book's tests. The print edition shows each check as its label and
     what it printed; the code of the checks and of the figures is in the
     chapters' notebooks and in the online edition, whose chapters run on
     Binder or Colab.</p>
  <p>Sources, notebooks and the <code>kpca</code> package:
     {e["url"]}</p>
</section>
<section class="sheet contents">
  <h1>Contents</h1>
  <ol>{"".join(rows)}</ol>
</section>
</body></html>"""


def print_front(browser, facts: dict, entries: list, out: Path) -> None:
    page = browser.new_page(color_scheme="light")
    page.set_content(front_matter_html(facts, entries), wait_until="load")
    page.emulate_media(media="print", color_scheme="light")
    zero = {"top": "0", "bottom": "0", "left": "0", "right": "0"}
    _print(page, out, zero, prefer_css_page_size=True)
    page.close()


OVERLAY_CSS = """
@page { size: A4; margin: 0; }
* { box-sizing: border-box; }
html, body { margin: 0; background: transparent; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto,
       "Helvetica Neue", Arial, sans-serif; font-size: 8.5pt; color: #333; }
.sheet { width: 210mm; height: 297mm; position: relative;
         break-after: page; }
.sheet:last-child { break-after: auto; }
.head { position: absolute; top: 9mm; left: 15mm; right: 15mm;
        display: flex; justify-content: space-between;
        border-bottom: 0.5pt solid #999; padding-bottom: 1mm; }
.foot { position: absolute; bottom: 8mm; left: 15mm; right: 15mm;
        text-align: center; }
.number { font-weight: 600; color: #000; }
"""


def overlay_html(marks: list[dict]) -> str:
    sheets = []
    for mark in marks:
        parts = []
        if mark.get("head"):
            text = html.escape(mark["head"])
            number = f'<span class="number">{mark["number"]}</span>'
            if mark["verso"]:
                parts.append(
                    f'<div class="head">{number}<span>{text}</span></div>'
                )
            else:
                parts.append(
                    f'<div class="head"><span>{text}</span>{number}</div>'
                )
        elif mark.get("foot"):
            parts.append(
                f'<div class="foot"><span class="number">'
                f"{mark['number']}</span></div>"
            )
        sheets.append(f'<div class="sheet">{"".join(parts)}</div>')
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<style>{OVERLAY_CSS}</style></head><body>{''.join(sheets)}"
        "</body></html>"
    )


def print_overlay(browser, marks: list[dict], out: Path) -> None:
    page = browser.new_page(color_scheme="light")
    page.set_content(overlay_html(marks), wait_until="load")
    page.emulate_media(media="print", color_scheme="light")
    zero = {"top": "0", "bottom": "0", "left": "0", "right": "0"}
    page.pdf(
        path=str(out),
        format=PAGE_FORMAT,
        margin=zero,
        print_background=False,
        prefer_css_page_size=True,
    )
    page.close()


# ---------------------------------------------------------------------------
# Putting the book together with pypdf


def _quiet_pypdf() -> None:
    # Chromium's cross-reference table is one entry short of its objects;
    # pypdf repairs that and says so on every run. Nothing for a reader.
    logging.getLogger("pypdf").setLevel(logging.ERROR)


def locate(entries: list, body: Path) -> tuple[list[int], int, dict]:
    """Each entry's first page in the body as printed, the page count, and
    the first page of each chapter's solutions."""
    from pypdf import PdfReader

    reader = PdfReader(str(body))
    destinations = reader.named_destinations
    pages = []
    for entry in entries:
        dest = destinations.get("/" + entry.id)
        if dest is None:
            raise SystemExit(f"{body}: no page found for {entry.id}")
        pages.append(reader.get_destination_page_number(dest))
    solutions = {}
    for entry in entries:
        dest = destinations.get(f"/{entry.id}--pdf-solutions")
        if dest is not None:
            solutions[entry.id] = reader.get_destination_page_number(dest)
    return pages, len(reader.pages), solutions


def paginate(entries: list, printed: list[int], total: int) -> list[int]:
    """Blank pages to insert (body indices, as printed) so that every part
    and chapter starts on a right-hand page, i.e. an odd page number; sets
    each entry's first and last page (0-based) once they are inserted."""
    blanks = []
    after = set()  # where the blanks are once inserted
    for entry, start in zip(entries, printed, strict=True):
        if (start + len(blanks)) % 2 == 1:  # 0-based odd: an even number
            after.add(start + len(blanks))
            blanks.append(start)
        entry.first_page = start + len(blanks)
    ends = [e.first_page for e in entries[1:]] + [total + len(blanks)]
    for entry, end in zip(entries, ends, strict=True):
        entry.last_page = end - 1
        if entry.last_page in after:  # the blank before the next entry
            entry.last_page -= 1
    return blanks


def page_marks(
    entries: list,
    front_pages: int,
    body_pages: int,
    blank_set: set,
    contents_end: int,
) -> list[dict]:
    """What each page of the final PDF carries: a running head, a page
    number at the foot, or nothing (title page, its back, part pages,
    blank pages)."""
    marks = [{} for _ in range(front_pages + body_pages)]
    for index in range(2, contents_end):  # the contents: iii, iv, ...
        marks[index] = {"foot": True, "number": roman(index + 1)}
    owner = {}
    for entry in entries:
        for page in range(entry.first_page, entry.last_page + 1):
            owner[page] = entry
    for page in range(body_pages):
        if page in blank_set:
            continue
        entry = owner.get(page)
        if entry is None or entry.kind == "part":
            continue
        number = page + 1
        if page == entry.first_page:
            mark = {"foot": True, "number": number}
        else:
            verso = number % 2 == 0
            head = (
                (entry.part or "About this book") if verso else (entry.heading)
            )
            mark = {"head": head, "number": number, "verso": verso}
        marks[front_pages + page] = mark
    return marks


def assemble(
    body: Path,
    front: Path,
    blanks: list[int],
    out: Path,
) -> tuple[int, int, set]:
    """Front matter (padded to an even count) + body with blank pages."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DictionaryObject,
        NameObject,
    )

    writer = PdfWriter(clone_from=PdfReader(str(body)))
    width = float(writer.pages[0].mediabox.width)
    height = float(writer.pages[0].mediabox.height)
    blank_set = set()
    for shift, index in enumerate(blanks):
        writer.insert_blank_page(width, height, index + shift)
        blank_set.add(index + shift)
    front_reader = PdfReader(str(front))
    front_count = printed_front = len(front_reader.pages)
    writer.merge(0, front_reader)
    if front_count % 2:
        writer.insert_blank_page(width, height, front_count)
        front_count += 1
    # The contents' links to body pages become links inside the PDF.
    for page in writer.pages[:front_count]:
        for annotation in page.get("/Annots", []) or []:
            annotation = annotation.get_object()
            action = annotation.get("/A")
            if action is None:
                continue
            uri = str(action.get_object().get("/URI", ""))
            if not uri.startswith(GOTO):
                continue
            target = writer.pages[front_count + int(uri[len(GOTO) :])]
            annotation[NameObject("/A")] = DictionaryObject(
                {
                    NameObject("/S"): NameObject("/GoTo"),
                    NameObject("/D"): ArrayObject(
                        [target.indirect_reference, NameObject("/Fit")]
                    ),
                }
            )
    with open(out, "wb") as stream:
        writer.write(stream)
    return front_count, printed_front, blank_set


def stamp(pdf: Path, overlay: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(str(pdf)))
    marks = PdfReader(str(overlay))
    if len(marks.pages) != len(writer.pages):
        raise SystemExit(
            f"{overlay}: {len(marks.pages)} pages for "
            f"{len(writer.pages)} pages of the book"
        )
    for page, mark in zip(writer.pages, marks.pages, strict=True):
        if mark.get_contents() is not None and mark.extract_text().strip():
            page.merge_page(mark)
        # Merging leaves the page's content uncompressed.
        page.compress_content_streams()
    writer.compress_identical_objects(remove_duplicates=True)
    with open(pdf, "wb") as stream:
        writer.write(stream)


def add_outline(pdf: Path, entries: list, front_count: int) -> None:
    """Bookmarks: the contents, then each part with its chapters."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(str(pdf)))
    writer.add_outline_item(title="Contents", page_number=2)
    for entry in entries:
        page = front_count + entry.first_page
        if entry.kind == "preface":
            writer.add_outline_item(title=entry.heading, page_number=page)
        elif entry.kind == "part":
            parent = writer.add_outline_item(
                title=entry.heading, page_number=page
            )
            for chapter in entry.chapters:
                writer.add_outline_item(
                    title=chapter.heading,
                    page_number=front_count + chapter.first_page,
                    parent=parent,
                )
    writer.page_mode = "/UseOutlines"
    writer.add_metadata(
        {"/Title": book_facts()["title"], "/Author": book_facts()["author"]}
    )
    with open(pdf, "wb") as stream:
        writer.write(stream)


def chapter_editions(
    pdf: Path, entries: list, front_count: int, folder: Path
) -> dict[str, str]:
    """One PDF per chapter, cut from the whole book: its pages as printed."""
    from pypdf import PdfReader, PdfWriter

    folder.mkdir(parents=True, exist_ok=True)
    reader = PdfReader(str(pdf))
    made = {}
    for entry in entries:
        if entry.kind != "chapter":
            continue
        writer = PdfWriter()
        first = front_count + entry.first_page
        last = front_count + entry.last_page
        for index in range(first, last + 1):
            writer.add_page(reader.pages[index])
        writer.add_outline_item(title=entry.heading, page_number=0)
        writer.add_metadata({"/Title": entry.heading})
        name = f"{Path(entry.doc).name}.pdf"
        with open(folder / name, "wb") as stream:
            writer.write(stream)
        made[entry.doc] = name
    return made


def build_pdf(html_dir: Path, out: Path, only: list[str] = ()) -> dict:
    from playwright.sync_api import sync_playwright

    _quiet_pypdf()
    entries = structure(html_dir)
    if only:  # a quick look at a few chapters while working on the layout
        keep = [e for e in entries if e.kind != "chapter" or e.doc in only]
        entries = [
            e
            for e in keep
            if e.kind != "part" or any(c.doc in only for c in e.chapters)
        ]
        for e in entries:
            e.chapters = [c for c in e.chapters if c.doc in only]
    missing = [
        e.doc
        for e in entries
        if e.doc and not (html_dir / f"{e.doc}.html").is_file()
    ]
    if missing:
        raise SystemExit(f"{html_dir}: pages of _toc.yml not built: {missing}")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.parent / "parts"
    work.mkdir(exist_ok=True)
    facts = book_facts()
    timings = {}
    with book.serve(html_dir) as origin, sync_playwright() as pw:
        browser = book.launch(pw)
        started = time.perf_counter()
        found = print_body(browser, origin, entries, work / "body.pdf")
        timings["body"] = time.perf_counter() - started
        printed, total, solutions = locate(entries, work / "body.pdf")
        blanks = paginate(entries, printed, total)
        # Where each chapter's solutions start, once the blanks are in.
        solutions_at = {
            key: page + sum(1 for b in blanks if b <= page)
            for key, page in solutions.items()
        }
        started = time.perf_counter()
        print_front(browser, facts, entries, work / "front.pdf")
        front_count, printed_front, blank_set = assemble(
            work / "body.pdf", work / "front.pdf", blanks, out
        )
        body_pages = total + len(blanks)
        marks = page_marks(
            entries, front_count, body_pages, blank_set, printed_front
        )
        print_overlay(browser, marks, work / "overlay.pdf")
        browser.close()
    stamp(out, work / "overlay.pdf")
    add_outline(out, entries, front_count)
    chapters = chapter_editions(
        out, entries, front_count, out.parent / CHAPTER_PDF_DIR
    )
    timings["assembly"] = time.perf_counter() - started
    report = {
        "facts": facts,
        "front_pages": front_count,
        "pages": front_count + body_pages,
        "blank_pages": sorted(front_count + b for b in blank_set),
        "entries": [
            {
                "kind": e.kind,
                "doc": e.doc,
                "heading": e.heading,
                "part": e.part,
                "first_page": front_count + e.first_page,
                "last_page": front_count + e.last_page,
                "page_number": e.first_page + 1,
            }
            for e in entries
        ],
        "chapter_pdfs": chapters,
        "solutions_pages": sorted(
            front_count + page for page in solutions_at.values()
        ),
        "equation_numbers": {
            "total": found["eqnoTotal"],
            "beside": found["eqnoBeside"],
            "apart": found["eqnoApart"],
        },
        "caption_colours": sorted(set(found["captionColours"])),
        "images": found["images"],
        "formulas": found["maths"],
        "seconds": {k: round(v, 1) for k, v in timings.items()},
    }
    (out.parent / REPORT_NAME).write_text(json.dumps(report, indent=1))
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "_build" / "pdf" / PDF_NAME
    )
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated pages of _toc.yml to print (a quick look)",
    )
    args = parser.parse_args()
    start = time.perf_counter()
    only = [d for d in args.only.split(",") if d]
    report = build_pdf(args.html, args.out, only)
    print(
        f"{args.out}: {report['pages']} pages "
        f"({report['front_pages']} front matter), "
        f"{args.out.stat().st_size / 2**20:.1f} MiB, "
        f"{len(report['chapter_pdfs'])} chapter PDFs, in "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
