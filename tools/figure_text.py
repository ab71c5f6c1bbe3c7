"""Print how large each figure's smallest text appears on a phone.

    .venv/bin/python tools/figure_text.py chapters/08_kernel_pca.ipynb [...]

Reads the PNG outputs stored in the notebooks.  A figure drawn under the
book's style (``kpca.book.plotting.use_book_style``) records the size of its
smallest text in the PNG's pixels; on a phone the figure is shrunk to the
width of the text column, so that text appears at

    smallest text px * min(natural width, column width) / PNG width

CSS px, where the natural width is the PNG's width over 2 (the book saves
"retina" PNGs at twice the pixels).  The book's target is at least 9 CSS px.
The browser tests measure the same quantity on the built pages.
"""

from __future__ import annotations

import base64
import io
import json
import sys
from pathlib import Path

#: Width of the text column of a page at a 390 px wide phone, in CSS px.
PHONE_COLUMN_PX = 358
TARGET_PX = 9.0
KEY = "kpca-book smallest text px"


def figures(path: Path):
    """Yield ``(cell index, figure name, png width, smallest text px)``."""
    from PIL import Image

    notebook = json.loads(path.read_text())
    for index, cell in enumerate(notebook["cells"]):
        name = (
            cell.get("metadata", {})
            .get("mystnb", {})
            .get("figure", {})
            .get("name", "")
        )
        for output in cell.get("outputs", []):
            data = output.get("data", {}).get("image/png")
            if data is None:
                continue
            image = Image.open(io.BytesIO(base64.b64decode(data)))
            text = image.text.get(KEY)  # type: ignore[attr-defined]
            yield index, name, image.width, float(text) if text else None


def phone_px(png_width: int, smallest: float) -> float:
    shown = min(png_width / 2, PHONE_COLUMN_PX)
    return smallest * shown / png_width


def main(paths: list[str]) -> int:
    worst = 0
    for path in map(Path, paths):
        for index, name, width, smallest in figures(path):
            if smallest is None:
                print(f"{path.name} cell {index} {name}: no text size stored")
                worst += 1
                continue
            px = phone_px(width, smallest)
            flag = "" if px >= TARGET_PX else "   < 9 px"
            print(
                f"{path.name} cell {index} {name}: {width / 2:.0f} CSS px "
                f"wide, smallest text {px:.1f} px on a phone{flag}"
            )
            worst += px < TARGET_PX
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
