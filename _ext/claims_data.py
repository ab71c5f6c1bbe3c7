"""The inventory of the notes' claims, errors and gaps, as the book's own data.

Pure Python (PyYAML only), so that the Sphinx extension ``claims`` and the
tests share one reader:

* :func:`load` reads and validates ``reference/*.yaml`` (schema in
  ``reference/README.md``) and returns an :class:`Inventory`;
* :func:`scan_tables` finds the ``claims-table`` and ``errata-table``
  directives in the chapters' sources and returns their rows: which chapter
  lists which id, and where it is checked there.

Nothing here knows about docutils; errors are :class:`InventoryError` with a
message that names the file and the entry.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import yaml

#: The folder of the data, relative to the root of the book.
DATA_DIR = "reference"
DATA_FILES = ("notes.yaml", "claims.yaml", "errata.yaml", "notation.yaml")

NOTE_IDS = ("000", "001", "002", "003", "004")
KINDS = {
    "def": "definition",
    "thm": "theorem",
    "ex": "example",
    "alg": "algorithm",
    "fig": "figure",
    "qa": "exercise",
    "rem": "remark",
}

CLAIM_ID = re.compile(r"S(00[0-4])-(\d\d)")
ERROR_ID = re.compile(r"E(\d\d)")
GAP_ID = re.compile(r"G(\d\d)")
ROW_ID = re.compile(r"N(\d\d)")
SCALING_ID = re.compile(r"P([1-9])")
LABEL = re.compile(r"[a-z0-9][a-z0-9-]*")

#: Any inventory id as written in the book's prose: a claim S000-01, an error
#: E01, a gap G01, a notation row N01 or a scaling statement P1 (also P4a and
#: P4(a), which name a part of P4). Not preceded or followed by a letter,
#: digit, hyphen or underscore, so "PC1", "E2E", "N10x" and "S000-01a" do not
#: match.
PROSE_ID = re.compile(
    r"(?<![\w-])"
    r"(?:(?P<id>S00[0-4]-\d\d|[EGN]\d\d)|(?P<pid>P[1-9])(?:[a-c]|\([a-c]\))?)"
    r"(?![\w-])"
)


def prose_id(match: re.Match) -> str:
    """The inventory id of a :data:`PROSE_ID` match (P4 for "P4(a)")."""
    return match.group("id") or match.group("pid")


class InventoryError(ValueError):
    """The data in ``reference/`` break the schema."""


@dataclasses.dataclass
class Entry:
    """One id of the inventory with what the book shows for it."""

    id: str
    kind: str  # "claim", "error", "gap", "row" or "scaling"
    notes: tuple[str, ...]
    data: dict

    @property
    def label(self) -> str:
        """The Sphinx label of the entry on its reference page."""
        prefix = {
            "claim": "claim",
            "error": "erratum",
            "gap": "gap",
            "row": "notation",
            "scaling": "scaling",
        }[self.kind]
        return f"{prefix}-{self.id.lower()}"

    @property
    def page(self) -> str:
        """The docname of the reference page that holds the entry."""
        return {
            "claim": "chapters/appendix_claims",
            "error": "chapters/appendix_errata",
            "gap": "chapters/appendix_errata",
            "row": "chapters/appendix_notation_index",
            "scaling": "chapters/appendix_notation_index",
        }[self.kind]

    @property
    def pending(self) -> dict | None:
        return self.data.get("pending")


@dataclasses.dataclass
class Inventory:
    root: Path
    notes: dict[str, dict]
    entries: dict[str, Entry]  # every id: S, E, G, N and P
    symbols: list[dict]

    def of_kind(self, kind: str) -> list[Entry]:
        return [e for e in self.entries.values() if e.kind == kind]

    @property
    def claims(self) -> list[Entry]:
        return self.of_kind("claim")

    @property
    def errata(self) -> list[Entry]:
        return self.of_kind("error") + self.of_kind("gap")

    @property
    def pending(self) -> dict[str, Entry]:
        """Errata whose check a chapter still has to supply, by label."""
        return {e.pending["label"]: e for e in self.errata if e.pending}

    def files(self) -> list[Path]:
        return [self.root / DATA_DIR / name for name in DATA_FILES]


# --------------------------------------------------------------------------
# Loading and validation
# --------------------------------------------------------------------------


def _read(path: Path) -> dict:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InventoryError(f"{path}: missing") from None
    except yaml.YAMLError as error:
        raise InventoryError(f"{path}: not valid YAML: {error}") from None
    if not isinstance(data, dict):
        raise InventoryError(f"{path}: expected a mapping at the top")
    return data


def _text(value, where: str, field: str, problems: list[str]) -> str:
    if not isinstance(value, str) or not value.strip():
        problems.append(f"{where}: '{field}' must be a non-empty string")
        return ""
    return " ".join(value.split())


def _check_sequence(ids: list[str], pattern, name, expected_count, problems):
    """Ids must be unique and numbered 1..n without holes."""
    numbers = []
    for i in ids:
        match = pattern.fullmatch(i)
        if not match:
            problems.append(f"{name}: malformed id {i!r}")
            continue
        numbers.append(int(match.groups()[-1]))
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        problems.append(f"{name}: ids must run from 1 without holes: {ids}")
    if expected_count is not None and len(ids) != expected_count:
        problems.append(
            f"{name}: {len(ids)} ids where {expected_count} were expected"
        )


# A hand-written schema check, one branch per rule; R7.8 proposes a JSON
# schema (jsonschema) instead, which removes the branches.
def load(root: str | Path) -> Inventory:  # noqa: C901
    """Read and validate ``<root>/reference/*.yaml``."""
    root = Path(root)
    folder = root / DATA_DIR
    problems: list[str] = []

    notes_raw = _read(folder / "notes.yaml").get("notes") or []
    notes = {}
    for note in notes_raw:
        nid = str(note.get("id"))
        if nid not in NOTE_IDS:
            problems.append(f"notes.yaml: unknown note id {nid!r}")
            continue
        for field in ("short", "title", "cite", "places"):
            note[field] = _text(
                note.get(field), f"notes.yaml {nid}", field, problems
            )
        notes[nid] = note
    if tuple(notes) != NOTE_IDS:
        problems.append(f"notes.yaml: expected the notes {NOTE_IDS}")

    entries: dict[str, Entry] = {}

    def add(entry: Entry, where: str) -> None:
        if entry.id in entries:
            problems.append(f"{where}: duplicate id {entry.id}")
        entries[entry.id] = entry

    # Claims
    claims = _read(folder / "claims.yaml").get("claims") or []
    for claim in claims:
        cid = str(claim.get("id"))
        where = f"claims.yaml {cid}"
        match = CLAIM_ID.fullmatch(cid)
        if not match:
            problems.append(f"claims.yaml: malformed claim id {cid!r}")
            continue
        kind = str(claim.get("kind", ""))
        if not kind or any(k not in KINDS for k in kind.split("/")):
            problems.append(f"{where}: kind {kind!r} is not one of {KINDS}")
        claim["section"] = _text(
            claim.get("section"), where, "section", problems
        )
        claim["statement"] = _text(
            claim.get("statement"), where, "statement", problems
        )
        claim["see"] = list(claim.get("see") or [])
        add(Entry(cid, "claim", (match.group(1),), claim), where)
    for note in NOTE_IDS:
        _check_sequence(
            [e.id for e in entries.values() if e.id.startswith(f"S{note}-")],
            CLAIM_ID,
            f"claims.yaml, note {note}",
            None,
            problems,
        )

    # Errors and gaps
    errata = _read(folder / "errata.yaml")
    for key, kind, pattern, count in (
        ("errors", "error", ERROR_ID, 42),
        ("gaps", "gap", GAP_ID, 23),
    ):
        items = errata.get(key) or []
        for item in items:
            eid = str(item.get("id"))
            where = f"errata.yaml {eid}"
            if not pattern.fullmatch(eid):
                problems.append(f"errata.yaml {key}: malformed id {eid!r}")
                continue
            item_notes = tuple(str(n) for n in item.get("notes") or ())
            if not item_notes or any(n not in NOTE_IDS for n in item_notes):
                problems.append(f"{where}: notes must be among {NOTE_IDS}")
            for field in ("place", "summary", "says", "correct"):
                item[field] = _text(item.get(field), where, field, problems)
            if "checked" in item:
                item["checked"] = _text(
                    item["checked"], where, "checked", problems
                )
            pending = item.get("pending")
            if pending is not None:
                if not isinstance(pending, dict) or not LABEL.fullmatch(
                    str(pending.get("label", ""))
                ):
                    problems.append(f"{where}: pending needs a label")
                else:
                    for field in ("doc", "needs"):
                        pending[field] = _text(
                            pending.get(field),
                            where,
                            f"pending.{field}",
                            problems,
                        )
            add(Entry(eid, kind, item_notes, item), where)
        _check_sequence(
            [i.get("id") for i in items],
            pattern,
            f"errata.yaml {key}",
            count,
            problems,
        )

    # Notation rows and scaling statements
    notation = _read(folder / "notation.yaml")
    symbols = notation.get("symbols") or []
    for n, symbol in enumerate(symbols, start=1):
        where = f"notation.yaml symbol {n} ({symbol.get('symbol')!r})"
        for field in ("symbol", "meaning", "chapter"):
            symbol[field] = _text(symbol.get(field), where, field, problems)
        if "where" in symbol:
            symbol["where"] = _text(symbol["where"], where, "where", problems)
        symbol_notes = {
            str(k): v for k, v in (symbol.get("notes") or {}).items()
        }
        for k, v in symbol_notes.items():
            if k not in NOTE_IDS:
                problems.append(f"{where}: unknown note {k!r}")
            symbol_notes[k] = _text(v, where, f"notes.{k}", problems)
        symbol["notes"] = symbol_notes
        row = symbol.get("row")
        if row is not None:
            if not ROW_ID.fullmatch(str(row)):
                problems.append(f"{where}: malformed row {row!r}")
                continue
            add(Entry(str(row), "row", tuple(symbol_notes), symbol), where)
    _check_sequence(
        [s["row"] for s in symbols if s.get("row")],
        ROW_ID,
        "notation.yaml rows",
        20,
        problems,
    )
    scaling = notation.get("scaling") or []
    for item in scaling:
        pid = str(item.get("id"))
        where = f"notation.yaml {pid}"
        for field in ("title", "statement", "section"):
            item[field] = _text(item.get(field), where, field, problems)
        add(Entry(pid, "scaling", NOTE_IDS, item), where)
    _check_sequence(
        [str(i.get("id")) for i in scaling],
        SCALING_ID,
        "notation.yaml scaling",
        9,
        problems,
    )

    # Cross references inside the data
    for entry in entries.values():
        for other in entry.data.get("see", []):
            if other not in entries:
                problems.append(
                    f"{entry.id}: 'see' names {other!r}, not in the inventory"
                )

    if problems:
        raise InventoryError(
            "the data in reference/ are not valid:\n  " + "\n  ".join(problems)
        )
    return Inventory(root, notes, entries, symbols)


# --------------------------------------------------------------------------
# The chapters' tables
# --------------------------------------------------------------------------

TABLE_DIRECTIVES = ("claims-table", "errata-table")
_OPEN = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>:{3,}|`{3,})"
    r"\{(?P<name>" + "|".join(TABLE_DIRECTIVES) + r")\}[ \t]*$"
)
#: One row of a table directive: ``S000-39: where it is checked (MyST)``.
ROW = re.compile(r"^(?P<id>[A-Z][0-9A-Za-z-]*)[ \t]*:[ \t]+(?P<where>\S.*)$")


@dataclasses.dataclass(frozen=True)
class TableRow:
    docname: str  # e.g. "chapters/08_kernel_pca"
    directive: str  # "claims-table" or "errata-table"
    id: str
    where: str  # MyST
    line: int  # 1-based line inside the markdown (cell) text


def directive_blocks(text: str):
    """Yield ``(name, first_body_line, body_lines)`` for each table directive.

    ``first_body_line`` is 1-based. A block ends at a line holding only the
    same fence character, at least as many times as the opening fence.
    """
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _OPEN.match(lines[i])
        if not match:
            i += 1
            continue
        fence = match.group("fence")
        close = re.compile(
            r"^[ \t]*"
            + re.escape(fence[0])
            + "{"
            + str(len(fence))
            + r",}[ \t]*$"
        )
        body, j = [], i + 1
        while j < len(lines) and not close.match(lines[j]):
            body.append(lines[j])
            j += 1
        yield match.group("name"), i + 2, body
        i = j + 1


def parse_rows(
    body: list[str],
) -> tuple[list[tuple[int, str, str]], list[str]]:
    """Rows ``(offset, id, where)`` of a directive body, and the bad lines."""
    rows, bad = [], []
    for offset, line in enumerate(body):
        if not line.strip():
            continue
        match = ROW.match(line.strip())
        if match:
            rows.append(
                (offset, match.group("id"), match.group("where").strip())
            )
        else:
            bad.append(line)
    return rows, bad


def markdown_texts(path: Path) -> list[str]:
    """The markdown of a notebook (one string per cell) or of a .md file."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return [
            "".join(c["source"]) for c in cells if c["cell_type"] == "markdown"
        ]
    return [path.read_text(encoding="utf-8")]


#: The label a chapter sets where it checks the correction of an erratum,
#: on a line of its own: ``(check-e16)=``.
CHECK_LABEL = re.compile(r"^\((?P<label>check-[eg]\d\d)\)=[ \t]*$", re.M)


def check_label(entry_id: str) -> str:
    """The label of the place that checks erratum ``entry_id`` (``check-e16``)."""
    return "check-" + entry_id.lower()


def scan_check_labels(root: str | Path, docnames=None) -> dict[str, list[str]]:
    """The documents that set each ``check-…`` label."""
    root = Path(root)
    found: dict[str, list[str]] = {}
    for path in _paths(root, docnames):
        docname = path.relative_to(root).with_suffix("").as_posix()
        for text in markdown_texts(path):
            for match in CHECK_LABEL.finditer(text):
                found.setdefault(match.group("label"), []).append(docname)
    return found


def _paths(root: Path, docnames) -> list[Path]:
    if docnames is None:
        paths = sorted((root / "chapters").glob("*.ipynb")) + sorted(
            (root / "chapters").glob("*.md")
        )
    else:
        paths = []
        for docname in docnames:
            for suffix in (".ipynb", ".md"):
                if (root / (docname + suffix)).is_file():
                    paths.append(root / (docname + suffix))
                    break
    return paths


def scan_tables(root: str | Path, docnames=None) -> list[TableRow]:
    """Every row of every table directive in the given documents.

    ``docnames`` are paths relative to ``root`` without suffix; by default all
    notebooks and markdown files under ``chapters/``.
    """
    root = Path(root)
    paths = _paths(root, docnames)
    rows = []
    for path in paths:
        docname = path.relative_to(root).with_suffix("").as_posix()
        for text in markdown_texts(path):
            if "-table}" not in text:
                continue
            for name, first, body in directive_blocks(text):
                parsed, _ = parse_rows(body)
                for offset, eid, where in parsed:
                    rows.append(
                        TableRow(docname, name, eid, where, first + offset)
                    )
    return rows


def checked_in(rows: list[TableRow]) -> dict[str, list[TableRow]]:
    """The table rows of each id, in book order."""
    found: dict[str, list[TableRow]] = {}
    for row in rows:
        found.setdefault(row.id, []).append(row)
    return found
