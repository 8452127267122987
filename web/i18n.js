// Translations: English is built in and loaded with the page; Polish and Russian are loaded when
// chosen. Static text in index.html carries data-i18n keys; code asks t(key, params).

import en from './i18n/en.js';

export const LANGUAGES = { en: 'English', pl: 'Polski', ru: 'Русский' };

let dict = en;
let current = 'en';

export function lang() {
  return current;
}

/** The language the browser prefers, if we have it. */
export function detectLanguage() {
  const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  for (const p of prefs) {
    const base = String(p).toLowerCase().split('-')[0];
    if (base in LANGUAGES) return base;
  }
  return 'en';
}

export async function setLanguage(code) {
  if (!(code in LANGUAGES)) code = 'en';
  dict = code === 'en' ? en : (await import(`./i18n/${code}.js`)).default;
  current = code;
  document.documentElement.lang = code;
  translatePage();
}

/**
 * The string for `key` with {placeholders} filled in. When `params.n` is a number and the
 * language has a form of the key for its plural category (`key_one`, `key_few`, `key_many`,
 * `key_other`, by `Intl.PluralRules`: "1 ply", "2 półruchach", "5 полуходов"), that form is used.
 */
export function t(key, params) {
  let s = pluralForm(key, params) ?? dict[key] ?? en[key];
  if (s === undefined) return key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  return s;
}

/** Whether `key` has a text (in the player's language or in English). */
export function hasText(key) {
  return key in dict || key in en;
}

function pluralForm(key, params) {
  if (!params || typeof params.n !== 'number') return undefined;
  const category = new Intl.PluralRules(current).select(params.n);
  return dict[`${key}_${category}`];
}

export function translatePage(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  document.title = t('pageTitle');
}
