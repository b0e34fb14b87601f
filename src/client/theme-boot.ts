// Runs before React: applies the saved theme so the first paint has the right colours.
try {
  const raw = localStorage.getItem('theme-storage');
  const theme = raw ? (JSON.parse(raw)?.state?.theme ?? 'system') : 'system';
  const dark = theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
} catch {
  // Storage unavailable: keep the default light theme.
}
