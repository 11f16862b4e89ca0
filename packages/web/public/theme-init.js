// Applies the stored theme before the first paint (spec: key `theme`, default light). A file, not an inline
// script, so a Content-Security-Policy of script-src 'self' lets it run.
try {
  if (localStorage.getItem('theme') === 'dark') document.documentElement.classList.add('dark');
} catch (_) {}
