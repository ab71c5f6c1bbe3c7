"""Small fixes of the HTML a reader meets.

* A formula stays on one line with the punctuation that follows it: MathJax
  typesets an inline formula as one box, and a line may break between that
  box and a closing parenthesis or a full stop ("(σ = 1.5" / ")."). Each
  inline formula followed by punctuation is wrapped, with it, in a
  ``span.kpca-nowrap`` (white-space: nowrap, _static/custom.css).
* "Solution to Exercise 12.1": sphinx-exercise puts the space before
  "Exercise" inside the link, so an underlined space precedes the link; the
  space is moved out of it.
* The download menu's ``.md`` (or ``.rst``) of a page whose content a
  directive generates from data (the claims index, the errata, the notation
  index, the references) would hold just the directive. Those
  downloads are written from the built page instead: its text as Markdown,
  tables as pipe tables, formulas as ``$...$``.
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

#: An inline formula (span.math holds only TeX source and text) and the
#: punctuation right after it.
INLINE_MATH_THEN_PUNCTUATION = re.compile(
    r'(<span class="math notranslate nohighlight">[^<]*</span>)'
    r"([)\].,;:!?’”]+)"
)
#: An opening parenthesis or bracket right before an inline formula.
PUNCTUATION_THEN_INLINE_MATH = re.compile(
    r'([(\[‘“]+)(<span class="math notranslate nohighlight">[^<]*</span>)'
)
SOLUTION_TITLE = re.compile(
    r'(<p class="admonition-title">Solution to)(<a [^>]*>) '
)


def keep_together(body: str) -> str:
    body = INLINE_MATH_THEN_PUNCTUATION.sub(
        r'<span class="kpca-nowrap">\1\2</span>', body
    )
    return PUNCTUATION_THEN_INLINE_MATH.sub(
        r'<span class="kpca-nowrap">\1\2</span>', body
    )


def fix_body(app: Sphinx, pagename, templatename, context, doctree) -> None:
    body = context.get("body")
    if not body:
        return
    body = keep_together(body)
    body = SOLUTION_TITLE.sub(r"\1 \2", body)
    context["body"] = body


#: Directives that generate a page's content from data or code.
GENERATING = re.compile(
    r"\{(claims-index|errata-list|notation-index|bibliography)\}"
)


class _Markdown:
    """A resolved doctree as plain Markdown (what a reader downloads)."""

    def __init__(self) -> None:
        self.blocks: list[str] = []

    def inline(self, node: nodes.Node) -> str:
        if isinstance(node, nodes.Text):
            return node.astext().replace("\n", " ")
        if isinstance(node, nodes.math):
            return f"${node.astext()}$"
        if isinstance(node, nodes.literal):
            return f"`{node.astext()}`"
        if isinstance(
            node,
            (
                nodes.image,
                nodes.raw,
                nodes.target,
                nodes.substitution_definition,
                nodes.comment,
                addnodes.index,
                nodes.system_message,
            ),
        ):
            return ""
        # Block-level children (the paragraphs of a table cell) are
        # separated by a space.
        parts = []
        for child in node.children:
            part = self.inline(child)
            if parts and isinstance(child, (nodes.Body, nodes.list_item)):
                part = " " + part
            parts.append(part)
        text = "".join(parts)
        if isinstance(node, nodes.strong):
            return f"**{text}**" if text.strip() else text
        if isinstance(node, nodes.emphasis):
            return f"*{text}*" if text.strip() else text
        if (
            isinstance(node, nodes.reference)
            and node.get("refuri", "")[:4] == "http"
        ):
            return f"[{text}]({node['refuri']})"
        return text

    def table(self, node: nodes.table) -> None:
        rows = []
        for row in node.findall(nodes.row):
            cells = [
                " ".join(self.inline(entry).split()).replace("|", "\\|")
                for entry in row.children
            ]
            rows.append(cells)
        if not rows:
            return
        width = max(map(len, rows))
        rows = [r + [""] * (width - len(r)) for r in rows]
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
        lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        self.blocks.append("\n".join(lines))

    def walk(self, node: nodes.Node, depth: int = 0) -> None:
        if isinstance(
            node,
            (
                nodes.comment,
                nodes.raw,
                nodes.target,
                nodes.system_message,
                addnodes.index,
                addnodes.toctree,
                nodes.substitution_definition,
            ),
        ):
            return
        if isinstance(node, nodes.section):
            for child in node.children:
                self.walk(child, depth + 1)
            return
        if isinstance(node, nodes.title):
            self.blocks.append("#" * max(depth, 1) + " " + self.inline(node))
        elif isinstance(node, nodes.rubric):
            self.blocks.append(f"**{self.inline(node)}**")
        elif isinstance(node, nodes.paragraph):
            text = self.inline(node).strip()
            if text:
                self.blocks.append(text)
        elif isinstance(node, nodes.math_block):
            self.blocks.append(f"$$\n{node.astext()}\n$$")
        elif isinstance(node, nodes.literal_block):
            self.blocks.append(f"```\n{node.astext()}\n```")
        elif isinstance(node, nodes.table):
            self.table(node)
        elif isinstance(node, (nodes.bullet_list, nodes.enumerated_list)):
            items = []
            for number, item in enumerate(node.children, 1):
                marker = (
                    f"{number}."
                    if isinstance(node, nodes.enumerated_list)
                    else "-"
                )
                inner = _Markdown()
                for child in item.children:
                    inner.walk(child, depth)
                body = "\n".join(inner.blocks).replace("\n", "\n   ")
                items.append(f"{marker} {body}")
            self.blocks.append("\n".join(items))
        elif isinstance(node, nodes.definition_list_item):
            term = "".join(
                self.inline(c)
                for c in node.children
                if isinstance(c, nodes.term)
            )
            self.blocks.append(f"**{term}**")
            for child in node.children:
                if isinstance(child, nodes.definition):
                    for grand in child.children:
                        self.walk(grand, depth)
        elif isinstance(node, nodes.citation):
            labels = [
                c.astext() for c in node.children if isinstance(c, nodes.label)
            ]
            label = labels[0] if labels else ""
            text = " ".join(
                self.inline(c)
                for c in node.children
                if not isinstance(c, nodes.label)
            )
            self.blocks.append(f"- [{label}] {' '.join(text.split())}")
        elif isinstance(node, addnodes.desc):
            for child in node.children:
                if isinstance(child, addnodes.desc_signature):
                    self.blocks.append(f"### `{child.astext().strip()}`")
                else:
                    self.walk(child, depth)
        elif isinstance(node, (nodes.field_list, nodes.field)):
            for child in node.children:
                self.walk(child, depth)
        elif isinstance(node, nodes.field_name):
            self.blocks.append(f"**{self.inline(node)}**")
        else:
            for child in node.children:
                self.walk(child, depth)

    def text(self) -> str:
        return "\n\n".join(self.blocks).strip() + "\n"


def to_markdown(doctree: nodes.Node) -> str:
    writer = _Markdown()
    writer.walk(doctree)
    return writer.text()


def write_generated_sources(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    env = app.env
    for docname in sorted(env.found_docs):
        source = Path(env.doc2path(docname))
        if not source.is_file():
            continue
        if not GENERATING.search(source.read_text(encoding="utf-8")):
            continue
        target = (Path(app.outdir) / "_sources" / docname).with_suffix(
            source.suffix + app.config.html_sourcelink_suffix
        )
        if not target.is_file():
            continue  # no download offered for this page
        doctree = env.get_and_resolve_doctree(docname, app.builder)
        target.write_text(to_markdown(doctree), encoding="utf-8")


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", fix_body)
    app.connect("build-finished", write_generated_sources)
    return {
        "version": "1.0",
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
