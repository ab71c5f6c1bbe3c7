"""Print the whole book to one PDF with Chromium, offline.

    .venv/bin/python -m tools.build_pdf [--html _build/html] [--out FILE]

``make pdf`` runs this after the HTML build. It serves ``_build/html`` on
127.0.0.1, opens the root page in Debian's Chromium (Playwright), and puts the
article of every page of ``_toc.yml``, in order, into that one page:

* ids are prefixed per page and links between pages become links inside the
  PDF; links to files that are not pages (sources, indexes) become plain text;
* hidden code, solutions and dropdowns are unfolded (``_static/print.js``);
* MathJax typesets everything, then display equations wider than the paper
  are shrunk to fit (``kpcaPrint.prepare``);
* each chapter starts on a new page, with the book's numbering (chapters,
  figures, equations, theorems) as built.

Chromium prints it to A4 with page numbers and a PDF outline (bookmarks) made
from the headings. ``tests/book/browser/test_book_pdf.py`` checks the result.
"""

from __future__ import annotations

import argparse
import logging
import re
import time
from pathlib import Path

import yaml

from tools import book  # the local server and Chromium, as the tests use

ROOT = Path(__file__).resolve().parents[1]

#: Name of the PDF; _ext/book_download.py links to it at the HTML root.
PDF_NAME = "kpca-book.pdf"
#: A4 with 15 mm side margins leaves 180 mm = 680 CSS px of text width.
PAGE_FORMAT = "A4"
MARGIN = {"top": "16mm", "bottom": "16mm", "left": "15mm", "right": "15mm"}
TEXT_WIDTH_PX = 680
TIMEOUT_MS = 300_000


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


ASSEMBLE = (ROOT / "tools" / "assemble_book.js").read_text(encoding="utf-8")

FOOTER = (
    '<div style="font-size: 8pt; width: 100%; text-align: center; '
    'color: #444;"><span class="pageNumber"></span> / '
    '<span class="totalPages"></span></div>'
)


def build_pdf(html: Path, out: Path) -> dict:
    from playwright.sync_api import sync_playwright

    pages = toc_pages()
    missing = [p for p in pages if not (html / f"{p}.html").is_file()]
    if missing:
        raise SystemExit(f"{html}: pages of _toc.yml not built: {missing}")
    out.parent.mkdir(parents=True, exist_ok=True)
    with book.serve(html) as origin, sync_playwright() as pw:
        browser = book.launch(pw)
        page = browser.new_page(
            viewport={"width": TEXT_WIDTH_PX, "height": 1000},
            color_scheme="light",
            reduced_motion="reduce",
        )
        page.set_default_timeout(TIMEOUT_MS)
        page.emulate_media(media="print", color_scheme="light")
        page.goto(f"{origin}/{pages[0]}.html", wait_until="load")
        page.evaluate(book.WAIT_FOR_PAGE)
        found = page.evaluate(
            ASSEMBLE, {"pages": pages, "textWidth": TEXT_WIDTH_PX}
        )
        assembled = time.perf_counter()
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
        page.pdf(
            path=str(out),
            format=PAGE_FORMAT,
            margin=MARGIN,
            print_background=True,
            display_header_footer=True,
            header_template="<span></span>",
            footer_template=FOOTER,
        )
        found["printSeconds"] = time.perf_counter() - assembled
        browser.close()
    add_outline(out, found["titles"])
    return found


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


def _slug(doc: str) -> str:
    # The same ids as ASSEMBLE's slug().
    return "pdf-" + re.sub(r"[^A-Za-z0-9]+", "-", doc)


def add_outline(pdf: Path, titles: list[dict]) -> None:
    """Bookmarks: the root page, then each part with its chapters.

    Chromium writes a named destination for every element a link points at;
    each chapter's section is one (the contents list links to it), so its
    page is known without reading the text.
    """
    from pypdf import PdfReader, PdfWriter

    # Chromium's cross-reference table is one entry short of its objects;
    # pypdf repairs that and says so on every run. Nothing for a reader.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    title_of = {t["id"]: t["title"] for t in titles}
    reader = PdfReader(str(pdf))
    destinations = reader.named_destinations

    def page_of(doc: str) -> int | None:
        dest = destinations.get("/" + _slug(doc))
        return (
            None if dest is None else reader.get_destination_page_number(dest)
        )

    writer = PdfWriter(clone_from=reader)
    writer.add_outline_item(
        title=title_of.get(_slug(toc_pages()[0]), "Contents"), page_number=0
    )
    for caption, docs in toc_parts():
        pages = [(doc, page_of(doc)) for doc in docs]
        first = next((p for _, p in pages if p is not None), None)
        if first is None:
            raise SystemExit(f"{pdf}: no page found for the part {caption!r}")
        parent = writer.add_outline_item(title=caption, page_number=first)
        for doc, page in pages:
            if page is None:
                raise SystemExit(f"{pdf}: no page found for {doc}")
            writer.add_outline_item(
                title=title_of[_slug(doc)], page_number=page, parent=parent
            )
    writer.page_mode = "/UseOutlines"
    with open(pdf, "wb") as stream:
        writer.write(stream)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "_build" / "pdf" / PDF_NAME
    )
    args = parser.parse_args()
    start = time.perf_counter()
    found = build_pdf(args.html, args.out)
    print(
        f"{args.out}: {found['chapters']} pages of the book, "
        f"{found['images']} images, {found['maths']} formulas, "
        f"{args.out.stat().st_size / 2**20:.1f} MiB in "
        f"{time.perf_counter() - start:.0f} s (MathJax "
        f"{found['typesetSeconds']:.0f} s, "
        f"printing {found['printSeconds']:.0f} s)"
    )


if __name__ == "__main__":
    main()
