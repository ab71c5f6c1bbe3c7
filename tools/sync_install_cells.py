"""Write the first code cell of every chapter from the book's configuration.

The first cell installs the course package where it is missing (Colab, a
bare Jupyter); it names the repository, whose URL lives in one place,
``_config.yml`` (``repository.url``).  Run this after changing that URL;
``tests/book/test_chapter_conventions.py`` checks that every chapter agrees.

    python tools/sync_install_cells.py
"""

from __future__ import annotations

import json
import pathlib
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"


def repository_url() -> str:
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    return config["repository"]["url"].rstrip("/")


def install_cell_source(url: str | None = None) -> str:
    """The source of every chapter's first code cell."""
    url = repository_url() if url is None else url
    return (
        "# On Colab, or wherever kpca is missing, install the course package\n"
        "# with everything the chapters use; elsewhere this does nothing.\n"
        "import importlib.util\n"
        "\n"
        'if importlib.util.find_spec("kpca") is None:\n'
        f'    %pip install --quiet "kpca[book] @ git+{url}"'
    )


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    return lines


def sync(path: pathlib.Path, source: str) -> bool:
    """Rewrite the first code cell of ``path``; return whether it changed."""
    nb = json.loads(path.read_text())
    first = next(c for c in nb["cells"] if c["cell_type"] == "code")
    if "".join(first["source"]) == source:
        return False
    first["source"] = _lines(source)
    tags = first.setdefault("metadata", {}).setdefault("tags", [])
    if "remove-cell" not in tags:
        tags.append("remove-cell")
    path.write_text(
        json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    )
    return True


def main() -> int:
    source = install_cell_source()
    changed = [
        p.name for p in sorted(CHAPTERS.glob("*.ipynb")) if sync(p, source)
    ]
    print("updated:", ", ".join(changed) if changed else "nothing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
