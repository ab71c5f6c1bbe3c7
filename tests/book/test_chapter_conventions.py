"""Conventions every chapter notebook keeps (see README, "Adding a chapter")."""

import json
import pathlib
import re

import pytest

from tools.sync_install_cells import install_cell_source

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))


def code_cells(path):
    return [
        c
        for c in json.loads(path.read_text())["cells"]
        if c["cell_type"] == "code"
    ]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_figure_is_numbered_and_captioned(path):
    for i, cell in enumerate(code_cells(path)):
        images = sum(
            "image/png" in o.get("data", {}) for o in cell.get("outputs", [])
        )
        figure = cell.get("metadata", {}).get("mystnb", {}).get("figure", {})
        if images:
            assert images == 1, (
                f"code cell {i} shows {images} images; one figure per cell"
            )
            assert figure.get("name") and figure.get("caption"), (
                f"code cell {i}: figure without name/caption"
            )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_cells_are_executed_without_errors_paths_or_addresses(path):
    for i, cell in enumerate(code_cells(path)):
        tags = cell.get("metadata", {}).get("tags", [])
        source = "".join(cell["source"])
        assert not source.strip() or cell["execution_count"] is not None, (
            f"code cell {i} never executed"
        )
        assert "sys.path" not in source, (
            f"code cell {i} edits sys.path; install kpca instead"
        )
        outputs = cell.get("outputs", [])
        if "raises-exception" not in tags:
            assert not any(o["output_type"] == "error" for o in outputs), (
                f"code cell {i} stored an error"
            )
        text = json.dumps(
            [
                [o.get("text"), o.get("traceback")]
                + [
                    o.get("data", {}).get(m)
                    for m in (
                        "text/plain",
                        "text/html",
                        "text/latex",
                        "text/markdown",
                    )
                ]
                for o in outputs
            ]
        )
        assert not re.search(r"/(tmp|root|home|work)/", text), (
            f"code cell {i} shows a path of this machine"
        )
        assert not re.search(r"\bat 0x[0-9a-f]{6,}", text), (
            f"code cell {i} shows a memory address"
        )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_installs_kpca_on_colab(path):
    # The repository URL lives in _config.yml alone;
    # tools/sync_install_cells.py writes it into every chapter.
    first = code_cells(path)[0]
    assert "".join(first["source"]) == install_cell_source(), (
        "the first code cell differs from the install cell made from "
        "_config.yml: run python tools/sync_install_cells.py"
    )
    assert "remove-cell" in first.get("metadata", {}).get("tags", [])


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_applies_the_book_style(path):
    # The style ships with kpca, so a chapter looks the same wherever it runs.
    imports = "".join(code_cells(path)[1]["source"])
    assert "kpca.plotting.use_book_style()" in imports


# A computed number printed with an exponent of -13 or below is round-off:
# another CPU or BLAS prints another one.  Print a bound instead ("below
# 1e-10: True"); a bound has no decimal digits, a computed value has.
ROUND_OFF = re.compile(r"(?<![\w.])\d\.\d+[eE]-(?:1[3-9]|[2-9]\d|\d{3})\b")
NEGATIVE_ZERO = re.compile(r"(?<![\w.])-0\.(?:0*)(?![0-9]*[1-9])")


def shown_text(cell):
    parts = []
    for output in cell.get("outputs", []):
        parts.append("".join(output.get("text", "")))
        data = output.get("data", {})
        for mime in ("text/plain", "text/latex", "text/html", "text/markdown"):
            parts.append("".join(data.get(mime, "")))
    return "\n".join(parts)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_stored_output_prints_round_off(path):
    for i, cell in enumerate(code_cells(path)):
        if "nbval-ignore-output" in cell.get("metadata", {}).get("tags", []):
            continue
        text = shown_text(cell)
        found = ROUND_OFF.findall(text) or NEGATIVE_ZERO.findall(text)
        assert not found, (
            f"code cell {i} prints round-off ({found[:3]}): print a bound "
            "or a rounded value instead"
        )


def test_repository_url_is_written_in_one_place():
    # _config.yml holds it; the chapters' install cells are generated from it.
    import subprocess

    url = install_cell_source().rsplit("git+", 1)[1].rstrip('"')
    files = subprocess.run(
        ["git", "ls-files"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    holders = []
    for name in files:
        path = ROOT / name
        if name == "_config.yml" or not path.is_file():
            continue
        text = path.read_text(errors="ignore")
        if name.endswith(".ipynb"):
            cells = json.loads(text)["cells"]
            first = next(c for c in cells if c["cell_type"] == "code")
            text = json.dumps([c for c in cells if c is not first])
        if url in text:
            holders.append(name)
    assert not holders, f"the repository URL is repeated in {holders}"
