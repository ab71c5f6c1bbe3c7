"""Search that finds what readers type: folded diacritics, both spellings.

Sphinx indexes each word of a page as written (stemmed), and the search page
stems the query the same way. So "Nystrom" finds nothing when the book writes
"Nyström", and "centering" (American) misses the chapter on "centring". This
extension indexes, next to every word, the forms a reader may type instead:

* the word without its diacritics ("nyström" -> "nystrom") and with German
  umlauts transliterated ("nyström" -> "nystroem");
* its other spelling, British or American ("centring" <-> "centering",
  "normalise" <-> "normalize", "colour" <-> "color"), from :data:`SPELLINGS`.

It also writes the search page's scorer (``html_search_scorer``): a page whose
title holds every word of the query, in any of these forms, ranks first, and
a section whose title does ranks next. The scorer receives the same folding
and spelling rules as JSON, so the page and the index agree on them.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.search.en import SearchEnglish

#: Transliterations tried besides dropping the accent.
TRANSLITERATIONS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}

#: Spelling variants as (British, American) regular expressions over a whole
#: lower-case word. The two sides have the same groups, which are kept: each
#: rule rewrites a word that matches one side into the other side's spelling.
SPELLINGS: list[tuple[str, str]] = [
    (r"(\w*)centre", r"(\w*)center"),
    (r"(\w*)centres", r"(\w*)centers"),
    (r"(\w*)centred", r"(\w*)centered"),
    (r"(\w*)centring", r"(\w*)centering"),
    (
        r"(\w{3,}[^aeiouw])is(e|es|ed|ing|ation|ations|er|ers)",
        r"(\w{3,}[^aeiouw])iz(e|es|ed|ing|ation|ations|er|ers)",
    ),
    (
        r"(colo|behavio|neighbo|favo|labo|flavo|harbo|rumo|vapo)ur(s|ed|ing)?",
        r"(colo|behavio|neighbo|favo|labo|flavo|harbo|rumo|vapo)r(s|ed|ing)?",
    ),
    (
        r"(model|label|travel|cancel|signal)l(ed|ing|er|ers)",
        r"(model|label|travel|cancel|signal)(ed|ing|er|ers)",
    ),
    (
        r"(analy|paraly|cataly)s(e|es|ed|ing)",
        r"(analy|paraly|cataly)z(e|es|ed|ing)",
    ),
]
#: Words that end like a British -ise verb but have no -ize spelling.
NOT_ISE = set(
    """
    advise advised advises advising arise arises arising chastise comprise
    comprised comprises comprising compromise compromised concise devise
    devised devises devising disguise disguised enterprise exercise
    exercised exercises exercising expertise franchise improvise
    improvised merchandise otherwise paradise precise premise premises
    promise promised promises promising raise raised raises raising revise
    revised revises revising supervise supervised surmise surprise
    surprised surprises surprising televise treatise likewise clockwise
    pairwise elementwise entrywise rowwise noise noises poise anise
    concisely precisely imprecise excise
    """.split()
)


_GROUP = re.compile(r"\((?:[^()]|\([^()]*\))*\)\??")


def _template(pattern: str) -> str:
    """A rule's replacement: ``pattern`` with its groups as $1, $2, ..."""
    numbers = iter(range(1, 100))
    return _GROUP.sub(lambda _: f"${next(numbers)}", pattern)


#: The directed rules (pattern, replacement with $1, $2, ...): both ways.
RULES: list[tuple[str, str]] = [
    rule
    for british, american in SPELLINGS
    for rule in (
        (british, _template(american)),
        (american, _template(british)),
    )
]


def _respell(word: str) -> set[str]:
    forms = set()
    for pattern, template in RULES:
        match = re.fullmatch(pattern, word)
        if match:
            forms.add(
                re.sub(
                    r"\$(\d)",
                    lambda g, m=match: m.group(int(g[1])) or "",
                    template,
                )
            )
    return forms


def fold(word: str) -> str:
    """``word`` in lower case without diacritics: "Nyström" -> "nystrom"."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def variants(word: str) -> set[str]:
    """The other forms of ``word`` a reader may type (``word`` excluded)."""
    lower = word.lower()
    forms = {fold(lower)}
    transliterated = lower
    for letter, latin in TRANSLITERATIONS.items():
        transliterated = transliterated.replace(letter, latin)
    forms.add(fold(transliterated))
    for form in list(forms):
        if form not in NOT_ISE:
            forms |= _respell(form)
    forms.discard(lower)
    return forms


class SearchEnglishFolded(SearchEnglish):
    """English search that also indexes the folded and respelled forms."""

    def split(self, input: str) -> list[str]:  # noqa: A002 - Sphinx's name
        words = super().split(input)
        extra = [form for word in words for form in sorted(variants(word))]
        return words + extra


SCORER_TEMPLATE = (Path(__file__).with_name("search_scorer.js")).read_text(
    encoding="utf-8"
)


def scorer_code() -> str:
    """The search page's Scorer, with the folding rules filled in."""
    data = {
        "rules": RULES,
        "transliterations": TRANSLITERATIONS,
        "notIse": sorted(NOT_ISE),
    }
    return SCORER_TEMPLATE.replace(
        "/*RULES*/null", json.dumps(data, ensure_ascii=False)
    )


def write_scorer(app: Sphinx) -> None:
    # html_search_scorer is a file the HTML builder reads once it starts
    # writing; write it next to the doctrees and point the option at it.
    path = Path(app.doctreedir) / "kpca_search_scorer.js"
    path.parent.mkdir(parents=True, exist_ok=True)
    code = scorer_code()
    if not path.is_file() or path.read_text(encoding="utf-8") != code:
        path.write_text(code, encoding="utf-8")
    app.config.html_search_scorer = str(path)


def setup(app: Sphinx) -> dict:
    app.add_search_language(SearchEnglishFolded)
    app.connect("builder-inited", write_scorer)
    return {
        "version": "1.0",
        # The index changes when the rules do.
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
