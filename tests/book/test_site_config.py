"""The book's configuration: numbering, navigation, citations, one address.

These run without a build (``make test`` step 1); tests/book/browser checks what
the built pages do with it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
TOC = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))


def test_chapters_are_numbered_and_the_appendix_is_not():
    assert TOC["defaults"]["numbered"] is True
    *parts, appendix = TOC["parts"]
    assert appendix["caption"] == "Appendix"
    assert appendix.get("numbered") is False
    assert all(part.get("numbered", True) for part in parts)
    assert appendix["chapters"][-1]["file"] == "chapters/bibliography"
    sphinx = CONFIG["sphinx"]["config"]
    assert sphinx["numfig"] is True


def test_every_toc_file_exists():
    files = [TOC["root"]] + [
        c["file"] for part in TOC["parts"] for c in part["chapters"]
    ]
    missing = [
        f
        for f in files
        if not any(
            (ROOT / f).with_suffix(s).is_file()
            for s in (".md", ".ipynb", ".rst")
        )
    ]
    assert not missing


def test_phone_navigation_fix_is_set():
    options = CONFIG["sphinx"]["config"]["html_theme_options"]
    assert options["navbar_persistent"] == []


def test_repository_url_lives_in_config_only():
    url = CONFIG["repository"]["url"]
    assert url.startswith("https://")
    address = re.sub(r"^https?://", "", url).rstrip("/")
    ours = [
        ROOT / "intro.md",
        ROOT / "README.md",
        ROOT / "Makefile",
        ROOT / "_toc.yml",
        ROOT / "references.bib",
        *sorted((ROOT / "_ext").glob("*.py")),
        *sorted((ROOT / "_static").glob("*.*")),
        *sorted((ROOT / "tools").glob("*.py")),
        *sorted((ROOT / "tests" / "book" / "browser").glob("*.py")),
        ROOT / "chapters" / "bibliography.md",
    ]
    repeats = [
        str(p.relative_to(ROOT))
        for p in ours
        if p.is_file() and address in p.read_text(encoding="utf-8")
    ]
    assert not repeats, f"{url} repeated outside _config.yml in {repeats}"


# --------------------------------------------------------------------------
# Citations: the author-year style of _ext/author_year_bibliography.py
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bibliography():
    import author_year_bibliography as style
    from pybtex.database import parse_file

    data = parse_file(str(ROOT / "references.bib"))
    entries = list(data.entries.values())
    sorted_entries = style.AuthorYearSortingStyle().sort(entries)
    labels = list(style.AuthorYearLabelStyle().format_labels(sorted_entries))
    keys = [e.key for e in sorted_entries]
    return dict(zip(keys, labels, strict=True)), sorted_entries


def test_labels_are_distinct(bibliography):
    labels, _ = bibliography
    assert len(set(labels.values())) == len(labels)


def test_labels_are_author_year(bibliography):
    labels, _ = bibliography
    assert labels["pearson1901lines"] == "Pearson, 1901"
    assert labels["eckart1936approximation"] == "Eckart and Young, 1936"
    assert labels["scholkopf1998nonlinear"] == "Schölkopf et al., 1998"
    assert labels["notes_iitm_mlt_week2"] == "IIT Madras, n.d.a"
    assert labels["notes_iitm_mlt_slides"] == "IIT Madras, n.d.b"
    assert labels["turk1991eigenfaces"] == "Turk and Pentland, 1991a"
    assert labels["turk1991face"] == "Turk and Pentland, 1991b"
    assert labels["golub2013matrix"] == "Golub and Van Loan, 2013"


def test_list_is_sorted_by_author_then_year(bibliography):
    labels, sorted_entries = bibliography
    import unicodedata

    def key(label):
        author, _, year = label.rpartition(", ")
        folded = unicodedata.normalize("NFKD", author)
        folded = "".join(c for c in folded if not unicodedata.combining(c))
        return folded.casefold(), year.startswith("n.d."), year

    ordered = [labels[e.key] for e in sorted_entries]
    assert ordered == sorted(ordered, key=key)


def test_every_entry_names_someone(bibliography):
    _, entries = bibliography
    anonymous = [
        e.key
        for e in entries
        if not (e.persons.get("author") or e.persons.get("editor"))
    ]
    assert not anonymous


def test_every_cited_key_exists(bibliography):
    labels, _ = bibliography
    cite = re.compile(r"\{cite(?::\w+)?\}`([^`]+)`")
    sources = [ROOT / "intro.md", *sorted((ROOT / "chapters").glob("*.md"))]
    texts = [p.read_text(encoding="utf-8") for p in sources]
    for notebook in sorted((ROOT / "chapters").glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        texts += ["".join(c["source"]) for c in cells]
    cited = {
        key.strip()
        for text in texts
        for keys in cite.findall(text)
        for key in keys.split(",")
    }
    assert cited, "no citation found"
    assert not cited - set(labels), sorted(cited - set(labels))
