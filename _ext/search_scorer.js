/* The search page's Scorer (html_search_scorer, written by
   _ext/search_terms.py, which fills in the folding rules).

   Sphinx's defaults, plus one rule: a page whose own title holds every word
   of the query ranks first, and a page with sections so titled ranks next
   (the more of them, the higher).
   Words are compared in every form the index holds (_ext/search_terms.py):
   without diacritics ("Nystrom" = "Nyström") and in both spellings
   ("centering" = "centring"), stemmed as the index stems them. */
var Scorer = {
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,

  folding: /*RULES*/null,
  pageTitleBoost: 40,
  sectionTitleBoost: 12,

  fold: (word) =>
    word.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, ""),

  // Every stemmed form of one word.
  forms: (word) => {
    if (!Scorer._stemmer) Scorer._stemmer = new Stemmer();
    const lower = word.toLowerCase();
    let transliterated = lower;
    for (const [letter, latin] of Object.entries(
      Scorer.folding.transliterations
    )) {
      transliterated = transliterated.split(letter).join(latin);
    }
    const found = new Set([lower, Scorer.fold(lower), Scorer.fold(transliterated)]);
    for (const form of [...found]) {
      if (Scorer.folding.notIse.includes(form)) continue;
      for (const [pattern, template] of Scorer.folding.rules) {
        const match = new RegExp("^(?:" + pattern + ")$").exec(form);
        if (match) {
          found.add(template.replace(/\$(\d)/g, (_, i) => match[+i] || ""));
        }
      }
    }
    return new Set([...found].map((w) => Scorer._stemmer.stemWord(w)));
  },

  words: (text) =>
    text.split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length > 0),

  // The query's words, each as the set of its stemmed forms.
  queryForms: () => {
    const query = new URLSearchParams(window.location.search).get("q") || "";
    if (Scorer._query !== query) {
      Scorer._query = query;
      Scorer._queryForms = Scorer.words(query)
        .filter((w) => !stopwords.includes(w.toLowerCase()))
        .filter((w) => !w.startsWith("-"))
        .map(Scorer.forms);
    }
    return Scorer._queryForms;
  },

  // Does ``title`` hold every word of the query, in one of its forms?
  titleMatches: (title) => {
    const query = Scorer.queryForms();
    if (!query.length || !title) return false;
    const have = new Set();
    for (const word of Scorer.words(title)) {
      for (const form of Scorer.forms(word)) have.add(form);
    }
    return query.every((forms) => [...forms].some((f) => have.has(f)));
  },

  // The section titles of each page, from the search index.
  sectionTitles: (docname) => {
    if (!Scorer._sections) {
      Scorer._sections = new Map();
      const index = Search._index;
      for (const [title, places] of Object.entries(index.alltitles)) {
        for (const [file, id] of places) {
          const name = index.docnames[file];
          if (!Scorer._sections.has(name)) Scorer._sections.set(name, []);
          if (id) Scorer._sections.get(name).push(title);
        }
      }
    }
    return Scorer._sections.get(docname) || [];
  },

  score: (result) => {
    const [docname, title, anchor, descr, score] = result;
    if (typeof Search === "undefined" || !Search._index) return score;
    const index = Search._index;
    const pageTitle = index.titles[index.docnames.indexOf(docname)];
    if (!anchor && descr === null && Scorer.titleMatches(pageTitle)) {
      return score + Scorer.pageTitleBoost;
    }
    const section = anchor ? title.split(" > ").pop() : null;
    if (section && Scorer.titleMatches(section)) {
      return score + Scorer.sectionTitleBoost;
    }
    // A page with sections on the query: the more, the higher.
    const sections = anchor
      ? 0
      : Scorer.sectionTitles(docname).filter(Scorer.titleMatches).length;
    if (sections) {
      return score + Scorer.sectionTitleBoost + Math.min(sections, 5);
    }
    return score;
  },
};
