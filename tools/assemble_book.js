async ({pages, textWidth}) => {
  const here = new URL(location.href);
  const slug = p => 'pdf-' + p.replace(/[^A-Za-z0-9]+/g, '-');
  const pageOf = new Map(pages.map(p => [new URL('/' + p + '.html', here).pathname, slug(p)]));
  const sections = [];
  for (const p of pages) {
    const url = new URL('/' + p + '.html', here);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
    const article = doc.querySelector('article.bd-article');
    if (!article) throw new Error(`${url}: no article`);
    const s = slug(p);
    for (const el of article.querySelectorAll('[id]')) el.id = `${s}--${el.id}`;
    for (const a of article.querySelectorAll('a[href]')) {
      const target = new URL(a.getAttribute('href'), url);
      if (target.origin !== here.origin) continue;           // external: kept
      const to = pageOf.get(target.pathname);
      if (!to) { a.removeAttribute('href'); continue; }      // not a page of the book
      const fragment = decodeURIComponent(target.hash.slice(1));
      a.setAttribute('href', '#' + (fragment ? `${to}--${fragment}` : to));
    }
    for (const img of article.querySelectorAll('img[src]')) {
      img.src = new URL(img.getAttribute('src'), url).href;
      img.loading = 'eager';
    }
    const section = document.createElement('section');
    section.className = 'kpca-pdf-chapter';
    section.id = s;
    section.append(...Array.from(article.childNodes).map(n => document.adoptNode(n)));
    sections.push(section);
  }
  const titles = sections.map(section => {
    const h1 = section.querySelector('h1');
    const clone = h1 ? h1.cloneNode(true) : null;
    if (clone) clone.querySelectorAll('.headerlink').forEach(a => a.remove());
    return {id: section.id, title: clone ? clone.textContent.replace(/\s+/g, ' ').trim() : section.id};
  });
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
  style.textContent = `
    .kpca-pdf-chapter { break-before: page; }
    .kpca-pdf-chapter:first-child { break-before: auto; }
    .bd-main .bd-content .bd-article-container { max-width: none; padding: 0; }
    .bd-page-width { max-width: none; }
    .bd-container, .bd-container__inner, .bd-main, .bd-content, .bd-article { padding: 0 !important; margin: 0 !important; }
    a.kpca-book-pdf { color: inherit; text-decoration: none; }
    html, body { font-size: 10.5pt; }
  `;
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
  window.kpcaPrint.fitEquations(textWidth);
  const broken = images.filter(img => img.naturalWidth === 0).map(img => img.src);
  const errors = Array.from(document.querySelectorAll('mjx-merror')).map(e => e.textContent);
  return {
    chapters: sections.length,
    titles,
    typesetSeconds,
    images: images.length,
    broken, errors,
    maths: document.querySelectorAll('mjx-container').length,
    untypeset: Array.from(document.querySelectorAll('.math')).filter(el => !el.querySelector('mjx-container')).length,
  };
}
