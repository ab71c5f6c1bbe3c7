"""Print what a reader meets in a built book: overflow and accessibility.

    .venv/bin/python -m tools.measure [BUILD_DIR] [--no-axe] [--list]

For every page of BUILD_DIR (default ``_build/html``), opened in Chromium at
1280 px and at 390 px (a phone):

* display equations: how many fit, scroll inside their own box, are clipped
  (cut by a box with overflow hidden, no way to see the rest) or stick out of
  the page; the same for tables;
* equation numbers drawn over the visible part of their formula;
* whether the page itself scrolls sideways (document wider than the window);
* axe-core's critical and serious violations in the light and the dark theme
  (at 1280 px).

The numbers in the closing note of the book's layout work come from this
script, run on the build before and after the change. It asserts nothing; the
tests in ``tests/book/browser/test_rendered_book.py`` do.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from tools import book


def measure(build: Path, with_axe: bool = True) -> dict:
    from playwright.sync_api import sync_playwright

    pages = [p for p in book.book_pages(build) if not _redirect(build / p)]
    rows: dict[str, dict] = {}
    with book.serve(build) as origin, sync_playwright() as pw:
        browser = book.launch(pw)
        setups = [("desktop", "light"), ("phone", "light")]
        if with_axe:
            setups.append(("desktop", "dark"))
        for viewport, theme in setups:
            context = book.new_context(browser, viewport, theme)
            tab = context.new_page()
            for page in pages:
                t0 = time.perf_counter()
                tab.goto(f"{origin}/{page}", wait_until="load")
                tab.evaluate(book.WAIT_FOR_PAGE)
                row = rows.setdefault(page, {})
                if theme == "light":
                    row[viewport] = tab.evaluate(book.LAYOUT)
                if with_axe and viewport == "desktop":
                    row[f"axe-{theme}"] = book.run_axe(tab)
                print(
                    f"  {viewport} {theme} {page}: "
                    f"{time.perf_counter() - t0:.1f} s",
                    file=sys.stderr,
                )
            context.close()
        browser.close()
    return rows


def _redirect(path: Path) -> bool:
    return 'http-equiv="refresh"' in path.read_text(encoding="utf-8").lower()


def list_scrolling(rows: dict) -> None:
    """Which equations and tables are wider than their box (they scroll)."""
    for viewport in ("desktop", "phone"):
        print(f"\nwider than their box at {viewport}:")
        for page, row in rows.items():
            for kind in ("equations", "tables"):
                for item in row[viewport][kind]:
                    if item["where"] != "fits":
                        print(f"  {item['where']:8s} {page}: {item['what']}")


# A report script: one table and its totals, printed in one pass.
def report(rows: dict, with_axe: bool) -> None:  # noqa: C901
    totals: dict[str, Counter] = {}
    overflowing = []
    print(
        f"{'page':44s} {'eq@1280':>8s} {'eq@390':>8s} "
        f"{'tab@1280':>8s} {'tab@390':>8s} {'side@390':>8s}"
        + (f" {'axe light':>10s} {'axe dark':>9s}" if with_axe else "")
    )
    for page, row in rows.items():
        cells = []
        for viewport, kind in (
            ("desktop", "equations"),
            ("phone", "equations"),
            ("desktop", "tables"),
            ("phone", "tables"),
        ):
            count = Counter(item["where"] for item in row[viewport][kind])
            totals.setdefault(f"{kind}@{viewport}", Counter()).update(count)
            bad = count["clipped"] + count["page"]
            cells.append(f"{bad}/{sum(count.values())}")
        for viewport in ("desktop", "phone"):
            n = len(row[viewport]["eqnoOverlaps"])
            totals.setdefault(f"eqno@{viewport}", Counter())["over"] += n
        side = row["phone"]["pageOverflow"]
        if side > 1:
            overflowing.append((page, side, row["phone"]["offenders"]))
        line = (
            f"{page:44s} {cells[0]:>8s} {cells[1]:>8s} {cells[2]:>8s} "
            f"{cells[3]:>8s} {side:>8.0f}"
        )
        if with_axe:
            for theme in ("light", "dark"):
                violations = row[f"axe-{theme}"]
                totals.setdefault(f"axe-{theme}", Counter()).update(
                    {v["impact"]: v["count"] for v in violations}
                )
                n = sum(v["count"] for v in violations)
                line += f" {n:>9d} " if theme == "light" else f" {n:>8d}"
        print(line)
    print()
    print("Cells 'bad/all': clipped or sticking out of the page / all.")
    for key in (
        "equations@desktop",
        "equations@phone",
        "tables@desktop",
        "tables@phone",
    ):
        c = totals.get(key, Counter())
        print(
            f"{key:20s} all {sum(c.values()):4d}  fit {c['fits']:4d}  "
            f"scroll {c['scrolls']:4d}  clipped {c['clipped']:4d}  "
            f"out of page {c['page']:4d}"
        )
    for viewport in ("desktop", "phone"):
        print(
            f"equation numbers over their formula at {viewport}: "
            f"{totals[f'eqno@{viewport}']['over']}"
        )
    print(f"pages that scroll sideways at 390 px: {len(overflowing)}")
    for page, side, offenders in overflowing:
        print(f"  {page}: {side:.0f} px; {offenders[:3]}")
    if with_axe:
        for theme in ("light", "dark"):
            c = totals[f"axe-{theme}"]
            print(
                f"axe {theme}: critical {c['critical']}, "
                f"serious {c['serious']}"
                " (offending nodes)"
            )
        rules: Counter[tuple[str, str, str]] = Counter()
        for row in rows.values():
            for theme in ("light", "dark"):
                for v in row[f"axe-{theme}"]:
                    rules[(theme, v["id"], v["impact"])] += v["count"]
        for (theme, rule, impact), n in sorted(rules.items()):
            print(f"  {theme:5s} {rule:28s} {impact:8s} {n}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", type=Path, default=book.BUILD)
    parser.add_argument("--no-axe", action="store_true")
    parser.add_argument(
        "--list",
        action="store_true",
        help="also list every equation and table wider than its box",
    )
    args = parser.parse_args()
    start = time.perf_counter()
    rows = measure(args.build, with_axe=not args.no_axe)
    report(rows, with_axe=not args.no_axe)
    if args.list:
        list_scrolling(rows)
    print(f"({len(rows)} pages in {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
