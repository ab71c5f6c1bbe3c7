"""Work around a Sphinx 7 bug that writes inline scripts twice into every page.

Sphinx < 8.2 registers a body-only script (``app.add_js_file(None, body=...)``)
added after the builder started once as ``None`` and once as ``''``, so both
copies reach ``<head>`` (sphinx-doc/sphinx#13402, fixed in Sphinx 8.2).
Jupyter Book 1.x pins Sphinx 7, and sphinx-thebe's ``const THEBE_JS_URL = ...``
then throws "Identifier 'THEBE_JS_URL' has already been declared" on every page.
This drops the second copy of any identical script before a page is written.

Temporary: remove this file and its line in ``_config.yml`` when the book
builds with Sphinx >= 8.2 (Jupyter Book >= 2);
``tests/book/test_workarounds.py`` fails from then on, as a reminder.
"""

from __future__ import annotations

import sphinx
from sphinx.application import Sphinx


def _key(script) -> tuple:
    filename = getattr(script, "filename", script) or ""
    attributes = getattr(script, "attributes", {}) or {}
    return (
        filename,
        tuple(sorted(attributes.items())),
        getattr(script, "priority", 500),
    )


def dedupe_scripts(
    app: Sphinx, pagename, templatename, context, doctree
) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        key = _key(script)
        if key not in seen:
            seen.add(key)
            unique.append(script)
    scripts[:] = unique


def setup(app: Sphinx) -> dict:
    if sphinx.version_info < (8, 2):
        app.connect("html-page-context", dedupe_scripts, priority=900)
    return {
        "version": "1.0",
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
