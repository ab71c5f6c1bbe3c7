"""Workarounds of bugs in the build's tools fail here once they are fixed.

Each test names the workaround to delete, so that it does not outlive the bug.
"""

import pathlib

import sphinx
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_dedupe_inline_js_is_still_needed():
    """``_ext/dedupe_inline_js.py`` works around sphinx-doc/sphinx#13402
    (inline scripts written twice), fixed in Sphinx 8.2."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert "dedupe_inline_js" in config["sphinx"]["local_extensions"]
    assert sphinx.version_info < (8, 2), (
        f"Sphinx {sphinx.__version__} fixed sphinx-doc/sphinx#13402: delete "
        "_ext/dedupe_inline_js.py, its line in _config.yml and this test"
    )
