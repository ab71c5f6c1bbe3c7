"""Turn the chapters' hand-written claims tables into ``claims-table``.

Each chapter ends with a markdown cell "What the notes claim, and where it is
checked" holding Markdown tables

    | Claim | What the notes say (one line) | Where it is checked |
    | Id | The notes write | Correct | Where |

whose middle columns repeat the claims inventory. This script replaces each
such table by a directive that keeps only the chapter's own column,

    :::{claims-table}
    S000-39: {eq}`eq-ch08-proj-one`; {ref}`the check <ch08-iitm-check>`
    :::

(``errata-table`` for the errors tables); the statements come from
``reference/*.yaml`` when the book is built (``_ext/claims.py``). A first cell
listing several ids (``S003-20, S003-21``, ``P8, G02``) or a range
(``N01–N04``) becomes one line per id with the same "where".

Only those table lines change: every other line of the cell, every other cell
and the notebook's JSON layout (nbformat: indent 1, sorted keys, UTF-8) stay
byte-identical. Running the script again changes nothing.

    python tools/convert_claims_tables.py [--check] [NOTEBOOK ...]

``--check`` reports the notebooks that still hold an old table and exits 1.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CLAIMS_HEADER = (
    "Claim",
    "What the notes say (one line)",
    "Where it is checked",
)
ERRATA_HEADER = ("Id", "The notes write", "Correct", "Where")
ID = r"(?:S00[0-4]-\d\d|[EGNP]\d\d?)"
RANGE = re.compile(r"^(?P<a>[A-Z]+)(?P<i>\d+)\s*[–-]\s*(?P=a)(?P<j>\d+)$")
#: Remarks after an id in the first column, and what they become in "where".
ANNOTATIONS = {"(cont.)": "Continued: ", "(centring)": ""}


def cells_of(line: str) -> list[str]:
    """The cells of a Markdown table row (no escaped pipes in these tables)."""
    inner = line.strip()
    if not (inner.startswith("|") and inner.endswith("|")):
        raise ValueError(f"not a table row: {line!r}")
    return [c.strip() for c in inner[1:-1].split("|")]


def expand_ids(first: str) -> tuple[list[str], str]:
    """Ids of a first cell, and the prefix its annotation adds to "where"."""
    prefix = ""
    for note, replacement in ANNOTATIONS.items():
        if first.endswith(note):
            first, prefix = first[: -len(note)].strip(), replacement
    ids = []
    for part in (p.strip() for p in first.split(",")):
        match = RANGE.match(part)
        if match:
            width = len(match.group("i"))
            for k in range(int(match.group("i")), int(match.group("j")) + 1):
                ids.append(f"{match.group('a')}{k:0{width}d}")
        elif re.fullmatch(ID, part):
            ids.append(part)
        else:
            raise ValueError(f"cannot read the id cell {first!r}")
    return ids, prefix


def convert_text(text: str) -> str:
    """Replace every old claims or errata table in one markdown text."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        header = None
        if line.lstrip().startswith("|"):
            try:
                header = tuple(cells_of(line))
            except ValueError:
                header = None
        if header not in (CLAIMS_HEADER, ERRATA_HEADER):
            out.append(line)
            i += 1
            continue
        name = "claims-table" if header == CLAIMS_HEADER else "errata-table"
        indent = line[: len(line) - len(line.lstrip())]
        i += 2  # header and |---| separator
        body = []
        while i < len(lines) and lines[i].lstrip().startswith("|"):
            cells = cells_of(lines[i])
            if len(cells) != len(header):
                raise ValueError(
                    f"row with {len(cells)} cells, expected {len(header)}: "
                    f"{lines[i]!r}"
                )
            ids, prefix = expand_ids(cells[0])
            for eid in ids:
                body.append(f"{indent}{eid}: {prefix}{cells[-1]}")
            i += 1
        if out and out[-1].strip():
            # A directive's body may start with ":option:" lines, so a
            # directive opened right below another's first line (the
            # dropdown) needs a blank line to be read as content.
            out.append(indent.rstrip())
        out += [f"{indent}:::{{{name}}}", *body, f"{indent}:::"]
    return "\n".join(out)


def source_lines(text: str) -> list[str]:
    """A cell's text as nbformat stores it: lines that keep their newline."""
    return text.splitlines(keepends=True)


def convert_notebook(path: Path) -> bool:
    """Rewrite the claims cell of one notebook; return True if it changed."""
    raw = path.read_text(encoding="utf-8")
    notebook = json.loads(raw)
    changed = False
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        if "What the notes claim" not in text:
            continue
        new = convert_text(text)
        if new != text:
            cell["source"] = source_lines(new)
            changed = True
    if changed:
        out = json.dumps(
            notebook, indent=1, sort_keys=True, ensure_ascii=False
        )
        path.write_text(out + "\n", encoding="utf-8")
    return changed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument(
        "--check",
        action="store_true",
        help="only report notebooks that still hold an old table",
    )
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "chapters").glob("*.ipynb"))
    todo = []
    for path in paths:
        if args.check:
            text = "".join(
                "".join(c["source"])
                for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
                if c["cell_type"] == "markdown"
            )
            if convert_text(text) != text:
                todo.append(path)
        elif convert_notebook(path):
            todo.append(path)
    verb = "still hold old tables" if args.check else "converted"
    for path in todo:
        print(f"{verb}: {path}")
    return 1 if (args.check and todo) else 0


if __name__ == "__main__":
    sys.exit(main())
