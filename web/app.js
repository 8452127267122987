// The page: one game at a time, played against the server's bots or a second person.
//
// The page keeps the rules, the move list and the opponent; the server decides everything else.
// Every change of the move list goes through POST /api/state (legality, whose turn, outcome,
// winning line) before it is shown as settled, and the computer's moves come from POST /api/move.
// One game step is in flight at a time; each has a timeout, can be cancelled by a new game or an
// undo, and on failure leaves an error with a Retry button, so the page never hangs.

import { call, RequestError } from './api.js';
import { BoardView } from './board.js';
import { GridMirror } from './grid.js';
import { detectLanguage, LANGUAGES, lang, setLanguage, t, translatePage } from './i18n.js';
import {
  apiOpponent,
  apiRules,
  cellName,
  displayName,
  opponentToString,
  other,
  parseCell,
  parseOpponent,
  parseRules,
  rulesToString,
} from './notation.js';

const THINKING_DELAY_MS = 300;
const COMPUTER_PAUSE_MS = 300;
const SETTINGS_KEY = 'mnk.settings';
const DEFAULTS = { rules: '15x15x5', opponent: 'level2', side: 'X', numbers: false, theme: 'auto', lang: null };
const FALLBACK_PRESETS = [
  { id: 'tictactoe', rules: { width: 3, height: 3, k: 3, win: 'freestyle', first: 'X' } },
  { id: '9x9', rules: { width: 9, height: 9, k: 5, win: 'freestyle', first: 'X' } },
  { id: 'gomoku15', rules: { width: 15, height: 15, k: 5, win: 'freestyle', first: 'X' } },
  { id: 'gomoku19', rules: { width: 19, height: 19, k: 5, win: 'freestyle', first: 'X' } },
  { id: 'standard', rules: { width: 15, height: 15, k: 5, win: 'exact', first: 'X' } },
  { id: 'unbounded', rules: { unbounded: true, k: 5, win: 'freestyle', first: 'X' } },
];

const $ = (id) => document.getElementById(id);

// ---- settings -------------------------------------------------------------------------------

function loadSettings() {
  try {
    const s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}');
    return { ...DEFAULTS, ...(s && typeof s === 'object' ? s : {}) };
  } catch {
    return { ...DEFAULTS };
  }
}

const settings = loadSettings();

function saveSettings() {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    /* private mode or full storage: settings just do not persist */
  }
}

// ---- state ----------------------------------------------------------------------------------

/** The game: rules, opponent ({human:true} | {level} | {bot}), the human's side, and the server's state. */
const game = {
  rules: null,
  opponent: { level: 2 },
  side: 'X',
  moves: [],
  state: null,
};
let catalogue = { presets: FALLBACK_PRESETS, bots: [], levels: [] };
let step = null; // {ctl, kind} the game request in flight
let thinkingTimer = 0;
let hint = null; // {x, y, p, text}
let info = '';
let heatOn = false;
let weights = null; // {key, list}
let weightsCtl = null;
let lastError = null; // {retry}
let pointerCell = null;
let tipTimer = 0;

const board = new BoardView($('board'), $('canvas'));
/** A cell as this board shows it to people (x,y on the unbounded board). */
function shownName(cell) {
  return displayName(cell.x, cell.y, Boolean(game.rules && game.rules.unbounded));
}

const grid = new GridMirror($('grid'), board, {
  onActivate: (cell) => humanMove(cell),
  label: (cell, stone) => `${shownName(cell)}, ${stone ? stone : t('empty')}`,
});
board.onView = () => grid.sync();
board.onHover = (cell, e) => {
  pointerCell = cell ? { ...cell, clientX: e.clientX, clientY: e.clientY } : null;
};

const ongoing = () => !game.state || game.state.outcome.status === 'ongoing';
const vsComputer = () => !game.opponent.human;
const playerOf = (index) => (index % 2 === 0 ? game.rules.first : other(game.rules.first));
const humanToMove = () => game.state && ongoing() && (!vsComputer() || game.state.to_move === game.side);
const computerDue = () => game.state && ongoing() && vsComputer() && game.state.to_move !== game.side;

// ---- game steps -----------------------------------------------------------------------------

function setBusy(kind) {
  $('board').dataset.busy = kind ? 'true' : 'false';
  document.body.classList.toggle('busy', Boolean(kind));
  clearTimeout(thinkingTimer);
  $('thinking').hidden = true;
  if (kind) thinkingTimer = setTimeout(() => ($('thinking').hidden = false), THINKING_DELAY_MS);
  updateButtons();
}

/** Cancels the game request in flight (a new game, an undo, a restore). */
function cancelStep() {
  if (step) step.ctl.abort();
  step = null;
  board.pending = null;
  setBusy(null);
}

/**
 * Runs one game step: `work(signal)` makes the request(s) and applies the answer; `then` runs
 * after success. A failure shows the error with a Retry that runs the same step again.
 */
function runStep(kind, work, then, onError) {
  cancelStep();
  hideError();
  const ctl = new AbortController();
  const me = { ctl, kind };
  step = me;
  setBusy(kind);
  work(ctl.signal).then(
    () => {
      if (step !== me) return;
      step = null;
      setBusy(null);
      if (then) then();
    },
    (err) => {
      if (step !== me) return;
      step = null;
      board.pending = null;
      setBusy(null);
      render();
      if (err instanceof RequestError && err.kind === 'aborted') return;
      if (onError && onError(err)) return;
      showError(err, () => runStep(kind, work, then, onError));
    },
  );
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function checkAborted(signal) {
  if (signal.aborted) throw new RequestError('aborted', 'cancelled');
}

async function fetchState(moves, signal, rules = game.rules) {
  return call('state', { rules: apiRules(rules), moves }, { signal });
}

function applyState(state) {
  game.state = state;
  game.moves = state.moves.slice();
  hint = null;
  board.pending = null;
  if (weights && weights.key !== game.moves.join(' ')) weights = null;
  render();
  if (state.last) board.follow(parseCell(state.last.cell) || state.last);
  saveUrl();
}

/** After the position settles: the computer answers if it is its turn, and the heat map refreshes. */
function afterChange() {
  if (heatOn) loadWeights().catch(() => {});
  if (computerDue()) computerMove();
}

function humanMove(cell) {
  if (step || !humanToMove()) return;
  const name = cellName(cell.x, cell.y);
  if (game.moves.some((m) => sameCell(m, cell))) return; // occupied: nothing to ask
  board.pending = { ...cell, p: game.state.to_move };
  board.schedule();
  const moves = [...game.moves, name];
  runStep(
    'state',
    async (signal) => applyState(await fetchState(moves, signal)),
    afterChange,
  );
}

function computerMove() {
  runStep(
    'move',
    async (signal) => {
      const pause = sleep(COMPUTER_PAUSE_MS);
      const r = await call('move', { rules: apiRules(game.rules), moves: game.moves, opponent: apiOpponent(game.opponent) }, { signal });
      await pause;
      checkAborted(signal);
      info = () => t('computerPlayed', { cell: r.move.cell, details: searchDetails(r) });
      applyState(r.state);
    },
    afterChange,
  );
}

/** D: the computer plays the side to move for the player (the server's hint, then the state). */
function autoMove() {
  if (step || !humanToMove()) return;
  runStep(
    'auto',
    async (signal) => {
      const r = await call('hint', { rules: apiRules(game.rules), moves: game.moves }, { signal });
      checkAborted(signal);
      const state = await fetchState([...game.moves, r.move.cell], signal);
      info = () => t('autoPlayed', { cell: r.move.cell, details: searchDetails(r) });
      applyState(state);
    },
    afterChange,
  );
}

function askHint() {
  if (step || !humanToMove()) return;
  runStep('hint', async (signal) => {
    const r = await call('hint', { rules: apiRules(game.rules), moves: game.moves }, { signal });
    checkAborted(signal);
    hint = { x: r.move.x, y: r.move.y, p: game.state.to_move, cell: r.move.cell };
    info = () => t('hintIs', { cell: r.move.cell, details: searchDetails(r) });
    render();
  });
}

function undo() {
  if (!game.state || !game.moves.length) return;
  const moves = game.moves.slice();
  if (vsComputer()) {
    // Take back to the player's last move: the computer's answer (if any) and the move before it.
    let removedHuman = false;
    if (moves.length && playerOf(moves.length - 1) !== game.side) moves.pop();
    if (moves.length && playerOf(moves.length - 1) === game.side) {
      moves.pop();
      removedHuman = true;
    }
    if (!removedHuman) return;
  } else {
    moves.pop();
  }
  info = '';
  runStep('state', async (signal) => applyState(await fetchState(moves, signal)), afterChange);
}

/**
 * Starts a game; `moves` may come from a shared link. `onFailed(err)` (the new-game dialog, a
 * link) takes the failure instead of the error box; `onStarted` runs once the server accepted.
 */
function startGame({ rules, opponent, side, moves = [] }, { onFailed, onStarted } = {}) {
  runStep(
    'state',
    async (signal) => {
      const state = await fetchState(moves, signal, rules);
      game.rules = rules;
      game.opponent = opponent;
      game.side = side;
      game.state = null;
      hint = null;
      info = '';
      weights = null;
      board.setRules(rules);
      applyState(state);
      board.recentre();
    },
    () => {
      if (onStarted) onStarted();
      afterChange();
    },
    onFailed
      ? (err) => {
          onFailed(err);
          return true;
        }
      : undefined,
  );
}

// ---- weights: T and W -----------------------------------------------------------------------

async function loadWeights() {
  const key = game.moves.join(' ');
  if (weights && weights.key === key) return weights.list;
  if (weightsCtl) weightsCtl.abort();
  weightsCtl = new AbortController();
  const r = await call('weights', { rules: apiRules(game.rules), moves: game.moves }, { signal: weightsCtl.signal });
  if (game.moves.join(' ') !== key) throw new RequestError('aborted', 'stale');
  weights = { key, list: r.weights, for: r.for };
  render();
  return weights.list;
}

function toggleHeat() {
  heatOn = !heatOn;
  $('btn-heat').setAttribute('aria-pressed', String(heatOn));
  $('board').dataset.heat = String(heatOn);
  render();
  if (heatOn) loadWeights().catch((e) => showRequestFailure(e, toggleHeatRetry));
}

function toggleHeatRetry() {
  if (heatOn) loadWeights().catch((e) => showRequestFailure(e, toggleHeatRetry));
}

async function showWeightUnderPointer() {
  if (!game.state) return;
  let cell = pointerCell;
  let anchor = null;
  if (cell) anchor = { clientX: cell.clientX, clientY: cell.clientY };
  else if (grid.focus) cell = grid.focus;
  if (!cell) return;
  try {
    const list = await loadWeights();
    const w = list.find((c) => c.x === cell.x && c.y === cell.y);
    const name = shownName(cell);
    const text = w ? t('weightOf', { cell: name, weight: formatWeight(w.weight) }) : t('noWeight', { cell: name });
    showTip(text, cell, anchor);
  } catch (e) {
    showRequestFailure(e, showWeightUnderPointer);
  }
}

function showTip(text, cell, anchor) {
  const tip = $('tip');
  tip.textContent = text;
  tip.hidden = false;
  tip.dataset.cell = cellName(cell.x, cell.y);
  const host = $('board').getBoundingClientRect();
  let x;
  let y;
  if (anchor) {
    x = anchor.clientX - host.left;
    y = anchor.clientY - host.top;
  } else {
    const geo = board.geometry();
    x = geo.ax + (cell.x + 0.5) * geo.cs;
    y = geo.ay - (cell.y + 1) * geo.cs;
  }
  tip.style.left = `${Math.max(4, Math.min(host.width - tip.offsetWidth - 4, x + 12))}px`;
  tip.style.top = `${Math.max(4, Math.min(host.height - tip.offsetHeight - 4, y - tip.offsetHeight - 8))}px`;
  clearTimeout(tipTimer);
  tipTimer = setTimeout(() => (tip.hidden = true), 4000);
}

function formatWeight(w) {
  return Math.abs(w) >= 100 ? String(Math.round(w)) : String(Math.round(w * 10) / 10);
}

// ---- rendering ------------------------------------------------------------------------------

function sameCell(name, cell) {
  const c = parseCell(name);
  return c && c.x === cell.x && c.y === cell.y;
}

function stones() {
  return game.moves.map((m, i) => ({ ...parseCell(m), p: playerOf(i), n: i + 1 }));
}

function valueText(v) {
  if (!v) return '';
  if (v.kind === 'win') return t('valueWin', { n: v.plies });
  if (v.kind === 'loss') return t('valueLoss', { n: v.plies });
  if (v.kind === 'draw') return t('valueDraw');
  return v.text || String(v.score);
}

function searchDetails(r) {
  const parts = [];
  const v = valueText(r.value);
  if (v) parts.push(v);
  if (r.depth) parts.push(t('depth', { n: r.depth }));
  if (r.nodes !== undefined) parts.push(t('nodes', { n: Number(r.nodes).toLocaleString(lang()) }));
  if (r.time_ms !== undefined) parts.push(t('ms', { n: r.time_ms }));
  return parts.join(' · ');
}

function rulesTitle(r) {
  const preset = catalogue.presets.find((p) => rulesToString(p.rules) === rulesToString({ ...r, first: 'X' }));
  let s = preset ? presetTitle(preset) : r.unbounded ? t('customUnbounded', { k: r.k }) : t('customRules', { w: r.width, h: r.height, k: r.k });
  if (!preset && r.win === 'exact') s += `, ${t('exactShort')}`;
  if (r.first === 'O') s += `, ${t('oFirst')}`;
  return s;
}

function presetTitle(p) {
  const key = `preset_${p.id}`;
  const s = t(key);
  return s === key ? p.title || p.id : s;
}

function opponentTitle(o) {
  if (o.human) return t('secondPerson');
  if (o.level) {
    const key = `level${o.level}`;
    let title = t(key);
    if (title === key) {
      const found = catalogue.levels.find((l) => l.level === o.level);
      title = found && found.title ? found.title : '';
    }
    return title ? t('levelN', { n: o.level, title }) : t('levelOnly', { n: o.level });
  }
  const key = `bot_${o.bot}`;
  const s = t(key);
  if (s !== key) return s;
  const b = catalogue.bots.find((x) => x.id === o.bot);
  return b ? b.title : o.bot;
}

function render() {
  if (!game.rules) return;
  const st = game.state;
  const outcome = st ? st.outcome : { status: 'ongoing' };
  const list = stones();
  board.stones = list;
  board.last = st && st.last ? { x: st.last.x, y: st.last.y } : null;
  board.line = outcome.status === 'win' && outcome.line ? outcome.line.map((c) => ({ x: c.x, y: c.y })) : null;
  board.ghost = hint;
  board.numbers = settings.numbers;
  board.heat = heatOn && weights ? weights.list : null;
  board.schedule();
  grid.setStones(list);

  const host = $('board');
  host.dataset.status = outcome.status;
  host.dataset.winner = outcome.winner || '';
  host.dataset.line = board.line ? outcome.line.map((c) => c.cell).join(' ') : '';
  host.dataset.ply = String(game.moves.length);
  host.dataset.toMove = st ? st.to_move : '';
  host.dataset.hint = hint ? hint.cell : '';
  host.dataset.heatCells = board.heat ? String(board.heat.length) : '';

  $('game-title').textContent = `${rulesTitle(game.rules)} — ${opponentTitle(game.opponent)}`;
  $('btn-centre').hidden = !game.rules.unbounded;

  // Status line and result banner.
  let status = '';
  let banner = '';
  if (outcome.status === 'win') {
    if (!vsComputer()) banner = t('playerWins', { p: outcome.winner });
    else banner = outcome.winner === game.side ? t('youWin') : t('computerWins');
    status = banner;
  } else if (outcome.status === 'draw') {
    banner = t('draw');
    status = banner;
  } else if (st) {
    if (!vsComputer()) status = t('playerToMove', { p: st.to_move });
    else status = st.to_move === game.side ? t('yourMove', { p: st.to_move }) : t('computerToMove', { p: st.to_move });
  }
  $('status').textContent = status;
  $('banner').hidden = !banner;
  $('banner-text').textContent = banner;
  $('banner').dataset.outcome = outcome.status === 'win' ? `win-${outcome.winner}` : outcome.status;
  // Kept as a function so a language switch re-renders it.
  $('info').textContent = typeof info === 'function' ? info() : info;

  // Move list: one row per pair of plies.
  const ol = $('moves');
  const frag = document.createDocumentFragment();
  for (let i = 0; i < game.moves.length; i++) {
    const li = document.createElement('li');
    li.dataset.ply = String(i + 1);
    li.className = `mv ${playerOf(i) === 'X' ? 'mx' : 'mo'}`;
    li.innerHTML = `<span class="n">${i + 1}.</span> <span class="p">${playerOf(i)}</span> <span class="c"></span>`;
    li.querySelector('.c').textContent = game.moves[i];
    frag.appendChild(li);
  }
  ol.replaceChildren(frag);
  ol.scrollTop = ol.scrollHeight;
  updateButtons();
}

function updateButtons() {
  const busy = Boolean(step);
  const can = !busy && humanToMove();
  $('btn-undo').disabled = busy || !game.moves.length;
  $('btn-hint').disabled = !can;
  $('btn-auto').disabled = !can;
  $('btn-numbers').setAttribute('aria-pressed', String(settings.numbers));
}

// ---- errors ---------------------------------------------------------------------------------

function describeError(err) {
  if (typeof err === 'string') return err;
  if (!(err instanceof RequestError)) return t('errUnexpected', { message: String(err && err.message ? err.message : err) });
  if (err.kind === 'timeout') return t('errTimeout');
  if (err.kind === 'network') return t('errNetwork');
  if (err.status === 503) return t('errBusy');
  if (err.status >= 500) return t('errServer', { status: err.status });
  return t('errRefused', { message: err.message });
}

function showError(err, retry) {
  lastError = { retry };
  $('error-text').textContent = describeError(err);
  $('error').dataset.code = err && err.code ? err.code : err && err.kind ? err.kind : 'error';
  // A refusal (4xx) would only be refused again; timeouts, network failures and 5xx may pass.
  const refused = err instanceof RequestError && err.kind === 'http' && err.status < 500 && err.status !== 408 && err.status !== 429;
  $('btn-retry').hidden = !retry || refused;
  $('error').hidden = false;
}

function showRequestFailure(err, retry) {
  if (err instanceof RequestError && err.kind === 'aborted') return;
  showError(err, retry);
}

function hideError() {
  lastError = null;
  $('error').hidden = true;
}

// ---- URL and settings -----------------------------------------------------------------------

function saveUrl() {
  if (!game.rules) return;
  const parts = [
    `r=${encodeURIComponent(rulesToString(game.rules)).replace(/%2C/g, ',')}`,
    `m=${game.moves.map((m) => encodeURIComponent(m).replace(/%2C/g, ',')).join('.')}`,
    `o=${encodeURIComponent(opponentToString(game.opponent)).replace(/%3A/g, ':')}`,
    `s=${game.side}`,
  ];
  const url = `${location.pathname}?${parts.join('&')}`;
  try {
    history.replaceState(null, '', url);
  } catch {
    /* some embedded browsers refuse; the game still works */
  }
  settings.rules = rulesToString(game.rules);
  settings.opponent = opponentToString(game.opponent);
  settings.side = game.side;
  saveSettings();
}

function rulesFrom(text) {
  const r = parseRules(text);
  if (r) return r;
  const p = catalogue.presets.find((x) => x.id === text);
  return p ? { ...p.rules } : null;
}

/** The game a link describes, or null. Hash (#r=…) works as well as the query. */
function gameFromUrl() {
  const q = new URLSearchParams(location.search.length > 1 ? location.search : location.hash.replace(/^#/, ''));
  if (!q.has('r')) return null;
  const rules = rulesFrom(q.get('r'));
  if (!rules) return { error: t('errLink', { what: q.get('r') }) };
  const moveText = q.get('m') || '';
  const moves = moveText ? moveText.split(/[.\s]+/).filter(Boolean) : [];
  const opponent = parseOpponent(q.get('o') || 'human') || { human: true };
  const side = q.get('s') === 'O' ? 'O' : 'X';
  return { rules, opponent, side, moves };
}

const systemDark = matchMedia('(prefers-color-scheme: dark)');

/** Applies the theme setting: `data-theme` keeps the choice, `data-scheme` the colours in use. */
function applyTheme(theme) {
  settings.theme = theme;
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.dataset.scheme = theme === 'auto' ? (systemDark.matches ? 'dark' : 'light') : theme;
  // Canvas colours come from CSS variables; read them after the style applies.
  requestAnimationFrame(() => board.readColors());
}

// ---- new-game dialog ------------------------------------------------------------------------

const form = $('form-new');

function fillDialog() {
  const presetSel = $('f-preset');
  presetSel.replaceChildren(
    ...catalogue.presets.map((p) => new Option(presetTitle(p), p.id)),
    new Option(t('custom'), 'custom'),
  );
  const opp = $('f-opponent');
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
  groups.push(new Option(t('secondPerson'), 'human'));
  opp.replaceChildren(...groups);
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

function syncDialog() {
  const unb = form.elements.unbounded.checked;
  form.elements.width.disabled = unb;
  form.elements.height.disabled = unb;
  const r = readDialogRules(false);
  const match = r && catalogue.presets.find((p) => rulesToString({ ...p.rules, first: 'X' }) === rulesToString({ ...r, first: 'X' }));
  $('f-preset').value = match ? match.id : 'custom';
  const human = form.elements.opponent.value === 'human';
  for (const el of form.querySelectorAll('input[name="side"]')) el.disabled = human;
  $('f-opponent-desc').textContent = opponentDescription(form.elements.opponent.value);
}

function opponentDescription(value) {
  const o = parseOpponent(value);
  if (!o) return '';
  if (o.human) return t('secondPersonDesc');
  const key = o.level ? `level${o.level}Desc` : `bot_${o.bot}Desc`;
  const s = t(key);
  if (s !== key) return s;
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
  const win = f.win.value === 'exact' ? 'exact' : 'freestyle';
  const first = f.first.value === 'O' ? 'O' : 'X';
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

function openNewGame() {
  const dlg = $('dlg-new');
  if (dlg.open) return;
  fillDialog();
  showFormError('');
  setDialogRules(game.rules || rulesFrom(settings.rules) || FALLBACK_PRESETS[2].rules);
  form.elements.opponent.value = opponentToString(game.rules ? game.opponent : parseOpponent(settings.opponent) || { level: 2 });
  if (!form.elements.opponent.value) form.elements.opponent.value = 'level2';
  form.elements.side.value = game.side || 'X';
  syncDialog();
  dlg.showModal();
  $('f-preset').focus();
}

function submitNewGame() {
  showFormError('');
  const rules = readDialogRules(true);
  if (!rules) return;
  const opponent = parseOpponent(form.elements.opponent.value) || { level: 2 };
  const side = opponent.human ? 'X' : form.elements.side.value === 'O' ? 'O' : 'X';
  $('f-start').disabled = true;
  startGame(
    { rules, opponent, side, moves: [] },
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

// ---- input ----------------------------------------------------------------------------------

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = e.target && e.target.tagName;
  if ($('dlg-new').open || $('dlg-help').open) return;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
  const key = e.key;
  if (key === 'Escape') {
    hideError();
    $('tip').hidden = true;
    return;
  }
  const actions = {
    d: autoMove,
    t: showWeightUnderPointer,
    w: toggleHeat,
    h: askHint,
    u: undo,
    n: openNewGame,
    m: toggleNumbers,
    c: () => board.recentre(),
    '?': () => $('dlg-help').showModal(),
  };
  const fn = actions[key.length === 1 ? key.toLowerCase() : key];
  if (!fn) return;
  e.preventDefault();
  fn();
}

function toggleNumbers() {
  settings.numbers = !settings.numbers;
  saveSettings();
  render();
}

function bind() {
  $('btn-new').addEventListener('click', openNewGame);
  $('banner-new').addEventListener('click', openNewGame);
  $('btn-undo').addEventListener('click', undo);
  $('btn-hint').addEventListener('click', askHint);
  $('btn-auto').addEventListener('click', autoMove);
  $('btn-heat').addEventListener('click', toggleHeat);
  $('btn-numbers').addEventListener('click', toggleNumbers);
  $('btn-centre').addEventListener('click', () => board.recentre());
  $('btn-help').addEventListener('click', () => $('dlg-help').showModal());
  $('btn-retry').addEventListener('click', () => {
    const r = lastError && lastError.retry;
    hideError();
    if (r) r();
  });
  $('btn-dismiss').addEventListener('click', hideError);
  document.addEventListener('keydown', onKey);

  $('sel-lang').addEventListener('change', async (e) => {
    settings.lang = e.target.value;
    saveSettings();
    await setLanguage(settings.lang);
    afterLanguage();
  });
  $('sel-theme').addEventListener('change', (e) => {
    applyTheme(e.target.value);
    saveSettings();
  });
  systemDark.addEventListener('change', () => applyTheme(settings.theme));

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitNewGame();
  });
  $('f-cancel').addEventListener('click', () => $('dlg-new').close());
  $('f-preset').addEventListener('change', () => {
    const p = catalogue.presets.find((x) => x.id === $('f-preset').value);
    if (p) setDialogRules({ ...p.rules, first: form.elements.first.value });
  });
  form.addEventListener('input', (e) => {
    if (e.target.id !== 'f-preset') syncDialog();
    showFormError('');
  });
  form.addEventListener('change', (e) => {
    if (e.target.id !== 'f-preset') syncDialog();
  });
}

function afterLanguage() {
  $('sel-lang').value = lang();
  grid.relabel();
  render();
  if ($('dlg-new').open) {
    const keep = { preset: $('f-preset').value, opponent: form.elements.opponent.value };
    fillDialog();
    $('f-preset').value = keep.preset;
    form.elements.opponent.value = keep.opponent;
    syncDialog();
  }
}

// ---- start ----------------------------------------------------------------------------------

async function loadCatalogue() {
  const [presets, bots] = await Promise.allSettled([call('presets'), call('bots')]);
  if (presets.status === 'fulfilled' && Array.isArray(presets.value.presets) && presets.value.presets.length) {
    catalogue.presets = presets.value.presets;
  }
  if (bots.status === 'fulfilled') {
    catalogue.bots = Array.isArray(bots.value.bots) ? bots.value.bots : [];
    catalogue.levels = Array.isArray(bots.value.levels) ? bots.value.levels : [];
  }
  const failed = [presets, bots].find((x) => x.status === 'rejected');
  if (failed) showRequestFailure(failed.reason, null);
}

async function main() {
  const canvasOk = Boolean(document.createElement('canvas').getContext && $('canvas').getContext('2d'));
  if (!canvasOk || typeof fetch !== 'function' || typeof AbortController !== 'function') {
    $('unsupported').hidden = false;
    document.body.classList.add('fatal-mode');
    return;
  }
  applyTheme(settings.theme in { auto: 1, light: 1, dark: 1 } ? settings.theme : 'auto');
  $('sel-theme').value = settings.theme;
  await setLanguage(settings.lang && settings.lang in LANGUAGES ? settings.lang : detectLanguage());
  $('sel-lang').value = lang();
  bind();
  await loadCatalogue();

  const linked = gameFromUrl();
  const fallback = {
    rules: rulesFrom(settings.rules) || { ...FALLBACK_PRESETS[2].rules },
    opponent: parseOpponent(settings.opponent) || { level: 2 },
    side: settings.side === 'O' ? 'O' : 'X',
    moves: [],
  };
  if (linked && !linked.error) {
    const restore = () =>
      startGame(linked, {
        onFailed: (err) => {
          if (err.kind === 'http' && err.status < 500) {
            // The link is wrong (bad rules, an illegal move): say so and start a fresh game.
            startGame(fallback);
            showError(t('errLinkRefused', { message: err.message }), null);
          } else {
            showError(err, restore);
          }
        },
      });
    restore();
  } else {
    startGame(fallback);
    if (linked && linked.error) showError(linked.error, null);
  }
}

translatePage();
main();
