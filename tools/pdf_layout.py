"""Measure the printed pages of a PDF the way a reader sees them.

    .venv/bin/python tools/pdf_layout.py _build/pdf/kpca-book.pdf

Renders every page to a small grey image (poppler's ``pdftoppm``) and finds
what a text extractor cannot see:

* an *empty box at the foot*: a shaded block (a code cell's background) at
  the bottom of the text area with no ink in it, its content having moved to
  the next page;
* a *half-empty page*: white below the last ink of the text area for more
  than a given share of its height (a figure that did not fit went on).

The print edition's tests (``tests/browser/test_book_pdf.py``) use these
functions; run as a script it prints the pages that have either.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: The text area of the print edition's pages (tools/build_pdf.py MARGIN).
PAGE_MM = (210.0, 297.0)
TOP_MM, BOTTOM_MM = 19.0, 17.0
#: Grey levels: paper is white; a shaded box (a code cell) is light grey;
#: ink is dark.
PAPER = 250
SHADE = (228, 250)
INK = 200


@dataclass
class PageLayout:
    page: int  # 1-based
    empty_box_mm: float  # height of an inkless shaded block at the foot
    white_share: float  # white below the last ink, share of the text area


def render(pdf: Path, dpi: int = 36) -> list[np.ndarray]:
    """Every page as a 2-D array of grey levels (0 black, 255 white)."""
    from PIL import Image

    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            ["pdftoppm", "-r", str(dpi), "-gray", "-png", str(pdf),
             f"{folder}/p"],
            check=True,
        )  # fmt: skip
        files = sorted(
            Path(folder).glob("p-*.png"), key=lambda p: int(p.stem[2:])
        )
        return [np.asarray(Image.open(f).convert("L")) for f in files]


def measure(image: np.ndarray, page: int) -> PageLayout:
    height = image.shape[0]
    px_per_mm = height / PAGE_MM[1]
    top = int(TOP_MM * px_per_mm)
    bottom = height - int(BOTTOM_MM * px_per_mm)
    # Leave out the outermost columns (the page edge, a margin note).
    area = image[top:bottom, int(0.04 * image.shape[1]) : -1]
    paper_rows = np.all(area >= PAPER, axis=1)
    ink_rows = np.any(area < INK, axis=1)
    if not ink_rows.any():
        return PageLayout(page, 0.0, 1.0)
    last_mark = int(np.nonzero(~paper_rows)[0].max())
    last_ink = int(np.nonzero(ink_rows)[0].max())
    # Below the last ink: rows filled, across most of the text width, with
    # the light grey of a shaded box. Lines and borders are a row or two.
    below = area[last_ink + 1 :]
    filled = np.mean((below >= SHADE[0]) & (below < SHADE[1]), axis=1) > 0.6
    shaded = int(filled.sum())
    white = (area.shape[0] - 1 - last_mark) / area.shape[0]
    return PageLayout(page, shaded / px_per_mm, white)


def layout(pdf: Path, dpi: int = 36) -> list[PageLayout]:
    return [
        measure(image, number)
        for number, image in enumerate(render(pdf, dpi), start=1)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", type=Path)
    parser.add_argument("--box-mm", type=float, default=9.0)
    parser.add_argument("--white", type=float, default=0.4)
    args = parser.parse_args()
    pages = layout(args.pdf)
    boxes = [p for p in pages if p.empty_box_mm > args.box_mm]
    white = [p for p in pages if p.white_share > args.white]
    print(f"{len(pages)} pages")
    print(f"empty box at the foot (> {args.box_mm} mm): {len(boxes)}")
    for p in boxes:
        print(f"  page {p.page}: {p.empty_box_mm:.1f} mm")
    print(f"more than {args.white:.0%} white below the last ink: {len(white)}")
    for p in white:
        print(f"  page {p.page}: {p.white_share:.0%}")


if __name__ == "__main__":
    main()
