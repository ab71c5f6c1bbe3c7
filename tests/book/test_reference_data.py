"""The book's own data on the notes (reference/*.yaml) are complete and sound.

``claims_data.load`` enforces the schema (reference/README.md): ids numbered
without holes, known kinds and notes, non-empty statements, cross references
("see") to existing ids. These tests add what the appendix pages rely on.
"""

import pathlib
import re

import claims_data

ROOT = pathlib.Path(__file__).resolve().parents[2]

INVENTORY = claims_data.load(ROOT)
ROWS = claims_data.scan_tables(ROOT)
CHECKED_IN = claims_data.checked_in(ROWS)


def test_the_inventory_is_complete():
    per_note = {
        note: sum(1 for e in INVENTORY.claims if e.notes[0] == note)
        for note in claims_data.NOTE_IDS
    }
    assert per_note == {"000": 48, "001": 17, "002": 22, "003": 26, "004": 48}
    counts = {
        kind: len(INVENTORY.of_kind(kind))
        for kind in ("claim", "error", "gap", "row", "scaling")
    }
    assert counts == {
        "claim": 161,
        "error": 42,
        "gap": 23,
        "row": 20,
        "scaling": 9,
    }


def test_pending_checks_name_a_chapter():
    chapters = {p.stem for p in (ROOT / "chapters").glob("*.ipynb")}
    for label, entry in INVENTORY.pending.items():
        assert entry.pending["doc"] in chapters, (
            f"{entry.id}: pending doc {entry.pending['doc']} is not a chapter"
        )
        assert label == claims_data.check_label(entry.id), (
            f"{entry.id}: a pending check is labelled "
            f"{claims_data.check_label(entry.id)}, not {label}"
        )


def chapter_labels() -> set[str]:
    """Every label the chapters define: (label)=, :label:, :name:, \\label."""
    pattern = re.compile(
        r"^\((?P<a>[^)\s]+)\)=|:(?:label|name):\s*(?P<b>\S+)"
        r"|\$\$\s*\((?P<c>[^)\s]+)\)|\"name\":\s*\"(?P<d>[^\"]+)\"",
        re.M,
    )
    labels = set()
    for path in (ROOT / "chapters").glob("*.ipynb"):
        text = path.read_text(encoding="utf-8").replace("\\n", "\n")
        for match in pattern.finditer(text):
            labels.add(next(g for g in match.groups() if g))
    return labels


def test_a_pending_label_that_exists_is_no_longer_pending():
    """Once a chapter creates the label, remove 'pending' from errata.yaml."""
    done = sorted(
        f"{e.id} ({label})"
        for label, e in INVENTORY.pending.items()
        if label in chapter_labels()
    )
    assert not done, (
        f"checks now in the chapters, still marked pending: {done}"
    )


def test_no_check_is_pending():
    pending = sorted(
        f"{e.id} -> {label}" for label, e in INVENTORY.pending.items()
    )
    assert not pending, f"pending checks: {pending}"


def test_prose_pattern_matches_ids_and_nothing_else():
    find = [
        m.group(0)
        for m in claims_data.PROSE_ID.finditer(
            "S000-01, E21 and G05; N01–N04; P4a, P4(a) and P9. Not PC1, E2, "
            "S005-01, P10, E210, N1, x_E21, S000-01b or kpca-E01."
        )
    ]
    assert find == [
        "S000-01",
        "E21",
        "G05",
        "N01",
        "N04",
        "P4a",
        "P4(a)",
        "P9",
    ]


def test_every_erratum_has_one_labelled_check_in_the_chapters():
    # A chapter sets `(check-e16)=` where it checks the correction of E16;
    # the errata appendix links there.  Exactly one chapter sets each label.
    labels = claims_data.scan_check_labels(ROOT)
    errata = INVENTORY.of_kind("error") + INVENTORY.of_kind("gap")
    missing = [
        e.id for e in errata if claims_data.check_label(e.id) not in labels
    ]
    assert not missing, f"no chapter sets the check label of {missing}"
    twice = {label: docs for label, docs in labels.items() if len(docs) > 1}
    assert not twice, f"labels set in several places: {twice}"
    known = {claims_data.check_label(e.id) for e in errata}
    assert set(labels) <= known, f"unknown check labels: {set(labels) - known}"
