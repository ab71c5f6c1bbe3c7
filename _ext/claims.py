"""The book as a reference: claims tables, errata, claims index, notation, API.

The inventory of the notes' claims, errors, gaps, notation rows and scaling
statements lives in ``reference/*.yaml`` (read by :mod:`claims_data`). This
extension renders it; nothing it shows is maintained twice.

Directives
----------
``claims-table`` (in a chapter)
    Body: one line per id, ``S000-39: <where it is checked, MyST>``. Renders
    the table "Claim | What the notes say | Where it is checked", the id
    linked to its entry in the reference pages and the statement taken from
    the data. Ids may be claims (S), errors (E), gaps (G), notation rows (N)
    or scaling statements (P).
``errata-table`` (in a chapter)
    Same body, for errors and gaps: "Id | The notes write | Correct | Where".
``claims-index``, ``errata-list``, ``notation-index`` (reference pages)
    The claims grouped by note with a filter box; the errors and gaps grouped
    by note; the notation and the scaling statements. Each entry links to the
    chapters whose tables list its id, with their "where it is checked".
``kpca-api`` (in an reStructuredText page)
    autosummary tables and autodoc entries for ``kpca.__all__`` and every
    public submodule's ``__all__``, read when the page is built.

Links in prose
--------------
:class:`IdLinker` turns every inventory id written in a paragraph (not in a
title, code, math or an existing link) into a link to its entry, so authors
write "E21" and readers can click it. The pattern is
:data:`claims_data.PROSE_ID`. An id that looks like one but is not in the
inventory (e.g. "E43") is a warning.

Pending checks
--------------
An erratum may name, under ``pending``, the label of a check a chapter still
has to create. References to exactly those labels do not warn while the label
is missing; every other missing reference still does.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import cast

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.domains.std import StandardDomain
from sphinx.errors import ExtensionError
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

sys.path.insert(0, str(Path(__file__).resolve().parent))
import claims_api  # noqa: E402
import claims_data  # noqa: E402

logger = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "claims_static"
#: Class of nodes whose text the IdLinker leaves alone (ids that are anchors).
NO_LINK = "no-id-link"


# --------------------------------------------------------------------------
# Data for the build
# --------------------------------------------------------------------------


def inventory(env) -> claims_data.Inventory:
    cached = getattr(env, "_claims_inventory", None)
    if cached is None:
        try:
            cached = claims_data.load(env.srcdir)
        except claims_data.InventoryError as error:
            raise ExtensionError(f"claims: {error}") from None
        env._claims_inventory = cached
    return cached


def table_rows(env) -> list[claims_data.TableRow]:
    rows = getattr(env, "_claims_rows", None)
    if rows is None:
        rows = claims_data.scan_tables(env.srcdir, sorted(env.found_docs))
        env._claims_rows = rows
    return rows


def check_labels(env) -> dict[str, list[str]]:
    labels = getattr(env, "_claims_check_labels", None)
    if labels is None:
        labels = claims_data.scan_check_labels(
            env.srcdir, sorted(env.found_docs)
        )
        env._claims_check_labels = labels
    return labels


def refresh(app: Sphinx, env, docnames) -> None:
    """Re-read the data and the chapters' tables at the start of every read."""
    env._claims_inventory = None
    env._claims_rows = None
    env._claims_check_labels = None
    inventory(env)
    table_rows(env)
    check_labels(env)


# --------------------------------------------------------------------------
# Node helpers
# --------------------------------------------------------------------------


def id_link(entry: claims_data.Entry, refdoc: str, text: str | None = None):
    """A link to the entry of an id, rendered as the id itself."""
    text = text or entry.id
    ref = addnodes.pending_xref(
        "",
        refdomain="std",
        reftype="ref",
        reftarget=entry.label,
        refexplicit=True,
        refwarn=True,
        refdoc=refdoc,
    )
    ref += nodes.inline(text, text, classes=["inventory-id"])
    return ref


def doc_link(docname: str, refdoc: str):
    ref = addnodes.pending_xref(
        "",
        refdomain="std",
        reftype="doc",
        reftarget="/" + docname,
        refexplicit=False,
        refwarn=True,
        refdoc=refdoc,
    )
    ref += nodes.inline(docname, docname)
    return ref


class InventoryDirective(SphinxDirective):
    """Shared helpers: MyST parsing of snippets and registration of labels."""

    def myst(self, text: str, offset: int | None = None) -> list[nodes.Node]:
        """Parse a snippet of MyST (or of the page's syntax) into nodes."""
        holder = nodes.Element()
        self.state.nested_parse(
            StringList(text.splitlines(), source=self.env.docname),
            self.content_offset if offset is None else offset,
            holder,
        )
        return list(holder.children)

    def inline_myst(self, text: str, offset: int | None = None):
        """Parse a one-paragraph snippet and return its inline children."""
        parsed = self.myst(text, offset)
        if len(parsed) == 1 and isinstance(parsed[0], nodes.paragraph):
            return list(parsed[0].children)
        return parsed

    def paragraph(self, *children, classes=()):
        para = nodes.paragraph("", "", classes=list(classes))
        for child in children:
            if isinstance(child, str):
                para += nodes.Text(child)
            elif isinstance(child, list):
                para.extend(child)
            else:
                para += child
        return para

    def register(self, label: str, node_id: str, title: str) -> None:
        std = cast(StandardDomain, self.env.get_domain("std"))
        docname = self.env.docname
        other = std.anonlabels.get(label)
        if other and other[0] != docname:
            logger.warning(
                f"claims: label {label} defined twice ({other[0]})",
                location=(docname, self.lineno),
            )
        std.anonlabels[label] = (docname, node_id)
        std.labels[label] = (docname, node_id, title)

    def depend_on_sources(self) -> None:
        """Re-read this page when the data or any chapter's table changes."""
        inv = inventory(self.env)
        for path in inv.files():
            self.env.note_dependency(str(path))
        for docname in sorted({r.docname for r in table_rows(self.env)}):
            self.env.note_dependency(str(self.env.doc2path(docname)))

    def statement(self, entry: claims_data.Entry) -> str:
        """The one-line MyST statement of any id, for tables."""
        data = entry.data
        if entry.kind == "claim":
            text = data["statement"]
            if data["see"]:
                text += " See " + ", ".join(data["see"]) + "."
            return text
        if entry.kind in ("error", "gap"):
            return data["summary"]
        if entry.kind == "row":
            book = data["symbol"]
            differing = [
                f"{note} {symbol}"
                for note, symbol in data["notes"].items()
                if symbol != book
            ]
            text = f"{data['meaning']}: {book}"
            if differing:
                text += "; " + "; ".join(differing)
            return text
        return data["statement"]

    def checks(self, entry_id: str, exclude_doc: str | None = None):
        """Bullet list "chapter: where it is checked" from the tables."""
        rows = claims_data.checked_in(table_rows(self.env)).get(entry_id, [])
        items = nodes.bullet_list("", classes=["inventory-checks"])
        for row in rows:
            if row.docname == exclude_doc:
                continue
            item = nodes.list_item()
            item += self.paragraph(
                doc_link(row.docname, self.env.docname),
                ": ",
                self.inline_myst(row.where),
            )
            items += item
        return items


# --------------------------------------------------------------------------
# Tables in the chapters
# --------------------------------------------------------------------------


def build_table(headers, rows, classes, widths=None):
    """A docutils table; ``widths`` (relative) fixes the column widths."""
    sizing = "colwidths-given" if widths else "colwidths-auto"
    table = nodes.table("", classes=[sizing, *classes])
    group = nodes.tgroup("", cols=len(headers))
    table += group
    for width in widths or [1] * len(headers):
        group += nodes.colspec("", colwidth=width)
    head = nodes.thead()
    group += head
    row = nodes.row()
    for header in headers:
        row += nodes.entry("", nodes.paragraph(header, header))
    head += row
    body = nodes.tbody()
    group += body
    for cells, ids in rows:
        row = nodes.row(ids=list(ids))
        for cell in cells:
            entry = nodes.entry()
            if isinstance(cell, list):
                entry.extend(cell)
            else:
                entry += cell
            row += entry
        body += row
    return table


class TableDirective(InventoryDirective):
    """Shared by ``claims-table`` and ``errata-table``."""

    has_content = True
    required_arguments = 0
    optional_arguments = 0

    def rows(self):
        inv = inventory(self.env)
        for path in inv.files():
            self.env.note_dependency(str(path))
        parsed, bad = claims_data.parse_rows(list(self.content))
        for line in bad:
            logger.warning(
                f"claims: a {self.name} line must read 'ID: where it is "
                f"checked', not {line!r}",
                location=(self.env.docname, self.lineno),
            )
        seen = set()
        for offset, eid, where in parsed:
            entry = inv.entries.get(eid)
            line = self.content_offset + offset
            if entry is None:
                logger.warning(
                    f"claims: {eid} is not in the inventory (reference/)",
                    location=(self.env.docname, line + 1),
                )
                continue
            if eid in seen:
                logger.warning(
                    f"claims: {eid} listed twice in one table",
                    location=(self.env.docname, line + 1),
                )
            seen.add(eid)
            yield entry, where, line


class ClaimsTable(TableDirective):
    def run(self):
        rows = []
        for entry, where, line in self.rows():
            id_cell = self.paragraph(
                id_link(entry, self.env.docname), classes=[NO_LINK]
            )
            rows.append(
                (
                    [
                        id_cell,
                        self.myst(self.statement(entry)),
                        self.myst(where, line),
                    ],
                    (),
                )
            )
        table = build_table(
            ["Claim", "What the notes say", "Where it is checked"],
            rows,
            ["claims-table"],
        )
        return [table]


class ErrataTable(TableDirective):
    def run(self):
        rows = []
        for entry, where, line in self.rows():
            if entry.kind not in ("error", "gap"):
                logger.warning(
                    f"claims: {entry.id} is not an error or gap; list it in "
                    "a claims-table",
                    location=(self.env.docname, line + 1),
                )
                continue
            id_cell = self.paragraph(
                id_link(entry, self.env.docname), classes=[NO_LINK]
            )
            rows.append(
                (
                    [
                        id_cell,
                        self.myst(entry.data["says"]),
                        self.myst(entry.data["correct"]),
                        self.myst(where, line),
                    ],
                    (),
                )
            )
        return [
            build_table(
                ["Id", "The notes write", "Correct", "Where it is checked"],
                rows,
                ["errata-table"],
            )
        ]


# --------------------------------------------------------------------------
# Reference pages
# --------------------------------------------------------------------------


def note_title(inv, note: str) -> str:
    return f"{note} · {inv.notes[note]['short']}"


class NoteSections(InventoryDirective):
    """A directive that returns one section per note."""

    def note_section(self, note: str, prefix: str):
        inv = inventory(self.env)
        title = note_title(inv, note)
        section = nodes.section(
            ids=[f"{prefix}-{note}"], names=[title.lower()]
        )
        section += nodes.title(title, title)
        meta = inv.notes[note]
        section += self.paragraph(
            self.inline_myst(
                f"{meta['title']} {{cite:p}}`{meta['cite']}`. {meta['places']}"
            )
        )
        return section


class ClaimsIndex(NoteSections):
    """All claims, grouped by note, with a filter box."""

    has_content = False
    option_spec = {"class": directives.class_option}

    def run(self):
        self.depend_on_sources()
        inv = inventory(self.env)
        out = [
            nodes.raw(
                "",
                '<div class="inventory-filter" role="search">'
                '<label for="inventory-filter-input">Filter the claims'
                "</label> "
                '<input id="inventory-filter-input" type="search" '
                'autocomplete="off" placeholder="an id, a word, a chapter: '
                'S003, centring, kernel" '
                'aria-describedby="inventory-filter-count">'
                ' <span id="inventory-filter-count" aria-live="polite"></span>'
                "</div>",
                format="html",
            )
        ]
        for note in claims_data.NOTE_IDS:
            section = self.note_section(note, "claims-note")
            for entry in inv.claims:
                if entry.notes[0] == note:
                    section += self.claim_entry(entry)
            out.append(section)
        return out

    def claim_entry(self, entry):
        data = entry.data
        box = nodes.container(
            "", ids=[entry.label], classes=["inventory-entry", "claim-entry"]
        )
        kinds = " and ".join(
            claims_data.KINDS[k] for k in data["kind"].split("/")
        )
        head = self.paragraph(
            nodes.strong(entry.id, entry.id),
            " ",
            nodes.inline(kinds, kinds, classes=["inventory-kind"]),
            " ",
            nodes.inline(
                "",
                "",
                *self.inline_myst(data["section"]),
                classes=["inventory-place"],
            ),
            classes=["inventory-head", NO_LINK],
        )
        box += head
        box += self.myst(self.statement(entry))
        checks = self.checks(entry.id)
        if len(checks):
            box += self.paragraph("Checked in:", classes=["inventory-label"])
            box += checks
        else:
            logger.warning(
                f"claims: {entry.id} is in no chapter's claims table",
                location=(self.env.docname, self.lineno),
            )
        self.register(entry.label, entry.label, entry.id)
        return box


class ErrataList(NoteSections):
    """All errors and gaps, grouped by note; an entry repeats in each note."""

    has_content = False

    def run(self):
        self.depend_on_sources()
        inv = inventory(self.env)
        out, anchored = [], set()
        for note in claims_data.NOTE_IDS:
            section = self.note_section(note, "errata-note")
            for kind, heading in (("error", "Errors"), ("gap", "Gaps")):
                entries = [e for e in inv.of_kind(kind) if note in e.notes]
                if not entries:
                    continue
                sub = nodes.section(
                    ids=[f"errata-note-{note}-{kind}s"],
                    names=[f"{note} {heading.lower()}"],
                )
                text = f"{heading} ({note})"
                sub += nodes.title(text, text)
                for entry in entries:
                    sub += self.erratum(entry, note, entry.id not in anchored)
                    anchored.add(entry.id)
                section += sub
            out.append(section)
        return out

    def erratum(self, entry, note, first: bool):
        data = entry.data
        node_id = entry.label if first else f"{entry.label}-in-{note}"
        box = nodes.container(
            "", ids=[node_id], classes=["inventory-entry", "erratum-entry"]
        )
        others = sorted(n for n in entry.notes if n != note)
        head = [
            nodes.strong(entry.id, entry.id),
            " ",
            nodes.inline(
                "",
                "",
                *self.inline_myst(data["place"]),
                classes=["inventory-place"],
            ),
        ]
        if others:
            head += [
                " ",
                nodes.inline(
                    "", "also " + ", ".join(others), classes=["inventory-kind"]
                ),
            ]
        box += self.paragraph(*head, classes=["inventory-head", NO_LINK])
        fields = nodes.field_list(classes=["inventory-fields"])
        says = "The notes say" if entry.kind == "error" else "The notes"
        correct = "Correct" if entry.kind == "error" else "What is missing"
        for name, value in ((says, data["says"]), (correct, data["correct"])):
            fields += nodes.field(
                "",
                nodes.field_name(name, name),
                nodes.field_body("", *self.myst(value)),
            )
        checks = self.checks(entry.id)
        label = claims_data.check_label(entry.id)
        for docname in check_labels(self.env).get(label, []):
            # The place a chapter labelled `check-<id>` comes first.
            ref = addnodes.pending_xref(
                "",
                refdomain="std",
                reftype="ref",
                reftarget=label,
                refexplicit=True,
                refwarn=True,
                refdoc=self.env.docname,
            )
            ref += nodes.inline("", "the check of the correction")
            item = nodes.list_item()
            item += self.paragraph(
                doc_link(docname, self.env.docname), ": ", ref
            )
            checks.insert(0, item)
        if data.get("checked"):
            item = nodes.list_item()
            item += self.paragraph(self.inline_myst(data["checked"]))
            checks += item
        pending = entry.pending
        if pending:
            item = nodes.list_item(classes=["pending-check"])
            label = pending["label"]
            ref = addnodes.pending_xref(
                "",
                refdomain="std",
                reftype="ref",
                reftarget=label,
                refexplicit=True,
                refwarn=True,
                refdoc=self.env.docname,
            )
            ref += nodes.literal(label, label)
            item += self.paragraph(
                "To come in ",
                doc_link("chapters/" + pending["doc"], self.env.docname),
                " (label ",
                ref,
                "): ",
                self.inline_myst(pending["needs"]),
            )
            checks += item
        if not len(checks):
            logger.warning(
                f"claims: {entry.id} has no check: label its place in a "
                f"chapter ({claims_data.check_label(entry.id)}), or give it "
                "'pending' in errata.yaml",
                location=(self.env.docname, self.lineno),
            )
        fields += nodes.field(
            "",
            nodes.field_name("Checked in", "Checked in"),
            nodes.field_body("", checks),
        )
        box += fields
        if first:
            self.register(entry.label, node_id, entry.id)
        return box


class NotationIndex(InventoryDirective):
    """The common notation with each note's symbols, and P1-P9."""

    has_content = False
    option_spec = {"part": directives.unchanged}

    def run(self):
        self.depend_on_sources()
        part = self.options.get("part", "symbols")
        if part == "scaling":
            return [self.scaling()]
        return [self.symbols()]

    def symbols(self):
        inv = inventory(self.env)
        rows = []
        for symbol in inv.symbols:
            row_id = symbol.get("row")
            meaning = []
            if row_id:
                meaning.append(
                    self.paragraph(
                        nodes.strong(row_id, row_id),
                        classes=["inventory-row-id", NO_LINK],
                    )
                )
            meaning += self.myst(symbol["meaning"])
            introduced = [
                "Introduced in ",
                doc_link("chapters/" + symbol["chapter"], self.env.docname),
            ]
            if symbol.get("where"):
                introduced += [", ", *self.inline_myst(symbol["where"])]
            meaning.append(
                self.paragraph(*introduced, classes=["inventory-introduced"])
            )
            if row_id:
                checks = self.checks(row_id)
                if len(checks):
                    meaning.append(
                        self.paragraph(
                            "Checked in:", classes=["inventory-label"]
                        )
                    )
                    meaning.append(checks)
                self.register(
                    inv.entries[row_id].label,
                    inv.entries[row_id].label,
                    row_id,
                )
            in_notes = nodes.bullet_list("", classes=["inventory-notes"])
            for note in claims_data.NOTE_IDS:
                item = nodes.list_item()
                value = symbol["notes"].get(note, "—")
                item += self.paragraph(
                    nodes.strong(note, note), " ", self.inline_myst(value)
                )
                in_notes += item
            rows.append(
                (
                    [self.myst(symbol["symbol"]), meaning, in_notes],
                    [inv.entries[row_id].label] if row_id else [],
                )
            )
        return build_table(
            ["Symbol", "Meaning", "In the notes"], rows, ["notation-table"]
        )

    def scaling(self):
        inv = inventory(self.env)
        rows = []
        for entry in inv.of_kind("scaling"):
            data = entry.data
            checks = self.checks(entry.id)
            where = [
                self.paragraph(
                    self.inline_myst(f"{{ref}}`{data['section']}`"),
                )
            ]
            if len(checks):
                where.append(checks)
            rows.append(
                (
                    [
                        self.paragraph(
                            nodes.strong(entry.id, entry.id), classes=[NO_LINK]
                        ),
                        [
                            self.paragraph(
                                data["title"][:1].upper()
                                + data["title"][1:]
                                + ".",
                                classes=["inventory-head"],
                            ),
                            *self.myst(data["statement"]),
                        ],
                        where,
                    ],
                    [entry.label],
                )
            )
            self.register(entry.label, entry.label, entry.id)
        return build_table(
            ["Id", "Statement", "Stated and checked in"],
            rows,
            ["scaling-table"],
        )


# --------------------------------------------------------------------------
# Ids in prose become links
# --------------------------------------------------------------------------

#: Nodes whose text is never linked.
SKIP = (
    nodes.title,
    nodes.subtitle,
    nodes.rubric,
    nodes.literal,
    nodes.literal_block,
    nodes.doctest_block,
    nodes.math,
    nodes.math_block,
    nodes.raw,
    nodes.reference,
    nodes.target,
    nodes.comment,
    nodes.image,
    nodes.FixedTextElement,
    addnodes.pending_xref,
    addnodes.desc_signature,
    addnodes.toctree,
)


def linkable(text: nodes.Text) -> bool:
    """True for text in a paragraph, or in the title of a theorem, exercise
    or admonition; never in a section heading (its anchor and the contents
    list would carry the link), code, math or an existing link."""
    node, in_paragraph = text.parent, False
    while node is not None:
        if isinstance(node, nodes.title) and not isinstance(
            node.parent, (nodes.section, nodes.document, nodes.table)
        ):
            in_paragraph = True
            node = node.parent
            continue
        if isinstance(node, SKIP):
            return False
        if NO_LINK in node.get("classes", []):
            return False
        if isinstance(node, nodes.paragraph):
            in_paragraph = True
        node = node.parent
    return in_paragraph


class IdLinker(SphinxTransform):
    """Link every inventory id in paragraphs to its entry."""

    default_priority = 880  # after the parser and myst's own transforms

    def apply(self, **kwargs) -> None:
        inv = inventory(self.env)
        docname = self.env.docname
        for text in list(self.document.findall(nodes.Text)):
            if not claims_data.PROSE_ID.search(text.astext()):
                continue
            if not linkable(text):
                continue
            source = text.astext()
            pieces, last = [], 0
            for match in claims_data.PROSE_ID.finditer(source):
                entry = inv.entries.get(claims_data.prose_id(match))
                if entry is None:
                    logger.warning(
                        f"claims: {match.group(0)} looks like an id of the "
                        "claims inventory but is not in it",
                        location=text.parent,
                        type="claims",
                        subtype="unknown-id",
                    )
                    continue
                whole = match.group(0)
                pieces.append(nodes.Text(source[last : match.start()]))
                pieces.append(id_link(entry, docname, whole))
                last = match.end()
            if not pieces:
                continue
            pieces.append(nodes.Text(source[last:]))
            parent = text.parent
            index = parent.index(text)
            parent.remove(text)
            for offset, piece in enumerate(
                p
                for p in pieces
                if p.astext() or not isinstance(p, nodes.Text)
            ):
                parent.insert(index + offset, piece)


# --------------------------------------------------------------------------
# Pending checks and static files
# --------------------------------------------------------------------------


def tolerate_pending(app, env, node, contnode):
    """Missing references to labels listed as pending render as plain text."""
    if node.get("refdomain") != "std" or node.get("reftype") != "ref":
        return None
    label = node.get("reftarget", "")
    if label in inventory(env).pending:
        return nodes.inline("", "", contnode, classes=["pending-label"])
    return None


def report_pending(app: Sphinx, env) -> None:
    labels = env.get_domain("std").anonlabels
    pending = inventory(env).pending
    still = sorted(label for label in pending if label not in labels)
    done = sorted(label for label in pending if label in labels)
    if still:
        logger.info(
            "claims: checks still pending (reference/errata.yaml): "
            + ", ".join(f"{pending[lab].id} -> {lab}" for lab in still)
        )
    for label in done:
        logger.info(
            f"claims: the pending check {label} of {pending[label].id} now "
            "exists; remove 'pending' from reference/errata.yaml"
        )


def add_static(app: Sphinx, config) -> None:
    config.html_static_path.append(str(STATIC))


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", add_static)
    app.add_js_file("inventory-filter.js", defer="defer")
    app.add_css_file("inventory.css")
    app.connect("env-before-read-docs", refresh)
    app.connect("missing-reference", tolerate_pending)
    app.connect("env-check-consistency", report_pending)
    app.add_directive("claims-table", ClaimsTable)
    app.add_directive("errata-table", ErrataTable)
    app.add_directive("claims-index", ClaimsIndex)
    app.add_directive("errata-list", ErrataList)
    app.add_directive("notation-index", NotationIndex)
    app.add_transform(IdLinker)
    claims_api.setup(app)
    return {
        "version": "1.0",
        "parallel_read_safe": False,
        "parallel_write_safe": True,
    }
