async () => {
  const images = Array.from(document.images);
  for (const img of images) { if (img.loading === 'lazy') img.loading = 'eager'; }
  await Promise.all(images.map(img => img.complete ? null :
    new Promise(resolve => { img.addEventListener('load', resolve, {once: true});
                             img.addEventListener('error', resolve, {once: true}); })));
  const maths = document.querySelectorAll('.math');
  let mathjax = 'not needed';
  if (maths.length) {
    if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {
      await window.MathJax.startup.promise;
      mathjax = window.MathJax.version || 'loaded';
    } else {
      mathjax = 'missing';
    }
  }
  await document.fonts.ready;
  return mathjax;
}
