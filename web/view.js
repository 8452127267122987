// What the page shows: the board and its keyboard grid, the titles, the status and result
// banner, the move list with its variations, and which buttons can be used. Everything here is
// drawn from `store`; actions are reached through `hooks`, set by app.js (so this module needs
// none of the modules that act).

import { BoardView } from './board.js';
import { GridMirror } from './grid.js';
import { Minimap } from './minimap.js';
import { lang, t } from './i18n.js';
import { cellName, displayName, other, parseCell, rulesToString } from './notation.js';
import { settings } from './settings.js';
import { humanToMove, ongoing, openingStep, playerOf, position, store, vsComputer } from './store.js';

const $ = (id) => document.getElementById(id);

/** What the views call when the player acts on them. */
export const hooks = {
  /** a cell was chosen on the board */
  activate: (_cell) => {},
  /** a node of the move tree was chosen in the move list */
  goto: (_node) => {},
};

export const board = new BoardView($('board'), $('canvas'));

/** Views kept by other modules, drawn again with the page (the game-tree explorer). */
const renderListeners = [];
export function onRender(listener) {
  renderListeners.push(listener);
}

/** A cell as this board shows it to people (x,y on the unbounded board). */
export function shownName(cell) {
  return displayName(cell.x, cell.y, Boolean(store.rules && store.rules.unbounded));
}

export const grid = new GridMirror($('grid'), board, {
  onActivate: (cell) => hooks.activate(cell),
  label: (cell, stone) => {
    const base = `${shownName(cell)}, ${stone ? stone : t('empty')}`;
    const f = forbiddenAt(cell);
    // Renju's forbidden points are black's, the first player's: named by the mark the board shows.
    return f ? `${base}, ${t('forbiddenLabel', { p: store.rules.first || 'X', kind: t(`forbidden_${f.kind}`) })}` : base;
  },
});
const minimap = new Minimap($('minimap'), board);
board.onView = () => {
  grid.sync();
  minimap.draw();
};
board.onHover = (cell, e) => {
  store.pointer = cell ? { ...cell, clientX: e.clientX, clientY: e.clientY } : null;
};

// ---- words ----------------------------------------------------------------------------------

/**
 * A value the engine gives for `mover` (the side it was computed for), always told from one
 * fixed point of view: who wins, or X's chance (so it does not flip every move).
 */
export function valueText(v, mover) {
  if (!v) return '';
  if (v.kind === 'win') return t('valueWinFor', { p: mover, n: v.plies });
  if (v.kind === 'loss') return t('valueWinFor', { p: other(mover), n: v.plies });
  if (v.kind === 'draw') return t('valueDraw');
  return t('valueChance', { pc: percent(chanceForX(v, mover)) });
}

/** The engine's report on a move for `mover`: value, depth, nodes, time. */
export function searchDetails(r, mover) {
  const parts = [];
  const v = valueText(r.value, mover);
  if (v) parts.push(v);
  if (r.depth) parts.push(t('depth', { n: r.depth }));
  if (r.nodes !== undefined) parts.push(t('nodes', { n: Number(r.nodes).toLocaleString(lang()) }));
  if (r.time_ms !== undefined) parts.push(t('ms', { n: r.time_ms }));
  return parts.join(' · ');
}

export function presetTitle(p) {
  const key = `preset_${p.id}`;
  const s = t(key);
  return s === key ? p.title || p.id : s;
}

export function rulesTitle(r) {
  const preset = store.catalogue.presets.find((p) => rulesToString(p.rules) === rulesToString({ ...r, first: 'X' }));
  let s = preset ? presetTitle(preset) : r.unbounded ? t('customUnbounded', { k: r.k }) : t('customRules', { w: r.width, h: r.height, k: r.k });
  if (!preset && r.win === 'exact') s += `, ${t('exactShort')}`;
  if (!preset && (r.win === 'renju' || r.win === 'caro')) s += `, ${t(`${r.win}Short`)}`;
  if (r.first === 'O') s += `, ${t('oFirst')}`;
  return s;
}

export function opponentTitle(o) {
  if (o.human) return t('secondPerson');
  if (o.level) {
    const key = `level${o.level}`;
    let title = t(key);
    if (title === key) {
      const found = store.catalogue.levels.find((l) => l.level === o.level);
      title = found && found.title ? found.title : '';
    }
    return title ? t('levelN', { n: o.level, title }) : t('levelOnly', { n: o.level });
  }
  const key = `bot_${o.bot}`;
  const s = t(key);
  if (s !== key) return s;
  const b = store.catalogue.bots.find((x) => x.id === o.bot);
  return b ? b.title : o.bot;
}

// ---- analysis ----

/**
 * X's expected result (0 a loss, ½ even, 1 a win) in a value the engine gives for `toMove`: its
 * `expect`, the engine's win chance (mnk-engine's chance.rs: sigmoid(K·score), K fitted per rule
 * set and board size).
 */
export function chanceForX(value, toMove) {
  const fallback = value.kind === 'win' ? 1 : value.kind === 'loss' ? 0 : 0.5;
  const e = typeof value.expect === 'number' ? value.expect : fallback;
  return toMove === 'X' ? e : 1 - e;
}

/** A chance as a whole percentage; an unproven one is never shown as certain. */
function percent(chance) {
  return Math.min(99, Math.max(1, Math.round(100 * chance)));
}

/** A value for `toMove` in short words for X: "X 63%", or who wins in n, or a draw. */
function chanceText(value, toMove) {
  if (value.kind !== 'eval') return valueText(value, toMove);
  return t('valueChance', { pc: percent(chanceForX(value, toMove)) });
}

/** The engine's own score of a value, for X ("+432"), for those who read engines. */
function rawText(value, toMove) {
  if (value.kind !== 'eval') return value.text || '';
  const forX = toMove === 'X' ? value.score : -value.score;
  return forX > 0 ? `+${forX}` : String(forX);
}

function analysisSummary() {
  const { analysis } = store;
  if (analysis.state === 'over') return t('analysisOver');
  if (analysis.state === 'unavailable') return t('analysisUnavailable');
  const p = analysis.progress || { nodes: 0, time_ms: 0 };
  const depth = analysis.report ? analysis.report.depth : 0;
  return t(analysis.state === 'done' ? 'analysisDone' : 'analysisThinking', {
    depth,
    nodes: Number(p.nodes).toLocaleString(lang()),
    s: (p.time_ms / 1000).toFixed(1),
  });
}

/** The analysis panel, the engine's lines on the board, the bar and the graph. */
function renderAnalysis() {
  const { analysis, tree } = store;
  const host = $('board');
  $('analysis').hidden = !analysis.on;
  $('btn-analysis').setAttribute('aria-pressed', String(analysis.on));
  const report = analysis.on && analysis.node === tree.cursor ? analysis.report : null;
  const lines = report ? report.lines : [];
  host.dataset.analysis = analysis.on ? analysis.state : 'off';
  host.dataset.analysisDepth = report ? String(report.depth) : '';
  host.dataset.analysisEvents = String(analysis.events);
  host.dataset.analysisLines = lines.map((l) => l.move.cell).join(' ');
  board.pv = null;
  board.candidates = null;
  if (!analysis.on) return;
  $('analysis-summary').textContent = analysisSummary();
  const ol = $('analysis-lines');
  ol.replaceChildren(
    ...lines.map((line) => {
      const li = document.createElement('li');
      li.dataset.move = line.move.cell;
      const score = document.createElement('span');
      score.className = 'score';
      score.textContent = chanceText(line.value, report.to_move);
      li.append(score);
      if (analysis.raw) {
        const raw = document.createElement('span');
        raw.className = 'raw';
        raw.textContent = rawText(line.value, report.to_move);
        li.append(raw);
      }
      li.append(line.pv.join(' '));
      return li;
    }),
  );
  if (lines.length) {
    const first = lines[0];
    let p = report.to_move;
    board.pv = first.pv.map((cell, i) => {
      const c = parseCell(cell);
      const stone = { ...c, p, n: i + 1 };
      p = other(p);
      return stone;
    });
    board.candidates = lines.map((l) => ({ x: l.move.x, y: l.move.y, text: candidateText(l.value, report.to_move) }));
    // The bar is X's share: X's chance.
    const share = chanceForX(first.value, report.to_move);
    $('evalbar-x').style.width = `${(100 * share).toFixed(1)}%`;
    $('evalbar').dataset.chanceX = share.toFixed(3);
  }
  $('btn-raw').setAttribute('aria-pressed', String(Boolean(analysis.raw)));
  drawGraph();
}

/** A candidate's label on the board, in a cell's width: X's chance, or who wins and when. */
function candidateText(value, toMove) {
  if (value.kind === 'eval') return `${percent(chanceForX(value, toMove))}%`;
  if (value.kind === 'draw') return '=';
  const winner = value.kind === 'win' ? toMove : other(toMove);
  return `${winner}${value.plies}`;
}

/**
 * X's chance in the position of `node` for the graph: the review's value (the same fixed search
 * for every position, so the curve is comparable from move to move), else the analysis's.
 */
export function graphChance(node) {
  if (node.reviewChanceX !== undefined) return node.reviewChanceX;
  return node.evalChanceX;
}

/** X's chance over the game, from the review's values (and the analysis's), as a graph. */
function drawGraph() {
  const canvas = $('eval-graph');
  const box = canvas.getBoundingClientRect();
  if (!box.width) return;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(box.width * dpr);
  canvas.height = Math.round(box.height * dpr);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const { tree } = store;
  const nodes = [tree.root, ...tree.line()];
  const w = box.width;
  const h = box.height;
  const x = (i) => (nodes.length > 1 ? (i / (nodes.length - 1)) * (w - 8) + 4 : w / 2);
  const y = (chance) => h / 2 - (chance - 0.5) * (h - 8);
  const cs = getComputedStyle(document.documentElement);
  ctx.clearRect(0, 0, w, h);
  ctx.strokeStyle = cs.getPropertyValue('--line');
  ctx.beginPath();
  ctx.moveTo(0, h / 2);
  ctx.lineTo(w, h / 2);
  ctx.stroke();
  ctx.strokeStyle = cs.getPropertyValue('--c-x');
  ctx.lineWidth = 2;
  ctx.beginPath();
  let drawing = false;
  let points = 0;
  nodes.forEach((n, i) => {
    const chance = graphChance(n);
    if (chance === undefined) {
      drawing = false;
      return;
    }
    if (drawing) ctx.lineTo(x(i), y(chance));
    else ctx.moveTo(x(i), y(chance));
    drawing = true;
    points += 1;
  });
  canvas.dataset.points = String(points);
  ctx.stroke();
  const at = nodes.indexOf(tree.cursor);
  ctx.fillStyle = cs.getPropertyValue('--c-last');
  ctx.fillRect(x(at) - 1, 0, 2, h);
  canvas.onclick = (e) => {
    const r = canvas.getBoundingClientRect();
    const i = Math.round(((e.clientX - r.left - 4) / (w - 8)) * (nodes.length - 1));
    const node = nodes[Math.max(0, Math.min(nodes.length - 1, i))];
    if (node) hooks.goto(node);
  };
}

// ---- exact mode ----

/** The exact values of the empty cells of the position shown, when exact mode has them. */
function exactCells() {
  const node = store.tree.cursor;
  if (!store.exact.on || !node.exact || !node.exact.moves) return null;
  return node.exact.moves.map((m) => ({ x: m.x, y: m.y, kind: m.value.kind, plies: m.value.plies }));
}

/** What exact mode shows, in words: the key to the colours, or why there are none. */
function renderLegend(st) {
  const el = $('legend');
  const node = store.tree.cursor;
  let text = '';
  if (store.exact.on && st && ongoing()) {
    if (store.exact.loading && !node.exact) text = t('exactSolving');
    else if (node.exact && node.exact.unsolved === 'too_large') text = t('exactTooLarge');
    else if (node.exact && node.exact.unsolved) text = t('exactOutOfTime');
    else if (node.exact) text = exactLegend(node.exact, st.to_move);
  }
  el.textContent = text;
  el.hidden = !text;
  el.dataset.state = node.exact ? node.exact.unsolved || 'solved' : store.exact.loading ? 'solving' : '';
  el.dataset.source = (node.exact && node.exact.source) || '';
}

/**
 * The key to exact mode's colours, the position's value, and where the values came from: the
 * book alone ("without searching"), or the book's part after the solver ran out of time, which
 * the partial key says already.
 */
function exactLegend(exact, toMove) {
  const value = t('exactPosition', { value: valueText(exact.value, toMove) });
  if (exact.partial) return `${t('exactPartial', { p: toMove })} ${value}`;
  const key = t('exactLegend', { p: toMove });
  return exact.source === 'book' ? `${key} ${value} ${t('exactFromBook')}` : `${key} ${value}`;
}

// ---- drawing --------------------------------------------------------------------------------

/** The stones of the position shown, in move order. */
function stones() {
  return store.tree.moves.map((m, i) => ({ ...parseCell(m), p: playerOf(i), n: i + 1 }));
}

// ---- renju's forbidden points ------------------------------------------------------------------

/** The forbidden point at `cell` for the side to move in the position shown ({kind, why}), if any. */
export function forbiddenAt(cell) {
  const st = position();
  return (st && st.forbidden && st.forbidden.find((f) => f.x === cell.x && f.y === cell.y)) || null;
}

// ---- swap openings ------------------------------------------------------------------------

/** Who a seat is, in words: you or the computer, or (two people) player 1 or 2. */
export function seatName(seat) {
  if (store.opening.room) {
    // In a room: you and your friend, or for a spectator the two parts by name.
    if (store.opening.seat) return t(seat === store.opening.seat ? 'openingYou' : 'roomFriend');
    return t(seat === 'opener' ? 'roomOpener' : 'roomChooser');
  }
  if (!vsComputer()) return t(seat === 'opener' ? 'openingPlayer1' : 'openingPlayer2');
  return t(seat === store.opening.seat ? 'openingYou' : 'openingComputer');
}

/** The status line during the opening, or '' once the colours are settled (or a room's game
 * ended in the opening: a resignation, a flag). */
function openingStatus() {
  const step = openingStep();
  if (!step || position().result) return '';
  const who = seatName(step.seat);
  if (step.step === 'place') {
    const next = store.tree.ply % 2 === 0 ? store.rules.first || 'X' : other(store.rules.first || 'X');
    return t('openingPlaceStatus', { who, n: step.left, p: next });
  }
  return t('openingChooseStatus', { who });
}

/** How a room's game ended, in words: who won and how (`result` as the server gives it). */
export function resultText(result, rules) {
  const why = t(`roomReason_${result.reason}`, { k: rules.k, q: result.winner ? other(result.winner) : '' });
  return result.winner ? t('roomWon', { p: result.winner, why }) : t('roomDrawn', { why });
}

/**
 * Between two people on this device, once a swap opening settled the colours: who plays `p`
 * (player 1 or 2), else ''.
 */
function personOf(p) {
  if (vsComputer() || store.opening.room || store.opening.kind === 'free') return '';
  const st = position();
  const settled = st && st.opening && st.opening.step === 'settled' ? st.opening : null;
  if (!settled) return '';
  const first = store.rules.first || 'X';
  return seatName(p === first ? settled.black : settled.black === 'opener' ? 'chooser' : 'opener');
}

/** A text about player `p` (its `key`), naming the person who plays it when a swap opening chose. */
function playerText(key, p) {
  const who = personOf(p);
  return who ? t(`${key}Seat`, { p, who }) : t(key, { p });
}

/** Why the last move's k or more in a row does not win (caro's closed five, an overline), or ''. */
function unwonText(st) {
  const u = st && st.unwon;
  if (!u) return '';
  const key = u.reason === 'closed' ? 'unwonClosed' : 'unwonOverline';
  return t(key, { p: u.player, cells: u.cells.join(' '), n: u.cells.length, k: store.rules.k });
}

function statusText(outcome, st) {
  // A finished game's record says how it ended at every move stepped through.
  if (store.record) return resultText(store.record.result, store.rules);
  if (outcome.status === 'win') {
    if (!vsComputer()) return playerText('playerWins', outcome.winner);
    return outcome.winner === store.side ? t('youWin') : t('computerWins');
  }
  if (outcome.status === 'draw') {
    if (outcome.reason === 'no_line_left') return t('drawNoLine');
    if (outcome.reason === 'no_move_left') return t('drawNoMove');
    return t('draw');
  }
  if (!st) return '';
  // A room's game can end with no line on the board: a resignation, an agreed draw, a flag.
  if (st.result) return resultText(st.result, store.rules);
  const opening = openingStatus();
  if (opening) return opening;
  // A room's player reads whose turn it is as the room's panel says it.
  if (store.roomColour) return st.to_move === store.roomColour ? t('yourMove', { p: st.to_move }) : t('roomOpponentToMove', { p: st.to_move });
  if (!vsComputer()) return playerText('playerToMove', st.to_move);
  return st.to_move === store.side ? t('yourMove', { p: st.to_move }) : t('computerToMove', { p: st.to_move });
}

export function render() {
  if (!store.rules) return;
  const st = position();
  const outcome = st ? st.outcome : { status: 'ongoing' };
  const list = stones();
  const { hint, heat, tree } = store;
  const host = $('board');
  board.stones = list;
  board.last = st && st.last ? { x: st.last.x, y: st.last.y } : null;
  board.line = outcome.status === 'win' && outcome.line ? outcome.line.map((c) => ({ x: c.x, y: c.y })) : null;
  board.ghost = hint;
  board.numbers = settings.numbers;
  board.look = settings.look === 'stones' ? 'stones' : 'cells';
  host.dataset.look = board.look;
  board.heat = heat.on && heat.weights ? heat.weights.list : null;
  board.exact = exactCells();
  board.forbidden = st && st.forbidden && st.forbidden.length ? st.forbidden : null;
  board.schedule();
  grid.setStones(list);

  const lineLength = tree.line().length;
  host.dataset.status = outcome.status;
  host.dataset.winner = outcome.winner || '';
  host.dataset.line = board.line ? outcome.line.map((c) => c.cell).join(' ') : '';
  host.dataset.ply = String(tree.ply);
  host.dataset.lineLength = String(lineLength);
  host.dataset.toMove = st ? st.to_move : '';
  host.dataset.hint = hint ? hint.cell : '';
  host.dataset.heatCells = board.heat ? String(board.heat.length) : '';
  host.dataset.exactCells = board.exact ? String(board.exact.length) : '';
  host.dataset.exact = board.exact ? board.exact.map((e) => `${cellName(e.x, e.y)}:${e.kind}`).join(' ') : '';
  host.dataset.forbidden = board.forbidden ? board.forbidden.map((f) => `${f.cell}:${f.kind}`).join(' ') : '';
  renderLegend(st);

  const opening = store.opening.kind === 'free' ? '' : ` — ${store.opening.kind}`;
  $('game-title').textContent = `${rulesTitle(store.rules)} — ${opponentTitle(store.opponent)}${opening}`;
  $('btn-centre').hidden = !store.rules.unbounded;

  const status = statusText(outcome, st);
  const ended = outcome.status === 'win' || outcome.status === 'draw' || Boolean(store.record);
  $('status').textContent = status;
  $('status').hidden = ended;
  $('banner').hidden = !ended;
  $('banner-text').textContent = ended ? status : '';
  $('banner').dataset.outcome = outcome.status === 'win' ? `win-${outcome.winner}` : outcome.status;
  $('viewing').textContent = tree.ply < lineLength ? t('viewingPly', { n: tree.ply, of: lineLength }) : '';
  const info = typeof store.info === 'function' ? store.info() : store.info;
  $('info').textContent = [info, unwonText(st)].filter(Boolean).join(' ');
  renderMoveList();
  renderReview();
  renderAnalysis();
  for (const listener of renderListeners) listener();
  board.schedule();
  updateButtons();
}

const MARK_SYMBOLS = { best: '★', good: '✓', inaccuracy: '?!', mistake: '?', blunder: '??' };
const MARK_ORDER = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];

/** The review's progress, its summary per player, and the "find the better move" trial. */
function renderReview() {
  const { review, tree } = store;
  const el = $('review');
  el.hidden = !review.on;
  $('btn-review').setAttribute('aria-pressed', String(review.on));
  if (!review.on) return;
  const line = tree.line();
  const marked = line.filter((n) => n.review).length;
  el.dataset.done = String(marked === line.length && !review.ctl);
  $('review-progress').textContent = review.ctl ? t('reviewing', { n: review.done, of: review.total }) : t('reviewDone', { n: marked });
  const rows = ['X', 'O'].map((p) => {
    const counts = Object.fromEntries(MARK_ORDER.map((m) => [m, 0]));
    line.forEach((n, i) => {
      if (n.review && playerOf(i) === p) counts[n.review.mark] += 1;
    });
    return { p, counts };
  });
  const accuracy = accuracies();
  const table = $('review-summary');
  const head = `<tr><th></th>${MARK_ORDER.map((m) => `<th title="${t(`mark_${m}`)}" class="m-${m}">${MARK_SYMBOLS[m]}</th>`).join('')}<th>${t('accuracy')}</th></tr>`;
  const cellOf = (p) => (accuracy[p] === null ? '–' : `${accuracy[p].toFixed(1)}%`);
  const body = rows.map((r) => `<tr data-player="${r.p}"><th>${r.p}</th>${MARK_ORDER.map((m) => `<td data-mark="${m}">${r.counts[m]}</td>`).join('')}<td data-accuracy="${accuracy[r.p] === null ? '' : accuracy[r.p].toFixed(1)}">${cellOf(r.p)}</td></tr>`).join('');
  table.innerHTML = head + body;
  const trial = review.trial;
  $('review-verdict').textContent = trial ? trial.verdict || t(`trialAsk_${trial.node.review.mark}`, { cell: trial.node.move }) : review.lastVerdict || '';
  renderReviewedMove(tree.cursor);
  $('btn-trial').hidden = Boolean(trial) || Boolean(review.ctl);
  $('btn-reveal').hidden = !trial;
}

/**
 * Each player's accuracy over the moves of the line reviewed so far: the mean of their moves'
 * accuracies (null before any of theirs is marked).
 */
function accuracies() {
  const sums = { X: [0, 0], O: [0, 0] };
  store.tree.line().forEach((node, i) => {
    if (!node.review) return;
    const s = sums[playerOf(i)];
    s[0] += node.review.accuracy;
    s[1] += 1;
  });
  return { X: sums.X[1] ? sums.X[0] / sums.X[1] : null, O: sums.O[1] ? sums.O[0] / sums.O[1] : null };
}

/** What the review says of the move that led to `node`: its mark, what was better, and the line. */
function renderReviewedMove(node) {
  const el = $('review-move');
  const r = node.review;
  el.hidden = !r;
  if (!r) return;
  const mover = playerOf(node.ply - 1);
  const parts = [t('reviewMove', { n: node.ply, p: mover, cell: node.move, mark: t(`mark_${r.mark}`) })];
  if (r.mark !== 'best' && r.best && r.best !== node.move) {
    parts.push(t('reviewBetter', { cell: r.best, value: valueText(r.bestValue, mover), played: valueText(r.value, mover) }));
    if (r.line && r.line.length > 1) parts.push(t('reviewLine', { line: r.line.join(' ') }));
  }
  el.textContent = parts.join(' ');
  el.dataset.mark = r.mark;
}

/**
 * The current line, one entry per ply; the position shown is marked, and where other moves
 * were tried from the same position they are listed under the move as buttons.
 */
function renderMoveList() {
  const { tree } = store;
  const ol = $('moves');
  const frag = document.createDocumentFragment();
  tree.line().forEach((node, i) => {
    const li = document.createElement('li');
    li.dataset.ply = String(i + 1);
    li.className = `mv ${playerOf(i) === 'X' ? 'mx' : 'mo'}`;
    const go = document.createElement('button');
    go.type = 'button';
    go.className = 'go';
    go.innerHTML = `<span class="n">${i + 1}.</span> <span class="p">${playerOf(i)}</span> <span class="c"></span>`;
    go.querySelector('.c').textContent = node.move;
    if (node.review) {
      const mark = document.createElement('span');
      mark.className = `mark m-${node.review.mark}`;
      mark.dataset.mark = node.review.mark;
      mark.textContent = MARK_SYMBOLS[node.review.mark];
      mark.title = t(`mark_${node.review.mark}`);
      go.appendChild(mark);
    }
    if (node === tree.cursor) go.setAttribute('aria-current', 'step');
    go.addEventListener('click', () => hooks.goto(node));
    li.appendChild(go);
    const others = node.parent.children.filter((c) => c !== node);
    if (others.length) {
      const alts = document.createElement('span');
      alts.className = 'alts';
      alts.setAttribute('aria-label', t('variations'));
      for (const alt of others) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'alt';
        b.dataset.move = alt.move;
        b.textContent = alt.move;
        b.title = t('switchVariation', { move: alt.move });
        b.addEventListener('click', () => hooks.goto(alt));
        alts.appendChild(b);
      }
      li.appendChild(alts);
    }
    frag.appendChild(li);
  });
  ol.replaceChildren(frag);
  const current = ol.querySelector('[aria-current]');
  if (current) revealInList(ol, current);
  else ol.scrollTop = 0;
}

/**
 * Scrolls the list `list` (and nothing else) so that `item` is in it: `scrollIntoView` would
 * scroll the page too, and on a phone, where the list is below the board, the page would run
 * away from the player after every move.
 */
function revealInList(list, item) {
  const box = list.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

export function updateButtons() {
  const busy = Boolean(store.step);
  const can = !busy && humanToMove();
  const { tree } = store;
  $('btn-undo').disabled = !tree.ply;
  $('btn-hint').disabled = !can;
  $('btn-auto').disabled = busy || !position() || !ongoing();
  $('btn-numbers').setAttribute('aria-pressed', String(settings.numbers));
  $('nav-start').disabled = !tree.ply;
  $('nav-back').disabled = !tree.ply;
  $('nav-forward').disabled = tree.atEnd();
  $('nav-end').disabled = tree.atEnd();
}
