// The body of the print edition, assembled in one page of the HTML build
// (tools/build_pdf.py evaluates this with Playwright, then prints the page).
//
// `entries` lists, in reading order, what the body holds:
//   {kind: "preface", doc, title}            the root page, as "About this book"
//   {kind: "part", id, label, title}         a part's title page
//   {kind: "chapter", doc, number, title}    a page of _toc.yml (number: null
//                                            for the unnumbered appendix)
// Each becomes a <section id="pdf-..."> that starts on a new page; links
// between pages become links inside the PDF; the page's own screen furniture
// is removed; solutions move to the end of their chapter; the folded checks
// print as their label and what they printed; MathJax typesets it all.
async ({entries, textWidth, css}) => {
  const here = new URL(location.href);
  const slug = p => 'pdf-' + p.replace(/[^A-Za-z0-9]+/g, '-');
  const docs = entries.filter(e => e.doc).map(e => e.doc);
  const pageOf = new Map(docs.map(p => [new URL('/' + p + '.html', here).pathname, slug(p)]));
  const sections = [];
  const titles = [];

  const element = (tag, className, text) => {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  };

  async function article(doc) {
    const url = new URL('/' + doc + '.html', here);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const found = page.querySelector('article.bd-article');
    if (!found) throw new Error(`${url}: no article`);
    const s = slug(doc);
    for (const el of found.querySelectorAll('[id]')) el.id = `${s}--${el.id}`;
    for (const a of found.querySelectorAll('a[href]')) {
      const target = new URL(a.getAttribute('href'), url);
      if (target.origin !== here.origin) continue;           // external: kept
      const to = pageOf.get(target.pathname);
      if (!to) { a.removeAttribute('href'); continue; }      // not a page of the book
      const fragment = decodeURIComponent(target.hash.slice(1));
      a.setAttribute('href', '#' + (fragment ? `${to}--${fragment}` : to));
    }
    for (const img of found.querySelectorAll('img[src]')) {
      img.src = new URL(img.getAttribute('src'), url).href;
      img.loading = 'eager';
    }
    return found;
  }

  // Screen-only parts of an article: the claims filter box, copy buttons,
  // the root page's "how to run it" and its on-screen contents list.
  function dropScreenOnly(root) {
    for (const el of root.querySelectorAll(
        '.inventory-filter, .copybtn, .headerlink, .toctree-wrapper, .screen-only')) {
      el.remove();
    }
  }

  // A folded check cell prints as its label and its output; its code stays in
  // the notebooks and the online edition.
  function printChecks(root) {
    for (const cell of root.querySelectorAll('div.cell.tag_check')) {
      const label = cell.querySelector('summary .collapsed') ||
          cell.querySelector('summary p');
      const heading = element('p', 'kpca-pdf-check-label',
          label ? label.textContent.trim() : 'Check');
      cell.querySelector('details')?.remove();
      cell.querySelector('.cell_input')?.remove();
      cell.prepend(heading);
      cell.classList.add('kpca-pdf-check');
    }
    // Other folded inputs only draw a figure: the figure prints, not its code.
    for (const cell of root.querySelectorAll('div.cell.tag_hide-input')) {
      cell.querySelector('details')?.remove();
      cell.querySelector('.cell_input')?.remove();
    }
  }

  // A short block of code or output stays whole on its page; a longer one
  // may break between its lines (kept whole, it would leave a gap, or the
  // empty tail of its box, at the foot of the page). Heights are measured at
  // the print width, once the page is assembled and typeset.
  const SHORT_PX = 110;   // about 29 mm: a few lines
  function markBreakable(root) {
    // A block of code ends at its last character: trailing blank lines would
    // print as an empty strip of its box.
    for (const pre of root.querySelectorAll('pre')) {
      const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
      const texts = [];
      while (walker.nextNode()) texts.push(walker.currentNode);
      for (let i = texts.length - 1; i >= 0; i--) {
        texts[i].textContent = texts[i].textContent.replace(/\s+$/, '');
        if (texts[i].textContent) break;
      }
    }
    for (const el of root.querySelectorAll('div.cell_input, div.cell_output, pre')) {
      if (el.getBoundingClientRect().height > SHORT_PX) el.classList.add('kpca-pdf-long');
    }
  }

  // Solutions go to the end of their chapter, under a heading of their own.
  function moveSolutions(section) {
    const solutions = Array.from(section.querySelectorAll('.solution'));
    if (!solutions.length) return;
    const block = element('section', 'kpca-pdf-solutions');
    block.id = `${section.id}--pdf-solutions`;
    block.append(element('h2', null, 'Solutions to the exercises'));
    for (const solution of solutions) block.append(solution);
    section.append(block);
  }

  for (const entry of entries) {
    if (entry.kind === 'part') {
      const section = element('section', 'kpca-pdf-part');
      section.id = entry.id;
      section.append(element('p', 'kpca-pdf-part-label', entry.label));
      section.append(element('h1', 'kpca-pdf-part-title', entry.title));
      sections.push(section);
      titles.push({id: entry.id, title: `${entry.label}: ${entry.title}`});
      continue;
    }
    const found = await article(entry.doc);
    const section = element('section', `kpca-pdf-chapter kpca-pdf-${entry.kind}`);
    section.id = slug(entry.doc);
    section.append(...Array.from(found.childNodes).map(n => document.adoptNode(n)));
    dropScreenOnly(section);
    printChecks(section);
    if (entry.kind === 'preface') {
      // The subtitle is on the title page, the contents in the front matter;
      // "how to run it" is for the screen.
      section.querySelector('h1 + p > em:only-child')?.parentElement.remove();
      for (const sub of section.querySelectorAll('section')) {
        const h2 = sub.querySelector(':scope > h2');
        if (h2 && /^(how to run it|contents)$/i.test(h2.textContent.trim())) sub.remove();
      }
    }
    const h1 = section.querySelector('h1');
    const title = entry.title ||
        (h1 ? h1.textContent.replace(/\s+/g, ' ').trim() : entry.doc);
    if (h1) {
      h1.classList.add('kpca-pdf-chapter-title');
      h1.textContent = title;
      const opener = element('header', 'kpca-pdf-opener');
      if (entry.number !== null && entry.number !== undefined) {
        opener.append(element('p', 'kpca-pdf-chapter-label', `Chapter ${entry.number}`));
      } else if (entry.kind === 'chapter') {
        opener.append(element('p', 'kpca-pdf-chapter-label', 'Appendix'));
      }
      h1.replaceWith(opener);
      opener.append(h1);
    }
    moveSolutions(section);
    sections.push(section);
    titles.push({id: section.id, title});
  }

  // Chromium writes a named destination only for an element a link points
  // at; these invisible links make one for every part and chapter, which is
  // how the PDF builder finds their pages.
  const anchors = element('nav', 'kpca-pdf-anchors');
  anchors.setAttribute('aria-hidden', 'true');
  const targets = [...sections, ...sections.flatMap(s => [...s.querySelectorAll('section.kpca-pdf-solutions')])];
  for (const target of targets) {
    const a = element('a', null, '\u200b');
    a.href = '#' + target.id;
    anchors.append(a);
  }
  sections[0].prepend(anchors);
  const main = document.querySelector('article.bd-article');
  main.replaceChildren(...sections);
  // The page around the article: navigation, header, footer, buttons.
  for (const el of document.querySelectorAll(
      '.bd-header, .bd-header-article, .bd-sidebar-primary, .bd-sidebar-secondary, ' +
      '.prev-next-area, footer, .bd-footer, .bd-footer-article, .bd-footer-content, ' +
      '#pst-back-to-top, .skip-link, #pst-search-dialog, dialog, .search-button-field, ' +
      '#jb-print-docs-body')) {
    el.remove();
  }
  document.title = document.querySelector('meta[property="og:site_name"]')?.content || document.title;
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
  window.kpcaPrint.prepare(0);  // unfold only; equations are fitted after typesetting
  const t0 = performance.now();
  await MathJax.startup.promise;
  MathJax.typesetClear();
  await MathJax.typesetPromise([main]);
  const typesetSeconds = (performance.now() - t0) / 1000;
  const images = Array.from(document.images);
  await Promise.all(images.map(img => img.complete ? null : new Promise(resolve => {
    img.addEventListener('load', resolve, {once: true});
    img.addEventListener('error', resolve, {once: true});
  })));
  await document.fonts.ready;
  // Display equations fit the paper beside their numbers: the screen's
  // fitting may have put a number below its formula; on paper the number
  // stays beside it, and a formula too wide for the room left is set smaller
  // (relative to MathJax's own scale, never below half of it).
  for (const box of main.querySelectorAll('div.math.kpca-eqno-below')) {
    box.classList.remove('kpca-eqno-below');
  }
  for (const container of main.querySelectorAll('div.math > mjx-container[display="true"]')) {
    const math = container.querySelector('mjx-math');
    if (!math) continue;
    const own = container.dataset.kpcaFontSize ?? container.style.fontSize;
    const ownPercent = own && own.endsWith('%') ? parseFloat(own) : 100;
    container.style.fontSize = own;
    const natural = math.getBoundingClientRect().width;
    const room = Math.min(container.clientWidth, textWidth) - 2;
    if (natural > room && room > 0) {
      const scale = Math.max(0.5, Math.floor((1000 * room) / natural) / 1000);
      container.style.fontSize = `${(ownPercent * scale).toFixed(1)}%`;
    }
  }
  markBreakable(main);
  // Equation numbers beside their equations: each number sits level with its
  // formula and to its right.
  let eqnoBeside = 0, eqnoTotal = 0;
  const eqnoApart = [];
  for (const eqno of main.querySelectorAll('div.math > span.eqno')) {
    const formula = eqno.parentElement.querySelector('mjx-container');
    if (!formula) continue;
    eqnoTotal += 1;
    const a = eqno.getBoundingClientRect(), b = formula.getBoundingClientRect();
    // Level: the two boxes' vertical centres within half the taller box.
    const level = Math.abs((a.top + a.bottom) / 2 - (b.top + b.bottom) / 2) <
        Math.max(a.height, b.height) / 2;
    if (level && a.left >= b.left + b.width / 2) eqnoBeside += 1;
    else eqnoApart.push(eqno.parentElement.id || eqno.textContent);
  }
  const broken = images.filter(img => img.naturalWidth === 0).map(img => img.src);
  const errors = Array.from(document.querySelectorAll('mjx-merror')).map(e => e.textContent);
  return {
    chapters: sections.length,
    titles,
    typesetSeconds,
    images: images.length,
    broken, errors,
    maths: document.querySelectorAll('mjx-container').length,
    eqnoBeside, eqnoTotal, eqnoApart,
    untypeset: Array.from(document.querySelectorAll('.math')).filter(el => !el.querySelector('mjx-container')).length,
  };
}
