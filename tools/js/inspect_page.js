() => {
  const maths = Array.from(document.querySelectorAll('.math'));
  const untypeset = maths.filter(el => !el.querySelector('mjx-container'))
                         .map(el => el.textContent.trim().slice(0, 120));
  const mathErrors = Array.from(document.querySelectorAll('mjx-merror, [data-mjx-error]'))
                          .map(el => (el.getAttribute('data-mjx-error') || el.textContent).slice(0, 120));
  if (document.body.innerText.includes('Math input error')) mathErrors.push('Math input error');
  const brokenImages = Array.from(document.images)
      .filter(img => !img.complete || img.naturalWidth === 0)
      .map(img => img.currentSrc || img.src);
  const hrefs = Array.from(document.querySelectorAll('a[href]')).map(a => a.href);
  return {nMath: maths.length, untypeset, mathErrors, brokenImages, hrefs};
}
