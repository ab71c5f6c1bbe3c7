() => {
  const SLACK = 1;  // px of sub-pixel rounding
  const root = document.scrollingElement || document.documentElement;
  const viewWidth = root.clientWidth;
  const hidden = el => { const r = el.getBoundingClientRect(); return r.width === 0 && r.height === 0; };
  const describe = el => {
    const sec = el.closest('section[id]');
    const id = el.id || (el.closest('[id]') || {}).id || '';
    return `${el.tagName.toLowerCase()}${id ? '#' + id : ''}` +
           `${sec && sec.id !== id ? ' in #' + sec.id : ''}: ` +
           (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60);
  };
  function classify(el, content) {
    const r = content.getBoundingClientRect();
    for (let a = el; a; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'visible') continue;
      const box = a.getBoundingClientRect();
      const left = box.left + a.clientLeft, right = left + a.clientWidth;
      if (r.left >= left - SLACK && r.right <= right + SLACK) continue;
      if (ox === 'auto' || ox === 'scroll') return 'scrolls';
      if (a === document.documentElement || a === document.body) return 'page';
      return 'clipped';
    }
    return (r.left < -SLACK || r.right > viewWidth + SLACK) ? 'page' : 'fits';
  }
  const result = {equations: [], tables: [], eqnoOverlaps: []};
  for (const c of document.querySelectorAll('mjx-container[display="true"]')) {
    if (hidden(c)) continue;
    const content = c.querySelector('mjx-math') || c;
    const where = classify(c, content);
    result.equations.push({where, what: describe(c.closest('div.math') || c.parentElement)});
  }
  for (const div of document.querySelectorAll('div.math')) {
    const eqno = div.querySelector(':scope > .eqno');
    const c = div.querySelector('mjx-container');
    const m = c && c.querySelector('mjx-math');
    if (!eqno || !m || hidden(eqno)) continue;
    const e = eqno.getBoundingClientRect(), mr = m.getBoundingClientRect(), cr = c.getBoundingClientRect();
    const left = Math.max(mr.left, cr.left), right = Math.min(mr.right, cr.right);
    const overlap = Math.min(e.right, right) - Math.max(e.left, left);
    const vertical = Math.min(e.bottom, mr.bottom) - Math.max(e.top, mr.top);
    if (overlap > SLACK && vertical > SLACK) result.eqnoOverlaps.push(describe(div));
  }
  for (const t of document.querySelectorAll('main table')) {
    if (hidden(t)) continue;
    result.tables.push({where: classify(t.parentElement, t), what: describe(t)});
  }
  result.pageOverflow = Math.max(0, root.scrollWidth - root.clientWidth);
  result.offenders = [];
  if (result.pageOverflow > SLACK) {
    // The outermost elements that stick out of the page.
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.right <= viewWidth + SLACK || r.width === 0) continue;
      let inner = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const ox = getComputedStyle(a).overflowX;
        if (ox !== 'visible') { inner = true; break; }
        if (a.getBoundingClientRect().right > viewWidth + SLACK) { inner = true; break; }
      }
      if (!inner) result.offenders.push(describe(el));
      if (result.offenders.length >= 5) break;
    }
  }
  return result;
}
