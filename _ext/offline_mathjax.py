"""Serve MathJax from the built site instead of a CDN.

Sphinx loads MathJax from jsDelivr by default, so a book opened offline (or
behind a firewall) shows raw LaTeX. This extension copies the MathJax 3 ``es5``
tree shipped by the PyPI package ``django-static-mathjax`` (listed in
``requirements.txt``) into ``<outdir>/_static/mathjax`` when an HTML build
finishes. ``_config.yml`` points ``mathjax_path`` at ``mathjax/tex-chtml.js``,
which Sphinx resolves relative to ``_static/``. No MathJax file is committed.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ConfigError, ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: Sub-folder of ``_static`` that receives the MathJax tree.
TARGET = "mathjax"


def mathjax_source() -> Path:
    """Return the ``es5`` folder of the installed MathJax distribution."""
    spec = importlib.util.find_spec("mathjax")
    if spec is None or not spec.submodule_search_locations:
        raise ExtensionError(
            "offline_mathjax: the Python package 'django-static-mathjax' is not "
            "installed (pip install -r requirements.txt)"
        )
    for location in spec.submodule_search_locations:
        es5 = Path(location) / "static" / "mathjax" / "es5"
        if (es5 / "tex-chtml.js").is_file():
            return es5
    raise ExtensionError(
        "offline_mathjax: no static/mathjax/es5/tex-chtml.js in the 'mathjax' "
        "package; reinstall django-static-mathjax"
    )


def check_config(app: Sphinx, config) -> None:
    """Refuse a remote ``mathjax_path``: the book must work offline."""
    path = config.mathjax_path or ""
    if "://" in path or path.startswith("//"):
        raise ConfigError(
            f"offline_mathjax: mathjax_path={path!r} points at a remote host; "
            f"set it to '{TARGET}/tex-chtml.js' in _config.yml"
        )
    if not path.startswith(TARGET + "/"):
        raise ConfigError(
            f"offline_mathjax: mathjax_path={path!r} must live under "
            f"'{TARGET}/' (relative to _static/)"
        )
    mathjax_source()  # fail early, before a long build, if MathJax is missing


def copy_mathjax(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    source = mathjax_source()
    target = Path(app.outdir) / "_static" / TARGET
    logger.info(f"offline_mathjax: copying {source} -> {target}")
    shutil.copytree(source, target, dirs_exist_ok=True)
    entry = target / Path(app.config.mathjax_path).relative_to(TARGET)
    if not entry.is_file():
        raise ExtensionError(
            f"offline_mathjax: {entry} is missing after the copy"
        )


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", check_config)
    app.connect("build-finished", copy_mathjax)
    return {
        "version": "1.0",
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
