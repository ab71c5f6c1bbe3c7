"""One author-year citation style, the same in the text and in the list.

sphinxcontrib-bibtex writes in-text citations in author-year form
(``bibtex_reference_style``) but labels the reference list with pybtex's
``alpha`` labels ("[PVG+11]") and sorts it by those labels; two sources by the
same author in the same year, or with no year, get the same in-text
citation. This extension registers, and ``_config.yml`` selects:

``pybtex.style.labels`` / ``authoryear``
    Labels ``"Pearson, 1901"``, ``"Eckart and Young, 1936"``,
    ``"Schölkopf et al., 1998"``; ``n.d.`` when the entry has no year; a
    letter after the year when two entries would share a label
    (``"Turk and Pentland, 1991a"``, ``"IIT Madras, n.d.b"``), assigned in
    the order of the list.
``pybtex.style.sorting`` / ``authoryear``
    The list sorted by that author part (accents folded, case ignored),
    then year, then title.
``pybtex.style.formatting`` / ``authoryear``
    pybtex's ``unsrt`` entry formatting with the two styles above.
``sphinxcontrib.bibtex.style.referencing`` / ``author_year_label``
    ``{cite:p}`` renders ``(label)`` and ``{cite:t}`` renders
    ``Author (year)``, both cut from the entry's label, so the text and the
    list cannot disagree.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass

from pybtex.plugin import register_plugin as register_pybtex_plugin
from pybtex.richtext import Text
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting import BaseSortingStyle
from pybtex.style.template import node
from sphinx.application import Sphinx
from sphinxcontrib.bibtex.plugin import (
    register_plugin as register_bibtex_plugin,
)
from sphinxcontrib.bibtex.style.referencing import BracketStyle
from sphinxcontrib.bibtex.style.referencing.author_year import (
    AuthorYearReferenceStyle,
)
from sphinxcontrib.bibtex.style.referencing.basic_author_year import (
    BasicAuthorYearParentheticalReferenceStyle,
    BasicAuthorYearTextualReferenceStyle,
)
from sphinxcontrib.bibtex.style.template import (
    join,
    join2,
    post_text,
    pre_text,
    reference,
)

STYLE = "authoryear"
REFERENCE_STYLE = "author_year_label"
#: Separates the author part of a label from its year part.
SEP = ", "
NO_YEAR = "n.d."


def _plain(latex: str) -> str:
    """LaTeX to plain text: ``{IIT Madras}`` -> ``IIT Madras``."""
    return Text.from_latex(latex).render_as("text").strip()


def author_part(entry) -> str:
    """Who a citation names: surnames of the authors (else the editors)."""
    persons = entry.persons.get("author") or entry.persons.get("editor")
    if not persons:
        fallback = entry.fields.get("key") or entry.fields.get("title", "")
        return _plain(fallback)
    surnames = [
        _plain(" ".join(p.prelast_names + p.last_names)) for p in persons
    ]
    if len(surnames) == 1:
        return surnames[0]
    if len(surnames) == 2:
        return f"{surnames[0]} and {surnames[1]}"
    return f"{surnames[0]} et al."


def year_part(entry) -> str:
    return _plain(entry.fields.get("year", "")) or NO_YEAR


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class AuthorYearSortingStyle(BaseSortingStyle):
    def sorting_key(self, entry):
        year = year_part(entry)
        return (
            _fold(author_part(entry)).casefold(),
            # Undated entries after dated ones of the same author.
            (year == NO_YEAR, year),
            _fold(_plain(entry.fields.get("title", ""))).casefold(),
        )


class AuthorYearLabelStyle(BaseLabelStyle):
    def format_labels(self, sorted_entries):
        bases = [
            f"{author_part(e)}{SEP}{year_part(e)}" for e in sorted_entries
        ]
        shared = Counter(bases)
        seen: Counter = Counter()
        for base in bases:
            if shared[base] == 1:
                yield base
            else:
                yield base + "abcdefghijklmnopqrstuvwxyz"[seen[base]]
                seen[base] += 1


class AuthorYearStyle(UnsrtStyle):
    default_label_style = STYLE
    default_sorting_style = STYLE


def _label(data) -> str:
    return data["formatted_entry"].label


@node
def label_author(children, data):
    """The author part of the cited entry's label."""
    assert not children
    return Text(_label(data).rpartition(SEP)[0])


@node
def label_year(children, data):
    """The year part (with its letter, if any) of the cited entry's label."""
    assert not children
    return Text(_label(data).rpartition(SEP)[2])


@dataclass
class _Parenthetical(BasicAuthorYearParentheticalReferenceStyle):
    def inner(self, role_name):
        return join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[
            pre_text,
            reference[
                join(sep=self.author_year_sep)[label_author, label_year]
            ],
            post_text,
        ]


@dataclass
class _Textual(BasicAuthorYearTextualReferenceStyle):
    def inner(self, role_name):
        return join(sep=self.text_reference_sep)[
            label_author,
            join[
                self.bracket.left,
                join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[
                    pre_text, reference[label_year], post_text
                ],
                self.bracket.right,
            ],
        ]


@dataclass
class AuthorYearLabelReferenceStyle(AuthorYearReferenceStyle):
    """sphinxcontrib-bibtex's author-year roles, with author and year cut
    from the label, so "(Turk and Pentland, 1991a)" in the text matches the
    list. Other roles (``cite:author``, ``cite:year``, ...) are unchanged."""

    def __post_init__(self):
        super().__post_init__()
        self.styles[0] = _Parenthetical(
            bracket=self.bracket_parenthetical,
            person=self.person,
            author_year_sep=self.author_year_sep,
            pre_text_sep=self.pre_text_sep,
            post_text_sep=self.post_text_sep,
        )
        self.styles[1] = _Textual(
            bracket=self.bracket_textual,
            person=self.person,
            text_reference_sep=self.text_reference_sep,
            pre_text_sep=self.pre_text_sep,
            post_text_sep=self.post_text_sep,
        )
        # GroupReferenceStyle maps role names to styles when it is built.
        self.role_style.update(
            (role, style)
            for style in self.styles[:2]
            for role in style.role_names()
        )


def _parentheses() -> BracketStyle:
    return BracketStyle(left="(", right=")")


@dataclass
class _RoundAuthorYearLabelReferenceStyle(AuthorYearLabelReferenceStyle):
    def __post_init__(self):
        self.bracket_parenthetical = _parentheses()
        self.bracket_textual = _parentheses()
        super().__post_init__()


def setup(app: Sphinx) -> dict:
    register_pybtex_plugin("pybtex.style.labels", STYLE, AuthorYearLabelStyle)
    register_pybtex_plugin(
        "pybtex.style.sorting", STYLE, AuthorYearSortingStyle
    )
    register_pybtex_plugin("pybtex.style.formatting", STYLE, AuthorYearStyle)
    register_bibtex_plugin(
        "sphinxcontrib.bibtex.style.referencing",
        REFERENCE_STYLE,
        _RoundAuthorYearLabelReferenceStyle,
        force=True,
    )
    return {
        "version": "1.0",
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
