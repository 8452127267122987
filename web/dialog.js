// The new-game dialog: a preset or custom rules, the opening, the opponent with a description,
// the side (or, with a swap opening, the seat), who moves first. Rules are checked here for a clear message before the server checks them again.
// A select shows its options' whole text on a phone's width in every language: its options have
// short names, and what the chosen one means is said under it (the room dialog's opening too).

import { call } from './api.js';
import { describeError, refusalText } from './errors.js';
import { t } from './i18n.js';
import { rulesFrom } from './link.js';
import { opponentToString, parseOpponent, rulesToString } from './notation.js';
import { startGame } from './play.js';
import { settings } from './settings.js';
import { FALLBACK_PRESETS, store } from './store.js';
import { MoveTree } from './tree.js';
import { opponentTitle, presetTitle } from './view.js';

const $ = (id) => document.getElementById(id);
const form = $('form-new');

/** A preset's short name for the select (its full title is said under it). */
function presetName(p) {
  const key = `presetName_${p.id}`;
  const s = t(key);
  return s === key ? presetTitle(p) : s;
}

/** What each opening is, said under its select. */
const OPENING_TEXTS = { free: 'openingFree', swap: 'openingSwap', swap2: 'openingSwap2' };

/** Says under an opening select what the chosen opening is. */
function describeOpening(select, note) {
  $(note).textContent = t(OPENING_TEXTS[$(select).value] || 'openingFree');
}

export function fillDialog() {
  const { catalogue } = store;
  $('f-preset').replaceChildren(
    ...catalogue.presets.map((p) => new Option(presetName(p), p.id)),
    new Option(t('custom'), 'custom'),
  );
  const groups = [];
  const levels = catalogue.levels.length ? catalogue.levels : [1, 2, 3, 4, 5, 6].map((level) => ({ level }));
  const lg = document.createElement('optgroup');
  lg.label = t('levels');
  for (const l of levels) lg.appendChild(new Option(opponentTitle({ level: l.level }), `level${l.level}`));
  groups.push(lg);
  if (catalogue.bots.length) {
    const bg = document.createElement('optgroup');
    bg.label = t('bots');
    for (const b of catalogue.bots) bg.appendChild(new Option(opponentTitle({ bot: b.id }), b.id));
    groups.push(bg);
  }
  groups.push(new Option(t('secondPersonShort'), 'human'));
  $('f-opponent').replaceChildren(...groups);
}

function setDialogRules(r) {
  form.elements.unbounded.checked = Boolean(r.unbounded);
  form.elements.width.value = r.unbounded ? '' : r.width;
  form.elements.height.value = r.unbounded ? '' : r.height;
  form.elements.k.value = r.k;
  form.elements.win.value = r.win || 'freestyle';
  form.elements.first.value = r.first || 'X';
  syncDialog();
}

/**
 * Which opponents play the dialog's rules, as the server says (`GET /api/bots?rules=`): the
 * others are disabled with the reason as their tooltip. `support` is null until known.
 */
let support = null;
let supportKey = '';
let supportTimer = 0;

function askSupport(rules) {
  const key = rules ? rulesToString(rules) : '';
  if (key === supportKey) return;
  supportKey = key;
  support = null;
  clearTimeout(supportTimer);
  if (!rules) return applySupport();
  supportTimer = setTimeout(async () => {
    try {
      const r = await call(`bots?rules=${encodeURIComponent(key)}`);
      if (supportKey !== key) return;
      support = new Map();
      for (const b of r.bots) support.set(b.id, b);
      for (const l of r.levels) support.set(`level${l.level}`, l);
    } catch {
      support = null; // the server checks again when the game starts
    }
    applySupport();
  }, 120);
  applySupport();
}

/** Why the opponent `value` cannot play the dialog's rules, or ''. */
function unsupported(value) {
  const entry = support && support.get(value);
  return entry && entry.plays === false ? refusalText({ code: 'unsupported', message: entry.why, reason: entry.reason, params: entry.params }) : '';
}

function applySupport() {
  for (const option of $('f-opponent').options) {
    const why = unsupported(option.value);
    option.disabled = Boolean(why);
    option.title = why;
  }
  $('f-opponent-desc').textContent = unsupported(form.elements.opponent.value) || opponentDescription(form.elements.opponent.value);
}

function syncDialog() {
  const unb = form.elements.unbounded.checked;
  form.elements.width.disabled = unb;
  form.elements.height.disabled = unb;
  const r = readDialogRules(false);
  const match = r && store.catalogue.presets.find((p) => rulesToString({ ...p.rules, first: 'X' }) === rulesToString({ ...r, first: 'X' }));
  $('f-preset').value = match ? match.id : 'custom';
  $('f-preset-desc').textContent = match ? presetTitle(match) : '';
  describeOpening('f-opening', 'f-opening-desc');
  const human = form.elements.opponent.value === 'human';
  for (const el of form.querySelectorAll('input[name="side"]')) el.disabled = human;
  // With a swap opening the colours come from the opening: the player picks a seat instead.
  const swap = form.elements.opening.value !== 'free';
  $('f-side').hidden = swap;
  $('f-seat').hidden = !swap || human;
  $('f-opponent-desc').textContent = opponentDescription(form.elements.opponent.value);
  askSupport(r);
  applySupport();
}

function opponentDescription(value) {
  const o = parseOpponent(value);
  if (!o) return '';
  if (o.human) return t('secondPersonDesc');
  const key = o.level ? `level${o.level}Desc` : `bot_${o.bot}Desc`;
  const s = t(key);
  if (s !== key) return s;
  const { catalogue } = store;
  const found = o.level ? catalogue.levels.find((l) => l.level === o.level) : catalogue.bots.find((b) => b.id === o.bot);
  return found ? found.description || '' : '';
}

const intIn = (v, lo, hi) => /^\d+$/.test(String(v).trim()) && Number(v) >= lo && Number(v) <= hi;

/** The rules in the dialog; with `report`, an invalid field is explained and null returned. */
function readDialogRules(report = true) {
  const f = form.elements;
  const fail = (msg, el) => {
    if (report) {
      showFormError(msg);
      if (el) el.focus();
    }
    return null;
  };
  const unbounded = f.unbounded.checked;
  const k = f.k.value;
  const win = ['exact', 'renju', 'caro'].includes(f.win.value) ? f.win.value : 'freestyle';
  const fiveOnly = win === 'renju' || win === 'caro';
  const first = f.first.value === 'O' ? 'O' : 'X';
  if (fiveOnly && (unbounded || String(k).trim() !== '5')) return fail(t('errRenju'), f.k);
  if (unbounded) {
    if (!intIn(k, 1, 32)) return fail(t('errK', { max: 32 }), f.k);
    return { unbounded: true, k: Number(k), win, first };
  }
  if (!intIn(f.width.value, 1, 32)) return fail(t('errWidth'), f.width);
  if (!intIn(f.height.value, 1, 32)) return fail(t('errHeight'), f.height);
  const w = Number(f.width.value);
  const h = Number(f.height.value);
  if (!intIn(k, 1, Math.max(w, h))) return fail(t('errK', { max: Math.max(w, h) }), f.k);
  return { width: w, height: h, k: Number(k), win, first };
}

function showFormError(msg) {
  $('f-error').textContent = msg;
  $('f-error').hidden = !msg;
}

export function openNewGame() {
  const dlg = $('dlg-new');
  if (dlg.open) return;
  fillDialog();
  showFormError('');
  setDialogRules(store.rules || rulesFrom(settings.rules) || FALLBACK_PRESETS[2].rules);
  form.elements.opponent.value = opponentToString(store.rules ? store.opponent : parseOpponent(settings.opponent) || { level: 2 });
  if (!form.elements.opponent.value) form.elements.opponent.value = 'level2';
  form.elements.side.value = store.side || 'X';
  form.elements.opening.value = store.opening.kind;
  form.elements.seat.value = store.opening.seat;
  syncDialog();
  dlg.showModal();
  $('f-preset').focus();
}

/** Why the dialog's opening cannot be played under `rules`, or ''. */
function openingProblem(rules) {
  if (form.elements.opening.value === 'free') return '';
  const narrowest = rules.unbounded ? Infinity : Math.min(rules.width, rules.height);
  return rules.k < 4 || narrowest < rules.k ? t('errOpening') : '';
}

function submitNewGame() {
  showFormError('');
  const rules = readDialogRules(true);
  if (!rules) return;
  const problem = openingProblem(rules);
  if (problem) {
    showFormError(problem);
    $('f-opening').focus();
    return;
  }
  const why = unsupported(form.elements.opponent.value);
  if (why) {
    showFormError(why);
    $('f-opponent').focus();
    return;
  }
  const opponent = parseOpponent(form.elements.opponent.value) || { level: 2 };
  const side = opponent.human ? 'X' : form.elements.side.value === 'O' ? 'O' : 'X';
  const opening = {
    kind: form.elements.opening.value,
    decisions: [],
    seat: form.elements.seat.value === 'chooser' ? 'chooser' : 'opener',
  };
  $('f-start').disabled = true;
  startGame(
    { rules, opponent, side, opening, tree: new MoveTree() },
    {
      onFailed: (err) => {
        $('f-start').disabled = false;
        showFormError(describeError(err));
      },
      onStarted: () => {
        $('f-start').disabled = false;
        $('dlg-new').close();
      },
    },
  );
}

/** Re-labels an open dialog after a language switch, keeping what was chosen. */
export function relabelDialog() {
  describeOpening('room-opening', 'room-opening-desc');
  if (!$('dlg-new').open) return;
  const keep = { preset: $('f-preset').value, opponent: form.elements.opponent.value };
  fillDialog();
  $('f-preset').value = keep.preset;
  form.elements.opponent.value = keep.opponent;
  syncDialog();
}

export function bindDialog() {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitNewGame();
  });
  $('f-cancel').addEventListener('click', () => $('dlg-new').close());
  // The room dialog's opening (its other fields are room.js's).
  describeOpening('room-opening', 'room-opening-desc');
  $('room-opening').addEventListener('change', () => describeOpening('room-opening', 'room-opening-desc'));
  $('f-preset').addEventListener('change', () => {
    const p = store.catalogue.presets.find((x) => x.id === $('f-preset').value);
    // A preset is the whole rule set: its win rule and first player too, nothing carried over.
    if (p) setDialogRules({ win: 'freestyle', first: 'X', ...p.rules });
    else $('f-preset-desc').textContent = '';
  });
  form.addEventListener('input', (e) => {
    if (e.target.id !== 'f-preset') syncDialog();
    showFormError('');
  });
  form.addEventListener('change', (e) => {
    if (e.target.id !== 'f-preset') syncDialog();
  });
}
