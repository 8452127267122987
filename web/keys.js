// Keyboard shortcuts. Letters are read by physical key (`KeyD`), not by the character typed, so
// they work with every keyboard layout (a Cyrillic one types "в" on the D key).

const LETTERS = { KeyA: 'a', KeyE: 'e', KeyG: 'g', KeyI: 'i', KeyR: 'r', KeyN: 'n', KeyU: 'u', KeyH: 'h', KeyD: 'd', KeyT: 't', KeyW: 'w', KeyM: 'm', KeyC: 'c', KeyX: 'x' };

/** The shortcut an event means: a letter above, an unmodified key name, '?' or null. */
export function shortcutOf(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  if (e.key === '?' || (e.code === 'Slash' && e.shiftKey)) return '?';
  if (e.code in LETTERS) return LETTERS[e.code];
  if (['Escape', 'ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return e.key;
  return null;
}

/**
 * Listens for shortcuts on the document; `actions` maps a shortcut to what it does, unless
 * `blocked(shortcut)` says not now. Keys go to text fields and open dialogs undisturbed, and
 * arrows the board's grid already used (moving its focus) are not steps through the game.
 */
export function bindKeys(actions, { blocked }) {
  document.addEventListener('keydown', (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (e.defaultPrevented) return;
    const key = shortcutOf(e);
    if (blocked(key)) return;
    const action = key && actions[key];
    if (!action) return;
    e.preventDefault();
    action();
  });
}
