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
    assert "book.plotting.use_book_style()" in imports


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


#: Files that must state the repository URL themselves: the package's
#: metadata and its description on the package index cannot read _config.yml.
URL_ALSO_IN = {"pyproject.toml", "README-package.md"}


def test_repository_url_is_written_in_one_place():
    # _config.yml holds it; the chapters' install cells are generated from it.
    # The package metadata repeats it, and test_package_urls_are_the_books
    # checks that it repeats the same one.
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
        if name == "_config.yml" or name in URL_ALSO_IN or not path.is_file():
            continue
        text = path.read_text(errors="ignore")
        if name.endswith(".ipynb"):
            cells = json.loads(text)["cells"]
            first = next(c for c in cells if c["cell_type"] == "code")
            text = json.dumps([c for c in cells if c is not first])
        if url in text:
            holders.append(name)
    assert not holders, f"the repository URL is repeated in {holders}"


def test_package_urls_are_the_books():
    import tomllib

    url = install_cell_source().rsplit("git+", 1)[1].rstrip('"')
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    urls = project["urls"].values()
    assert urls and all(u == url or u.startswith(url + "/") for u in urls)
    readme = (ROOT / "README-package.md").read_text()
    found = set(re.findall(r"https://github\.com/[^\s\">)]+", readme))
    assert found and all(u == url or u.startswith(url + "/") for u in found)


FOLDED = ("hide-input", "hide-cell", "remove-input", "remove-cell")


def _python(source):
    """The cell's source as Python (IPython magics turned into calls)."""
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(source)


def _names(tree):
    """(names the cell binds at any level, names it reads)."""
    import ast

    bound, read = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):  # a parameter is local to its function
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
    return bound, read


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_state_is_made_in_a_folded_cell(path):
    # A reader who leaves a folded cell closed must miss nothing that a later
    # cell uses: no later cell reads a name whose last binding was folded.
    import ast

    made_in_folded = {}
    for i, cell in enumerate(code_cells(path)):
        tags = cell.get("metadata", {}).get("tags", [])
        bound, read = _names(ast.parse(_python("".join(cell["source"]))))
        used = sorted((read - bound) & set(made_in_folded))
        assert not used, (
            f"code cell {i} reads {used}, made in folded code cell(s) "
            f"{sorted({made_in_folded[n] for n in used})}"
        )
        folded = any(tag in FOLDED for tag in tags)
        for name in bound:
            if folded:
                made_in_folded[name] = i
            else:
                made_in_folded.pop(name, None)


# scikit-learn estimators whose solver is exact whatever the seed, given
# these arguments.  (kpca needs no entry: its "auto" never picks a randomised
# solver and its iterative solvers start from seed 0 when given None.)
SEED_FREE = {
    ("PCA", "svd_solver"): {"full", "covariance_eigh"},
    ("KernelPCA", "eigen_solver"): {"dense"},
}
# scikit-learn estimators that use random_state only on request (Lasso and
# ElasticNet with selection="random").
SEEDED_ON_REQUEST = {"Lasso", "ElasticNet"}


def _imported_objects(tree):
    """Map each name a cell imports from scikit-learn to its object."""
    import ast
    import importlib

    objects = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "sklearn":
                    top = alias.asname or alias.name.split(".")[0]
                    target = alias.name if alias.asname else top
                    objects[top] = importlib.import_module(target)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] == "sklearn":
                module = importlib.import_module(node.module)
                for alias in node.names:
                    value = getattr(module, alias.name, None)
                    if (
                        value is None
                    ):  # a submodule, as in "from sklearn import cluster"
                        value = importlib.import_module(
                            f"{node.module}.{alias.name}"
                        )
                    objects[alias.asname or alias.name] = value
    return objects


def _resolve(node, objects):
    import ast

    if isinstance(node, ast.Name):
        return objects.get(node.id)
    if isinstance(node, ast.Attribute):
        owner = _resolve(node.value, objects)
        return getattr(owner, node.attr, None) if owner is not None else None
    return None


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_random_call_is_seeded(path):
    # A scikit-learn call that takes random_state and is not given one
    # draws a new seed on every run, so its printed digits differ between runs
    # (a PCA left to pick its randomized solver did exactly that in CI).
    import ast
    import inspect

    objects, unseeded = {}, []
    for i, cell in enumerate(code_cells(path)):
        tree = ast.parse(_python("".join(cell["source"])))
        objects.update(_imported_objects(tree))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            target = _resolve(node.func, objects)
            if target is None or not callable(target):
                continue
            try:
                parameters = inspect.signature(target).parameters
            except (TypeError, ValueError):
                continue
            if "random_state" not in parameters:
                continue
            given = {k.arg: k.value for k in node.keywords}
            if "random_state" in given or any(
                k.arg is None for k in node.keywords
            ):
                continue
            name = getattr(target, "__name__", "?")
            exact = any(
                isinstance(given.get(arg), ast.Constant)
                and given[arg].value in values
                for (cls, arg), values in SEED_FREE.items()
                if cls == name
            )
            if name in SEEDED_ON_REQUEST and "selection" not in given:
                continue
            positional = list(parameters).index("random_state") < len(
                node.args
            )
            if not (exact or positional):
                unseeded.append(f"code cell {i}: {ast.unparse(node)[:70]}")
    assert not unseeded, "calls without random_state:\n" + "\n".join(unseeded)


LAYOUT_BOX = re.compile(
    r"```\{admonition\} Data layout\n:class: layout\n(Rows|Columns)"
)


@pytest.mark.parametrize(
    "path",
    [p for p in CHAPTERS if not p.stem.startswith("appendix")],
    ids=lambda p: p.stem,
)
def test_chapter_opens_with_its_data_layout(path):
    # The same symbol X^T X is the covariance (times n) in the chapters that
    # store samples as rows and the Gram matrix in those that store them as
    # columns: each chapter says which, once, before its first computation.
    cells = json.loads(path.read_text())["cells"]
    opening = []
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and "find_spec" not in source:
            break  # the first code cell after the Colab install cell
        if cell["cell_type"] == "markdown":
            opening.append(source)
    boxes = LAYOUT_BOX.findall("\n".join(opening))
    assert len(boxes) == 1, f"{len(boxes)} data-layout boxes in the opening"
