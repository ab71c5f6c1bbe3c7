"""Small accessibility fixes to the HTML that Sphinx and docutils write.

* docutils marks each bibliography entry ``role="doc-biblioentry"`` inside a
  ``role="list"`` container. DPUB-ARIA 1.1 deprecated that role, so axe-core
  counts the entries as children a list may not have (a critical violation on
  the references page). They are list items: ``role="listitem"``.
"""

from __future__ import annotations

from sphinx.application import Sphinx


def fix_body(app: Sphinx, pagename, templatename, context, doctree) -> None:
    body = context.get("body")
    if body and 'role="doc-biblioentry"' in body:
        context["body"] = body.replace(
            'role="doc-biblioentry"', 'role="listitem"'
        )


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", fix_body)
    return {
        "version": "1.0",
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
