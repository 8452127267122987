// "How did it choose?": a bot's explanation of the move it played (or hinted), from
// POST /api/explain asked with the very request and seed of that move, so it explains the same
// decision. One view per kind of explanation: the rule player's rule and spiral sums, the line
// counter's alpha-beta tree stepped through in search order, the perfect player's line of best
// play, the attack weights' sums, and the search engine's iterations, threat sequence, root
// moves and principal path (bounded by the API: a few hundred rows at most, however long the
// engine searched).
//
// The alpha-beta tree holds up to 20,000 nodes: it is flattened once into a list of steps (plain
// objects), and only the step shown is drawn, so the page never holds the tree as DOM.

import { call, RequestError } from './api.js';
import { describeError } from './errors.js';
import { exploreFrom } from './explorer.js';
import { t } from './i18n.js';
import { other, parseCell } from './notation.js';
import { store } from './store.js';
import { onRender, valueText } from './view.js';

const $ = (id) => document.getElementById(id);

/** Steps per second the trace plays at, the player's choice. */
const SPEEDS = [1, 2, 5, 20, 100];
const MAX_WINDOWS_SHOWN = 24;

let player = null; // the alpha-beta trace shown: { steps, i, timer, ... }
let asked = null; // the request in flight, to cancel when the dialog closes

/** Creates an element with a class and text (or children). */
function el(tag, cls, content) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (content === undefined || content === null) return e;
  if (Array.isArray(content)) e.append(...content.filter((c) => c !== null && c !== undefined));
  else e.append(content);
  return e;
}

/** A value of the solver's form ({kind, plies}) in words. */
function exactValue(v) {
  if (!v) return '—';
  if (v.kind === 'win') return t('exWinIn', { n: v.plies });
  if (v.kind === 'loss') return t('exLossIn', { n: v.plies });
  return t('exDraw');
}

/** A score of the alpha-beta trace in words: a line count, a finished game, an open end. */
export function score(s) {
  if (s === 'inf') return '+∞';
  if (s === '-inf') return '−∞';
  if (s === null || s === undefined) return '—';
  if (typeof s === 'object' && 'win' in s) return t('exWinIn', { n: s.win });
  if (typeof s === 'object' && 'loss' in s) return t('exLossIn', { n: s.loss });
  return String(s);
}

/**
 * Opens the view for `request` ({body, played}: the move's request with its seed, and the cell
 * it played), `hint` when the move was a hint.
 */
export function openExplain(request, { hint = false, rules, first } = {}) {
  const dlg = $('dlg-explain');
  stopPlayer();
  const body = $('explain-body');
  body.replaceChildren(el('p', 'legend', t('exAsking')));
  $('dlg-explain-title').textContent = hint ? t('exTitleHint', { cell: request.played }) : t('exTitle', { cell: request.played });
  dlg.dataset.kind = '';
  if (!dlg.open) dlg.showModal();
  if (asked) asked.abort();
  const ctl = new AbortController();
  asked = ctl;
  call('explain', request.body, { signal: ctl.signal, timeoutMs: 30000 }).then(
    (r) => {
      if (asked !== ctl) return;
      asked = null;
      const ex = r.explanation;
      dlg.dataset.kind = ex.kind;
      const parts = [];
      if (r.move.cell !== request.played) parts.push(el('p', 'warn', t('exDiffers', { cell: r.move.cell, played: request.played })));
      const ctx = { rules, first, moves: request.body.moves, chosen: r.move.cell };
      const views = { rules: rulesView, alphabeta: alphabetaView, perfect: perfectView, weights: weightsView, engine: engineView };
      parts.push(views[ex.kind] ? views[ex.kind](ex, ctx) : el('p', null, ex.kind));
      body.replaceChildren(...parts);
    },
    (err) => {
      if (asked !== ctl) return;
      asked = null;
      if (err instanceof RequestError && err.kind === 'aborted') return;
      if (err instanceof RequestError && err.code === 'not_explained') {
        dlg.dataset.kind = 'not_explained';
        body.replaceChildren(el('p', 'explain-refusal', t('exNotExplained')));
        return;
      }
      dlg.dataset.kind = 'error';
      body.replaceChildren(el('p', 'warn', describeError(err)));
    },
  );
}

function closeExplain() {
  stopPlayer();
  if (asked) asked.abort();
  asked = null;
}

// ---------------------------------------------------------------------------------------------
// Pictures

/**
 * A small board: `stones` maps "x,y" to 'X' | 'O'; `marks` maps "x,y" to a label (a square's
 * number, a move's depth); `focus` is the cell named "x,y" to ring. Bounded boards up to 19
 * wide show whole, others the stones' box with a margin.
 */
function miniBoard(rules, stones, { marks = new Map(), focus = null, label = '' } = {}) {
  let x0 = 0;
  let y0 = 0;
  let w = rules.width;
  let h = rules.height;
  if (rules.unbounded || !w || !h || w > 19 || h > 19) {
    const keys = [...stones.keys(), ...marks.keys()].map((k) => k.split(',').map(Number));
    const xs = keys.map((c) => c[0]);
    const ys = keys.map((c) => c[1]);
    x0 = Math.min(0, ...xs) - 2;
    y0 = Math.min(0, ...ys) - 2;
    w = Math.max(0, ...xs) + 3 - x0;
    h = Math.max(0, ...ys) + 3 - y0;
  }
  const grid = el('div', 'mini-board');
  grid.style.gridTemplateColumns = `repeat(${w}, var(--mini))`;
  grid.setAttribute('role', 'img');
  if (label) grid.setAttribute('aria-label', label);
  if (w > 9) grid.classList.add('dense');
  for (let y = y0 + h - 1; y >= y0; y--) {
    for (let x = x0; x < x0 + w; x++) {
      const key = `${x},${y}`;
      const sq = el('span', 'mini-cell');
      const stone = stones.get(key);
      if (stone) sq.dataset.stone = stone;
      if (marks.has(key)) sq.append(el('span', 'mini-mark', String(marks.get(key))));
      if (focus === key) sq.classList.add('focus');
      grid.append(sq);
    }
  }
  return grid;
}

/** The stones after `moves` (names), the first played by `first`. */
function stonesOf(moves, first) {
  const stones = new Map();
  let p = first;
  for (const m of moves) {
    const c = parseCell(m);
    if (c) stones.set(`${c.x},${c.y}`, p);
    p = other(p);
  }
  return stones;
}

const keyOf = (name) => {
  const c = parseCell(name);
  return c ? `${c.x},${c.y}` : '';
};

function table(head, rows, cls = '') {
  // The classes are prefixed: the page's move list is `.moves`.
  const tb = el('table', `explain-table${cls ? ` ex-${cls}` : ''}`);
  tb.append(el('thead', null, el('tr', null, head.map((h) => el('th', null, h)))));
  tb.append(el('tbody', null, rows.map((r) => (r instanceof HTMLElement ? r : el('tr', null, r.map((c) => el('td', null, c)))))));
  return tb;
}

// ---------------------------------------------------------------------------------------------
// The rule player

function rulesView(ex, ctx) {
  const root = el('div', 'explain-rules');
  const chosen = keyOf(ctx.chosen);
  const lineText = ex.line !== null && ex.line !== undefined ? ex.rows[ex.line] : null;
  // A side or corner can be a fork pattern's reply: then the pattern is why.
  const why = ex.pattern && ex.pattern.played ? 'fork' : ex.rule;
  root.append(el('p', 'explain-rule', [el('strong', null, t(`exRule_${ex.rule}`)), ' ', t(`exRuleWhy_${why}`, { p: ex.for })]));
  const stones = new Map();
  const marks = new Map();
  for (const s of ex.squares) {
    if (s.stone) stones.set(`${s.x},${s.y}`, s.stone);
    marks.set(`${s.x},${s.y}`, s.square);
  }
  const pic = miniBoard({ width: 3, height: 3 }, stones, { marks, focus: chosen, label: t('exSquares') });
  pic.classList.add('squares');
  root.append(el('div', 'explain-side', [pic, el('p', 'legend', t('exSquaresKey', { p: ex.for, mine: ex.mine, theirs: ex.theirs }))]));
  if (ex.pattern) {
    const pt = ex.pattern;
    root.append(
      el('p', null, t('exPattern', {
        table: t(`exTable_${pt.table}`),
        pattern: pt.pattern,
        cells: pt.cells.join(', '),
        reply: pt.reply_cells.join(', '),
      })),
    );
    if (!pt.played) root.append(el('p', 'legend', t('exPatternTaken')));
  }
  const rows = ex.rows.map((row, i) => {
    const tr = el('tr', null, [el('td', null, t(`exRow_${i < 3 ? 'row' : i < 6 ? 'column' : 'diagonal'}`)), el('td', null, row.cells.join(' ')), el('td', null, String(row.squares)), el('td', null, String(row.sum))]);
    if (row === lineText) tr.classList.add('fired');
    return tr;
  });
  root.append(table([t('exLine'), t('exCells'), t('exSquaresSum'), t('exSum')], rows, 'rows'));
  root.append(el('p', 'legend', t('exSumKey')));
  root.append(el('p', null, t('exCandidates', { cells: ex.candidates.join(', '), cell: ctx.chosen })));
  return root;
}

// ---------------------------------------------------------------------------------------------
// The line counter's alpha-beta search

/**
 * The tree as a list of steps in search order: an inner node is entered (its window), then its
 * children, then it returns (its value, a cut-off); a leaf is one step. No DOM here.
 */
export function flatten(tree) {
  const steps = [];
  const stack = [{ node: tree, path: [], chain: [tree], state: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1];
    const { node, path, chain } = top;
    const children = node.children || [];
    if (!children.length) {
      steps.push({ kind: 'leaf', node, path, chain });
      stack.pop();
      continue;
    }
    if (top.state === 0) steps.push({ kind: 'enter', node, path, chain });
    if (top.state < children.length) {
      const child = children[top.state];
      top.state += 1;
      stack.push({ node: child, path: [...path, child.move], chain: [...chain, child], state: 0 });
    } else {
      steps.push({ kind: 'return', node, path, chain });
      stack.pop();
    }
  }
  return steps;
}

function alphabetaView(ex, ctx) {
  const root = el('div', 'explain-ab');
  const saved = ex.saved;
  root.append(
    el('p', 'explain-counts', t('exCounts', { nodes: ex.nodes, cutoffs: ex.cutoffs, saved, depth: ex.depth })),
  );
  if (ex.preselected) root.append(el('p', 'legend', t('exPreselected', { n: ex.preselected })));
  if (ex.truncated) root.append(el('p', 'legend warn', t('exTruncated', { recorded: ex.recorded, limit: ex.limits.nodes })));
  if (ex.stopped) root.append(el('p', 'legend warn', t('exStopped')));
  root.append(el('p', 'legend', t('exAbKey', { p: ex.for })));

  const steps = flatten(ex.tree);
  const controls = el('div', 'row explain-controls');
  const button = (id, label, title) => {
    const b = el('button', 'small', label);
    b.type = 'button';
    b.id = id;
    b.title = title;
    b.setAttribute('aria-label', title);
    controls.append(b);
    return b;
  };
  const first = button('ex-first', '|◀', t('exFirst'));
  const back = button('ex-back', '◀', t('exBack'));
  const play = button('ex-play', '▶▶', t('exPlay'));
  const fwd = button('ex-forward', '▶', t('exForward'));
  const last = button('ex-last', '▶|', t('exLast'));
  const speed = el('select', 'small');
  speed.id = 'ex-speed';
  speed.setAttribute('aria-label', t('exSpeed'));
  for (const s of SPEEDS) {
    const o = el('option', null, t('exPerSecond', { n: s }));
    o.value = String(s);
    speed.append(o);
  }
  speed.value = '5';
  controls.append(speed);
  const range = el('input', 'explain-range');
  range.type = 'range';
  range.min = '0';
  range.max = String(steps.length - 1);
  range.value = '0';
  range.id = 'ex-range';
  range.setAttribute('aria-label', t('exStepOf', { i: 1, n: steps.length }));
  const panel = el('div', 'explain-step');
  panel.id = 'ex-panel';
  root.append(controls, range, panel);

  player = { steps, i: 0, timer: 0, panel, range, play, ctx, ex };
  const go = (i) => {
    stopTimer();
    show(Math.max(0, Math.min(steps.length - 1, i)));
  };
  first.addEventListener('click', () => go(0));
  back.addEventListener('click', () => go(player.i - 1));
  fwd.addEventListener('click', () => go(player.i + 1));
  last.addEventListener('click', () => go(steps.length - 1));
  range.addEventListener('input', () => go(Number(range.value)));
  speed.addEventListener('change', () => {
    if (player.timer) startTimer(Number(speed.value));
  });
  play.addEventListener('click', () => {
    if (player.timer) stopTimer();
    else {
      if (player.i >= steps.length - 1) show(0);
      startTimer(Number(speed.value));
    }
  });
  show(0);
  return root;
}

function startTimer(perSecond) {
  clearInterval(player.timer);
  player.play.textContent = '❚❚';
  player.play.setAttribute('aria-pressed', 'true');
  player.timer = setInterval(() => {
    if (!player || player.i >= player.steps.length - 1) return stopTimer();
    show(player.i + 1);
  }, 1000 / perSecond);
}

function stopTimer() {
  if (!player) return;
  clearInterval(player.timer);
  player.timer = 0;
  player.play.textContent = '▶▶';
  player.play.setAttribute('aria-pressed', 'false');
}

function stopPlayer() {
  stopTimer();
  player = null;
}

/** Draws step `i` of the trace: only this step's elements exist. */
function show(i) {
  const { steps, panel, range, ctx, ex } = player;
  player.i = i;
  range.value = String(i);
  range.setAttribute('aria-label', t('exStepOf', { i: i + 1, n: steps.length }));
  const step = steps[i];
  const { node, path } = step;
  const mover = path.length % 2 === 0 ? ex.for : other(ex.for);
  const stones = stonesOf([...ctx.moves, ...path], ctx.first);
  const marks = new Map(path.map((m, d) => [keyOf(m), d + 1]));
  const focus = path.length ? keyOf(path[path.length - 1]) : null;
  const parts = [];
  parts.push(el('p', 'legend', [el('span', null, t('exStepOf', { i: i + 1, n: steps.length })), ' · ', t(`exStep_${step.kind}`)]));
  parts.push(el('p', 'explain-path', [t('exPath'), ' ', path.length ? path.join(' → ') : t('exRoot')]));
  const facts = el('dl', 'explain-facts');
  const fact = (id, name, value) => {
    const dd = el('dd', null, value);
    dd.id = id;
    facts.append(el('dt', null, name), dd);
  };
  fact('ex-tomove', t('exToMove'), t(node.max ? 'exMaximises' : 'exMinimises', { p: mover }));
  fact('ex-alpha', 'α', score(node.alpha));
  fact('ex-beta', 'β', score(node.beta));
  fact('ex-value', t('exValue'), step.kind === 'enter' ? '…' : score(node.value));
  const pic = miniBoard(ctx.rules, stones, { marks, focus, label: t('exPath') });
  parts.push(el('div', 'explain-side', [pic, facts]));
  // The searches this one is inside, each with its window: where the α and β came from.
  if (step.chain.length > 1) {
    const rows = step.chain.map((n, d) => {
      const tr = el('tr', null, [
        el('td', null, d ? n.move : t('exRootShort')),
        el('td', null, n.max ? 'max' : 'min'),
        el('td', null, score(n.alpha)),
        el('td', null, score(n.beta)),
      ]);
      if (n === node) tr.classList.add('fired');
      return tr;
    });
    parts.push(table([t('exMove'), '', 'α', 'β'], rows, 'stack'), el('p', 'legend', t('exStackKey')));
  }
  if (step.kind === 'leaf') parts.push(leafView(node));
  if (step.kind === 'return') {
    const children = node.children || [];
    parts.push(
      table(
        [t('exMove'), t('exValue')],
        children.map((c) => [c.move, score(c.value)]),
        'children',
      ),
    );
  }
  if (step.kind !== 'enter' && node.saved) {
    const saved = Array.isArray(node.saved) ? node.saved : null;
    const n = saved ? saved.length : node.saved;
    const cut = el('p', 'explain-cut', t(node.max ? 'exCutBeta' : 'exCutAlpha', { n, moves: saved ? saved.join(', ') : '' }));
    cut.id = 'ex-cut';
    parts.push(cut);
  }
  if (node.unrecorded) parts.push(el('p', 'legend', t('exUnrecorded', { n: node.unrecorded })));
  if (i === steps.length - 1) {
    const end = el('p', 'explain-chosen', t('exChosen', { cell: ctx.chosen, value: score(ex.tree.value) }));
    end.id = 'ex-chosen';
    parts.push(end);
  }
  panel.replaceChildren(...parts);
  panel.dataset.step = String(i);
  panel.dataset.kind = step.kind;
}

/** A leaf's line count, term by term, and the windows behind it. */
function leafView(node) {
  const box = el('div', 'explain-leaf');
  box.append(el('p', null, t(`exExit_${node.exit}`)));
  const ev = node.eval;
  if (!ev) return box;
  const rows = ev.terms.map(([side, stones, windows, each]) => [
    side,
    stones ? String(stones) : t('exEmpty'),
    String(windows),
    String(each),
    String(windows * each),
  ]);
  rows.push([t('exMixed'), '', String(ev.mixed), '0', '0']);
  const tb = table([t('exSide'), t('exStones'), t('exWindows'), t('exEach'), t('exPoints')], rows, 'terms');
  tb.id = 'ex-terms';
  box.append(tb, el('p', 'legend', t('exTermsKey', { value: score(node.value) })));
  if (ev.windows && ev.windows.length) {
    const det = el('details', 'explain-windows');
    det.append(el('summary', null, t('exWindowList', { n: ev.windows.length })));
    const list = ev.windows.slice(0, MAX_WINDOWS_SHOWN).map((w) => `${w.cells.join(' ')}: ${w.side} ×${w.stones} → ${w.points}`);
    if (ev.windows.length > MAX_WINDOWS_SHOWN) list.push('…');
    det.append(el('ul', null, list.map((s) => el('li', null, s))));
    box.append(det);
  }
  return box;
}

// ---------------------------------------------------------------------------------------------
// The perfect player

function perfectView(ex, ctx) {
  const root = el('div', 'explain-perfect');
  const value = el('p', 'explain-rule', [el('strong', null, exactValue(ex.value)), ' — ', t(`exReason_${ex.reason}`, { p: ex.for })]);
  root.append(value, el('p', null, t('exBest', { cells: ex.best.join(', ') })));
  root.append(el('h3', null, t('exLineOfPlay')));
  const line = el('ol', 'explain-line');
  line.id = 'ex-line';
  for (const step of ex.path) line.append(el('li', null, `${step.player} ${step.move} — ${exactValue(step.value)}`));
  const path = ex.path.map((step) => step.move);
  const marks = new Map(path.map((m, i) => [keyOf(m), i + 1]));
  const pic = miniBoard(ctx.rules, stonesOf([...ctx.moves, ...path], ctx.first), { marks, focus: keyOf(ctx.chosen), label: t('exLineOfPlay') });
  root.append(el('div', 'explain-side', [pic, line]));
  if (!ex.path_complete) root.append(el('p', 'legend', t('exPathCut')));
  root.append(el('h3', null, t('exEveryMove')));
  const best = new Set(ex.best);
  const rows = (ex.moves || []).map((m) => {
    const tr = el('tr', null, [el('td', null, m.cell), el('td', null, exactValue(m.value))]);
    if (best.has(m.cell)) tr.classList.add('fired');
    return tr;
  });
  root.append(table([t('exMove'), t('exValue')], rows, 'moves'));
  // The same values, and the games and positions below each move, in the game-tree explorer.
  const explore = el('button', null, t('exExplore'));
  explore.type = 'button';
  explore.id = 'ex-explore';
  explore.addEventListener('click', () => {
    $('dlg-explain').close();
    exploreFrom(ctx.moves);
    $('explorer').scrollIntoView({ block: 'nearest' });
  });
  root.append(el('p', null, explore));
  return root;
}

// ---------------------------------------------------------------------------------------------
// The attack-weight bot

const ANGLES = { '1,0': '0°', '1,1': '45°', '0,1': '90°', '-1,1': '135°', '1,-1': '135°' };
const num = (w) => String(Math.round(w * 1000) / 1000);

function weightsView(ex, ctx) {
  const root = el('div', 'explain-weights');
  root.append(el('p', 'explain-rule', t(ex.mistake ? 'exWeightsMistake' : 'exWeightsChoice', { cells: ex.choices.join(', '), n: ex.weighed, cell: ctx.chosen })));
  // The weighed cells on the board, numbered heaviest first.
  const marks = new Map(ex.cells.map((c, i) => [`${c.x},${c.y}`, i + 1]));
  const pic = miniBoard(ctx.rules, stonesOf(ctx.moves, ctx.first), { marks, focus: keyOf(ctx.chosen), label: t('exWeightsRank') });
  root.append(el('div', 'explain-side', [pic, el('p', 'legend', t('exWeightsRank'))]));
  root.append(el('p', 'legend', t('exWeightsKey')));
  for (const cell of ex.cells) {
    const det = el('details', 'explain-cell');
    det.dataset.cell = cell.cell;
    if (cell.cell === ctx.chosen) det.open = true;
    const tag = cell.cell === ctx.chosen ? ` — ${t('exChosenTag')}` : ex.choices.includes(cell.cell) ? ` — ${t('exChoiceTag')}` : '';
    det.append(el('summary', null, `${cell.cell}: ${num(cell.weight)}${tag}`));
    for (const side of cell.sides) {
      det.append(el('h4', null, t('exSideWeight', { p: side.side, w: num(side.weight) })));
      const rows = [];
      for (const line of side.lines) {
        const attacks = line.attacks.map((a) => t('exAttack', { power: a.power, potential: a.potential, divider: a.divider, w: num(a.weight) })).join('; ');
        let note = line.breakpoint ? t('exBreakpoint') : '';
        if (line.double_breakpoint) note = t('exDoubleBreakpoint', { w: num(line.double_breakpoint) });
        rows.push([ANGLES[line.direction.join(',')] || line.direction.join(','), attacks || '—', note, num(line.weight)]);
      }
      if (side.bonus) rows.push([t(`exBonus_${side.bonus.kind}`), '', '', num(side.bonus.weight)]);
      rows.push([t('exTotal'), '', '', num(side.weight)]);
      det.append(table([t('exDirection'), t('exAttacks'), '', t('exWeight')], rows, 'lines'));
    }
    det.append(el('p', 'legend', t('exCellSum', { sum: `${cell.sides.map((s) => num(s.weight)).join(' + ')} = ${num(cell.weight)}` })));
    root.append(det);
  }
  return root;
}

// ---------------------------------------------------------------------------------------------
// The search engine

/** A searched value for `mover` as the page shows values (X's chance), with its bound. */
function boundedValue(v, bound, mover) {
  const text = valueText(v, mover);
  return bound === 'exact' ? text : `${text} (${t(`exBound_${bound}`, { p: mover })})`;
}

/** A line of moves as "X h8 · O i9 · …", the first played by `first`. */
function lineText(moves, first) {
  let p = first;
  return moves
    .map((m) => {
      const s = `${p} ${m}`;
      p = other(p);
      return s;
    })
    .join(' · ');
}

function engineView(ex, ctx) {
  const root = el('div', 'explain-engine');
  const me = ex.for;
  const last = ex.iterations[ex.iterations.length - 1];
  const limits = [];
  if (ex.limits.depth) limits.push(t('exLimitDepth', { n: ex.limits.depth }));
  if (ex.limits.nodes) limits.push(t('exLimitNodes', { n: ex.limits.nodes.toLocaleString() }));
  if (ex.limits.time_ms) limits.push(t('exLimitTime', { n: ex.limits.time_ms }));
  const summary = el('p', 'explain-rule', [
    el('strong', null, t('exEngineChose', { cell: ctx.chosen, value: last ? valueText(last.value, me) : '—' })),
    ' ',
    t(`exEnded_${ex.ended_by}`),
  ]);
  summary.id = 'ex-ended';
  summary.dataset.ended = ex.ended_by;
  root.append(summary);
  if (limits.length) root.append(el('p', 'legend', t('exLimits', { limits: limits.join(', ') })));

  // The threat sequence: drawn on the small board, numbered in order, and listed.
  if (ex.threat) {
    root.append(el('h3', null, t(`exThreat_${ex.threat.kind}`, { p: me })));
    const line = ex.threat.line;
    const marks = new Map(line.map((m, i) => [keyOf(m), i + 1]));
    const pic = miniBoard(ctx.rules, stonesOf([...ctx.moves, ...line], ctx.first), {
      marks,
      focus: keyOf(ctx.chosen),
      label: t('exThreatLine'),
    });
    const list = el('ol', 'explain-line');
    list.id = 'ex-threat';
    let p = me;
    line.forEach((m, i) => {
      list.append(el('li', null, `${p} ${m}${i % 2 ? ` — ${t('exForced')}` : ''}`));
      p = other(p);
    });
    root.append(el('div', 'explain-side', [pic, list]));
    root.append(el('p', 'legend', t('exThreatKey', { p: me })));
  }
  if (ex.defences) {
    root.append(
      el('p', 'explain-defences', t('exDefences', { p: other(me), line: lineText(ex.defences.threat, other(me)), moves: ex.defences.moves.join(', ') })),
    );
  }

  // The iterations of iterative deepening (none when a threat search proved the move).
  if (ex.iterations.length && !ex.threat) {
    root.append(el('h3', null, t('exIterations')));
    const rows = ex.iterations.map((it, i) => {
      const tr = el('tr', null, [
        el('td', null, String(it.depth)),
        // "X 56%" never splits between its player and its chance.
        el('td', null, valueText(it.value, me).replace(' ', '\u00a0')),
        el('td', 'explain-path', it.pv.join(' ')),
        el('td', null, Number(it.nodes).toLocaleString()),
        el('td', null, String(it.time_ms)),
      ]);
      if (i === ex.iterations.length - 1) tr.classList.add('fired');
      return tr;
    });
    const tb = table([t('exDepth'), t('exChance'), t('exPv'), t('exNodes'), t('exMs')], rows, 'iterations');
    tb.id = 'ex-iterations';
    root.append(el('div', 'explain-scroll', tb), el('p', 'legend', t('exIterationsKey')));
  }

  // The root moves compared, highlighted on the board (numbered best first).
  const cands = ex.root.moves;
  if (cands.length) {
    root.append(el('h3', null, t('exCandidatesTitle', { depth: ex.root.depth })));
    const shown = cands.slice(0, 9);
    const marks = new Map(shown.map((m, i) => [keyOf(m.cell), i + 1]));
    const pic = miniBoard(ctx.rules, stonesOf(ctx.moves, ctx.first), { marks, focus: keyOf(ctx.chosen), label: t('exCandidatesTitle', { depth: ex.root.depth }) });
    pic.id = 'ex-candidates-board';
    const rows = cands.map((m, i) => {
      const tr = el('tr', null, [el('td', null, String(i + 1)), el('td', null, m.cell), el('td', null, boundedValue(m.value, m.bound, me))]);
      if (m.cell === ctx.chosen) tr.classList.add('fired');
      return tr;
    });
    const tb = table(['#', t('exMove'), t('exChance')], rows, 'candidates');
    tb.id = 'ex-candidates';
    root.append(el('div', 'explain-side', [pic, el('div', 'explain-scroll short', tb)]));
    const more = ex.root.more ? ` ${t('exMore', { n: ex.root.more })}` : '';
    root.append(el('p', 'legend', t('exCandidatesKey', { p: me }) + more));
  }

  // The principal path: at each position of the line, the moves searched there.
  if (ex.path.length > 1) {
    root.append(el('h3', null, t('exPathTitle')));
    const box = el('div', 'explain-pathnodes');
    box.id = 'ex-path';
    const played = [];
    ex.path.slice(1).forEach((node, i) => {
      played.push(node.move);
      const det = el('details', 'explain-cell');
      det.dataset.ply = String(i + 1);
      if (i === 0) det.open = true;
      det.append(el('summary', null, t('exPathNode', { line: lineText(played, me), p: node.for, n: node.moves.length + node.more })));
      const next = ex.path[i + 2] ? ex.path[i + 2].move : null;
      const rows = node.moves.map((m) => {
        const tr = el('tr', null, [el('td', null, m.cell), el('td', null, boundedValue(m.value, m.bound, node.for))]);
        if (m.cell === next) tr.classList.add('fired');
        return tr;
      });
      det.append(table([t('exMove'), t('exChance')], rows, 'siblings'));
      if (node.more) det.append(el('p', 'legend', t('exMore', { n: node.more })));
      box.append(det);
    });
    root.append(box, el('p', 'legend', t('exPathKey', { n: ex.bounds.siblings })));
  }
  if (ex.unrecorded) root.append(el('p', 'legend', t('exPvUnrecorded', { n: ex.unrecorded, limit: ex.bounds.pv_nodes })));
  return root;
}

/** What the button explains: the hint shown, else the computer's move that led to the position. */
function explainable() {
  if (store.hint) return store.hint.explain ? { request: store.hint.explain, hint: true } : null;
  const node = store.tree.cursor;
  return node && node.explain ? { request: node.explain, hint: false } : null;
}

/** Shows the button beside the info line when there is a move to explain. */
function renderButton() {
  $('btn-explain').hidden = !explainable();
}

/** Opens the view for what the button explains (the button, or the X key). */
export function explainLast() {
  const what = explainable();
  if (!what) return;
  openExplain(what.request, { hint: what.hint, rules: store.rules, first: store.rules.first || 'X' });
}

/** Wires the button, the dialog's close button and the cancelling of a request when it closes. */
export function bindExplain() {
  $('btn-explain').addEventListener('click', explainLast);
  $('explain-close').addEventListener('click', () => $('dlg-explain').close());
  // The close event comes a task later: the view opened again meanwhile (X pressed at once)
  // keeps its request.
  $('dlg-explain').addEventListener('close', () => {
    if (!$('dlg-explain').open) closeExplain();
  });
  onRender(renderButton);
}
