// Review (R): every move of the current line marked best, good, inaccuracy, mistake or blunder,
// a summary per player, and "find the better move" for the mistakes.
//
// On boards the solver decides, marks are exact: a blunder changes the game's exact outcome (a
// won position no longer won, a drawn one lost), and no other move is a blunder; a move keeping
// the outcome is best when it is as fast a win (or as slow a loss) as possible, else good.
// Elsewhere marks come from the engine's scores (positive is good for the mover, about 150 per
// unit of advantage since the mover's sum counts 9 quarters to 8): the score of the engine's best move in the position before, against the
// score of the position after the move played, seen by the mover. A proven win given away or a
// proven loss walked into is a blunder; otherwise the difference decides: up to 45 best (or the
// engine's own move), 150 good, 450 inaccuracy, 1200 mistake, more a blunder (docs/study.md).

import { call, RequestError } from './api.js';
import { showRequestFailure } from './errors.js';
import { t } from './i18n.js';
import { apiRules, cellName } from './notation.js';
import { playerOf, store } from './store.js';
import { render } from './view.js';

/** Engine thinking time per position, in ms. */
const ENGINE_MS = 300;
/** The solver's time per position, in ms. */
const SOLVE_MS = 4000;
/** Score differences (for the mover) up to which a move is best, good, an inaccuracy, a mistake. */
export const THRESHOLDS = { best: 45, good: 150, inaccuracy: 450, mistake: 1200 };
export const MARKS = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];

const outcomeClass = (v) => (v.kind === 'win' ? 1 : v.kind === 'loss' ? -1 : v.kind === 'draw' ? 0 : null);

/** A value as one number for the mover (proven results far beyond any evaluation). */
function scoreOf(v) {
  if (v.kind === 'win') return 100000 - v.plies;
  if (v.kind === 'loss') return -100000 + v.plies;
  if (v.kind === 'draw') return 0;
  return v.score;
}

/** The value of a position after a move, seen by the player who made it. */
function seenByMover(valueAfter) {
  if (valueAfter.kind === 'win') return { kind: 'loss', plies: valueAfter.plies + 1 };
  if (valueAfter.kind === 'loss') return { kind: 'win', plies: valueAfter.plies + 1 };
  if (valueAfter.kind === 'draw') return valueAfter;
  return { kind: 'eval', score: -valueAfter.score };
}

/** The mark of a move from exact values: the best move's and the played move's. */
export function exactMark(best, played) {
  const [b, p] = [outcomeClass(best), outcomeClass(played)];
  if (p < b) return 'blunder';
  return best.kind === played.kind && (best.plies || 0) === (played.plies || 0) ? 'best' : 'good';
}

/** The mark of a move from engine values (see the file's comment). */
export function engineMark(best, played, sameAsEngine) {
  if (best.kind === 'win' && played.kind !== 'win') return 'blunder';
  if (played.kind === 'loss' && best.kind !== 'loss') return 'blunder';
  const [b, p] = [outcomeClass(best), outcomeClass(played)];
  if (b !== null && p !== null && b === p) return exactMark(best, played);
  const loss = scoreOf(best) - scoreOf(played);
  if (sameAsEngine || loss <= THRESHOLDS.best) return 'best';
  if (loss <= THRESHOLDS.good) return 'good';
  if (loss <= THRESHOLDS.inaccuracy) return 'inaccuracy';
  if (loss <= THRESHOLDS.mistake) return 'mistake';
  return 'blunder';
}

/** The solver's answer for the position of `node` (kept on the node), or null if unsolvable. */
async function solved(node, signal) {
  if (node.exact && node.exact.moves) return node.exact;
  if ((node.exact && node.exact.unsolved) || store.review.tooLarge) return null;
  try {
    const r = await call('solve', { rules: apiRules(store.rules), moves: node.moves, time_ms: SOLVE_MS }, { signal });
    node.exact = { value: r.value, moves: r.moves, nodes: r.nodes, time_ms: r.time_ms };
    return node.exact;
  } catch (err) {
    if (err instanceof RequestError && (err.code === 'too_large' || err.code === 'out_of_time')) {
      node.exact = { unsolved: err.code };
      // The board's size does not change during a game: no need to ask again.
      if (err.code === 'too_large') store.review.tooLarge = true;
      return null;
    }
    throw err;
  }
}

/** The engine's best move and its value for the position of `node` (kept on the node). */
async function engineView(node, signal) {
  if (node.engine) return node.engine;
  const st = node.state;
  if (st && st.outcome.status !== 'ongoing') {
    // A finished game: the player to move has lost (or it is drawn); no move to suggest.
    node.engine = { value: st.outcome.status === 'draw' ? { kind: 'draw' } : { kind: 'loss', plies: 0 }, cell: null };
    return node.engine;
  }
  const r = await call('hint', { rules: apiRules(store.rules), moves: node.moves, time_ms: ENGINE_MS }, { signal });
  node.engine = { value: r.value, cell: r.move.cell };
  return node.engine;
}

/** Marks the move that led to `node`. */
async function markMove(node, signal) {
  const before = node.parent;
  const exact = await solved(before, signal);
  if (exact) {
    const played = exact.moves.find((m) => m.cell === node.move || cellName(m.x, m.y) === node.move);
    if (played) {
      const best = exact.moves[0];
      return { mark: exactMark(best.value, played.value), exact: true, best: best.cell, value: played.value, bestValue: best.value };
    }
  }
  const [b, after] = [await engineView(before, signal), await engineView(node, signal)];
  const played = seenByMover(after.value);
  return { mark: engineMark(b.value, played, b.cell === node.move), exact: false, best: b.cell, value: played, bestValue: b.value };
}

/** Reviews the current line; marks go on the nodes as they are found. */
export async function runReview() {
  const { review, tree } = store;
  if (review.ctl) review.ctl.abort();
  const ctl = new AbortController();
  Object.assign(review, { on: true, ctl, done: 0, total: tree.line().length, failed: null, tooLarge: false });
  render();
  const line = tree.line();
  try {
    for (const node of line) {
      if (!node.state) node.state = await call('state', { rules: apiRules(store.rules), moves: node.moves }, { signal: ctl.signal });
      if (!node.review) node.review = await markMove(node, ctl.signal);
      review.done += 1;
      render();
    }
  } catch (err) {
    if (err instanceof RequestError && err.kind === 'aborted') return;
    review.failed = err;
    showRequestFailure(err, runReview);
  } finally {
    if (review.ctl === ctl) review.ctl = null;
    render();
  }
}

export function toggleReview() {
  const { review } = store;
  if (review.on) {
    if (review.ctl) review.ctl.abort();
    Object.assign(review, { on: false, ctl: null, trial: null });
    render();
    return;
  }
  runReview();
}

/** Counts of each mark per player over the current line. */
export function summary() {
  const counts = { X: {}, O: {} };
  for (const p of ['X', 'O']) for (const m of MARKS) counts[p][m] = 0;
  store.tree.line().forEach((node, i) => {
    if (node.review) counts[playerOf(i)][node.review.mark] += 1;
  });
  return counts;
}

/** The moves worth another try: mistakes and blunders (of the human's side against the computer). */
export function mistakes() {
  const out = [];
  store.tree.line().forEach((node, i) => {
    if (!node.review || !['mistake', 'blunder'].includes(node.review.mark)) return;
    if (!store.opponent.human && playerOf(i) !== store.side) return;
    out.push(node);
  });
  return out;
}

/**
 * Starts "find the better move" at the first mistake not yet retried: the position before it is
 * shown and the next move the player chooses is judged instead of played.
 */
export function startTrial(goto) {
  const next = mistakes()[0];
  if (!next) return false;
  store.review.trial = { node: next, tries: 0, verdict: '' };
  goto(next.parent);
  return true;
}

/** Judges a move tried in "find the better move": as good as the best, or not. */
export async function judgeTrial(cell) {
  const { trial } = store.review;
  const node = trial.node;
  const before = node.parent;
  const mover = playerOf(before.ply);
  const name = cellName(cell.x, cell.y);
  trial.tries += 1;
  let good;
  const exact = before.exact && before.exact.moves;
  if (exact) {
    const m = exact.find((x) => x.cell === name);
    good = Boolean(m) && ['best', 'good'].includes(exactMark(exact[0].value, m.value));
  } else {
    const r = await call('hint', { rules: apiRules(store.rules), moves: [...before.moves, name], time_ms: ENGINE_MS });
    const mark = engineMark(before.engine.value, seenByMover(r.value), name === before.engine.cell);
    good = ['best', 'good'].includes(mark);
  }
  if (good) {
    trial.verdict = t('trialRight', { cell: name });
    node.review.retried = true;
    store.review.trial = null;
    store.review.lastVerdict = trial.verdict;
  } else {
    trial.verdict = t('trialWrong', { cell: name, p: mover, tries: trial.tries });
  }
  render();
  return good;
}

/** Gives up on the current trial: the best move is shown. */
export function revealTrial() {
  const { trial } = store.review;
  if (!trial) return;
  trial.node.review.retried = true;
  store.review.lastVerdict = t('trialReveal', { cell: trial.node.review.best });
  store.review.trial = null;
  render();
}

