// The system's colours before app.js applies the saved theme: no flash of light on dark screens.
// A file of its own, loaded before the body is drawn, because the page's security policy allows
// no inline script.
document.documentElement.classList.remove('no-js');
document.documentElement.dataset.scheme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
