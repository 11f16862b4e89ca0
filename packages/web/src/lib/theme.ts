// Light and dark themes: kept under localStorage `theme` (default light), shown by the `dark` class on <html>.
export type Theme = 'light' | 'dark';
export const THEME_KEY = 'theme';

export function readTheme(storage: Pick<Storage, 'getItem'> = localStorage): Theme {
  try {
    return storage.getItem(THEME_KEY) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

export function storeTheme(theme: Theme, storage: Pick<Storage, 'setItem'> = localStorage): void {
  try {
    storage.setItem(THEME_KEY, theme);
  } catch {
    // Private mode: the theme still applies for this page.
  }
}

/** Spec section 3: the theme is kept under `theme`, default light; a first visit writes the default. */
export function initTheme(storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage): Theme {
  const theme = readTheme(storage);
  try {
    if (storage.getItem(THEME_KEY) !== theme) storage.setItem(THEME_KEY, theme);
  } catch {
    // Private mode: the theme still applies for this page.
  }
  return theme;
}
