"""Every claim of the lecture notes is listed in some chapter's claims table.

The inventory of the notes' claims (shared/seed-claims.md, outside this repository) numbers
them S000-01 ... S004-48. Each chapter ends with a table "What the notes claim, and where it
is checked" whose first column holds claim ids; together the tables must cover every claim.
"""

import json
import pathlib
import re

CHAPTERS = pathlib.Path(__file__).resolve().parents[1] / "chapters"

# Number of claims of each note in the inventory.
CLAIMS_PER_NOTE = {"000": 48, "001": 17, "002": 22, "003": 26, "004": 48}
ID = re.compile(r"S00[0-4]-\d\d")


def claims_table_ids() -> dict[str, set[str]]:
    """Claim ids in the first column of each chapter's claims table, by chapter file."""
    found = {}
    for path in sorted(CHAPTERS.glob("*.ipynb")):
        ids = set()
        for cell in json.loads(path.read_text())["cells"]:
            source = "".join(cell["source"])
            if (
                cell["cell_type"] != "markdown"
                or "What the notes claim" not in source
            ):
                continue
            for line in source.splitlines():
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if line.lstrip().startswith("|") and cells:
                    ids.update(ID.findall(cells[0]))
        found[path.name] = ids
    return found


def test_every_claim_of_the_notes_is_in_a_claims_table():
    covered = set().union(*claims_table_ids().values())
    required = {
        f"S{note}-{i:02d}"
        for note, count in CLAIMS_PER_NOTE.items()
        for i in range(1, count + 1)
    }
    assert not sorted(required - covered), (
        f"claims missing from every table: {sorted(required - covered)}"
    )
    assert not sorted(covered - required), (
        f"unknown claim ids in tables: {sorted(covered - required)}"
    )


def test_every_chapter_has_a_claims_table():
    tables = claims_table_ids()
    without = [name for name, ids in tables.items() if not ids]
    assert not without, f"chapters without a claims table: {without}"
