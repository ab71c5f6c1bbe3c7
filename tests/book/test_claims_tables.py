"""The chapters' claims tables agree with the claims inventory.

The inventory of what the five lecture notes claim (ids S000-01 ... S004-48),
of their errors (E01-E42) and gaps (G01-G23), of the notation rows (N01-N20)
and of the scaling statements (P1-P9) is the book's own data, in
``reference/*.yaml``. Each chapter ends with "What the notes claim, and where
it is checked": a ``claims-table`` directive (and in some chapters an
``errata-table``) with one line per id, ``S000-39: <where it is checked>``.
The statements are filled in from the data when the book is built
(``_ext/claims.py``), so a table holds only the chapter's own column.
"""

import json
import pathlib
import re

import claims_data
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
INVENTORY = claims_data.load(ROOT)
ROWS = claims_data.scan_tables(ROOT)
#: A Markdown table row that starts with an id of the inventory: the old
#: hand-written tables ("| S000-39 | <statement> | <where> |") repeated the
#: statements that the directives now read from reference/*.yaml.
TABLE_ROW_WITH_ID = re.compile(
    r"^\s*\|\s*(?:S00[0-4]-\d\d|[EGNP]\d\d?)\b", re.M
)


def markdown(path):
    return [
        "".join(c["source"])
        for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
        if c["cell_type"] == "markdown"
    ]


def test_every_claim_of_the_notes_is_in_a_claims_table():
    covered = {r.id for r in ROWS if r.directive == "claims-table"}
    missing = sorted(e.id for e in INVENTORY.claims if e.id not in covered)
    assert not missing, f"claims in no chapter's claims table: {missing}"


def test_every_id_in_a_table_is_in_the_inventory():
    unknown = sorted(
        {f"{r.docname}: {r.id}" for r in ROWS if r.id not in INVENTORY.entries}
    )
    assert not unknown, f"ids not in reference/*.yaml: {unknown}"


def test_errata_tables_list_errors_and_gaps_only():
    wrong = sorted(
        f"{r.docname}: {r.id}"
        for r in ROWS
        if r.directive == "errata-table"
        and INVENTORY.entries.get(r.id, None) is not None
        and INVENTORY.entries[r.id].kind not in ("error", "gap")
    )
    assert not wrong, f"errata-table rows that are not E or G ids: {wrong}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_has_a_claims_table(path):
    docname = path.relative_to(ROOT).with_suffix("").as_posix()
    assert any(
        r.docname == docname and r.directive == "claims-table" for r in ROWS
    ), f"{path.name} has no claims-table directive"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_table_lines_read_id_colon_where(path):
    for text in markdown(path):
        for name, first, body in claims_data.directive_blocks(text):
            rows, bad = claims_data.parse_rows(body)
            assert not bad, f"{path.name}, {name} at line {first}: {bad}"
            ids = [eid for _, eid, _ in rows]
            twice = sorted({i for i in ids if ids.count(i) > 1})
            assert not twice, (
                f"{path.name}: listed twice in one table: {twice}"
            )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_hand_written_claims_table_is_left(path):
    """Statements come from the data; tables must not repeat them by hand."""
    rows = [
        match.group(0).strip()
        for text in markdown(path)
        for match in TABLE_ROW_WITH_ID.finditer(text)
    ]
    assert not rows, (
        f"{path.name} holds Markdown claims or errata table rows {rows}: "
        "write them as claims-table or errata-table lines, `ID: where`"
    )


def test_the_table_row_pattern_finds_an_old_table():
    old = (
        "| Claim | What the notes say (one line) | Where it is checked |\n"
        "|---|---|---|\n"
        "| S000-39 | the projection is orthogonal | {eq}`eq-ch08-proj` |\n"
        "| E07 | a wrong sign | the check |"
    )
    assert len(TABLE_ROW_WITH_ID.findall(old)) == 2
    assert not TABLE_ROW_WITH_ID.search("S000-39: {eq}`eq-ch08-proj`")
