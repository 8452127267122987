// The player's settings, kept in the browser: the last rules, opponent and side (a new visit
// starts from them), the last game's link (opened instead of a bad link), move numbers, the
// board's look, theme, language, and where the computer thinks (on this device, the default, or
// on the server).

const SETTINGS_KEY = 'mnk.settings';
const DEFAULTS = { rules: '15x15x5', opponent: 'level2', side: 'X', game: '', numbers: false, look: 'cells', theme: 'auto', lang: null, thinking: 'device' };

function loadSettings() {
  try {
    const s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}');
    return { ...DEFAULTS, ...(s && typeof s === 'object' ? s : {}) };
  } catch {
    return { ...DEFAULTS };
  }
}

/** The settings in use; change a field, then call `saveSettings`. */
export const settings = loadSettings();

export function saveSettings() {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    /* private mode or full storage: settings just do not persist */
  }
}

const systemDark = matchMedia('(prefers-color-scheme: dark)');

/**
 * Applies the theme setting: `data-theme` keeps the choice, `data-scheme` the colours in use.
 * `then` runs once the style applies (the canvas reads its colours from CSS variables).
 */
export function applyTheme(theme, then) {
  settings.theme = theme;
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.dataset.scheme = theme === 'auto' ? (systemDark.matches ? 'dark' : 'light') : theme;
  if (then) requestAnimationFrame(then);
}

/** Calls `listener` when the system's colour scheme changes. */
export function onSystemSchemeChange(listener) {
  systemDark.addEventListener('change', listener);
}
