// Review (R): every move of the current line marked best, good, inaccuracy, mistake or blunder,
// an accuracy per player, what was better at each marked move, and "find the better move" for
// the mistakes.
//
// On boards the solver decides, marks are exact: a blunder changes the game's exact outcome (a
// won position no longer won, a drawn one lost), and no other move is a blunder; a move keeping
// the outcome is best when it is as fast a win (or as slow a loss) as possible, else good.
// Elsewhere POST /api/review values every position with the same fixed search (a set number of
// nodes on one thread, so the same game gets the same marks every time) and judges each move by
// the win chance it loses (mnk-engine's review.rs, docs/study.md). The values also draw the
// analysis graph for the whole game.

import { call, RequestError } from './api.js';
import { answersLocally, spareCores } from './engine.js';
import { showRequestFailure } from './errors.js';
import { t } from './i18n.js';
import { apiRules, cellName } from './notation.js';
import { playerOf, store } from './store.js';
import { render } from './view.js';

/** The solver's time per position, in ms. */
const SOLVE_MS = 4000;
/**
 * Moves judged per review request on the server: marks appear a few at a time, and a stop comes
 * soon. The device asks one at a time (its engine keeps the values it found, so the position two
 * requests share is searched once), for a slow device may not finish eight in the time allowed.
 */
const STRETCH = 8;
const stretchHere = () => (answersLocally('review') ? 1 : STRETCH);
export const MARKS = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];

const outcomeClass = (v) => (v.kind === 'win' ? 1 : v.kind === 'loss' ? -1 : 0);
const certainChance = (v) => (outcomeClass(v) + 1) / 2;

/** The mark of a move from exact values: the best move's and the played move's. */
export function exactMark(best, played) {
  const [b, p] = [outcomeClass(best), outcomeClass(played)];
  if (p < b) return 'blunder';
  return best.kind === played.kind && (best.plies || 0) === (played.plies || 0) ? 'best' : 'good';
}

/**
 * A move's accuracy from the chance it lost, as mnk-engine's review.rs computes it (lichess's
 * curve): 100 for nothing lost, about 64 for a tenth, 0 for all.
 */
export function accuracyOf(loss) {
  const points = 100 * Math.min(1, Math.max(0, loss));
  return Math.min(100, Math.max(0, 103.1668 * Math.exp(-0.043544 * points) - 3.1668));
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

/**
 * Values the positions from `node` on along the line (`span` moves) with the review's search
 * and keeps on each node its value and X's chance, and on each move after it its judgement.
 * `lane: 'ahead'` asks the device's third worker, where it has one (engine.js).
 */
async function reviewStretch(node, line, signal, span = stretchHere(), lane = undefined) {
  const last = line[line.length - 1] || store.tree.root;
  const from = node.ply;
  const to = Math.min(from + span, last.ply);
  let r;
  try {
    r = await call('review', { rules: apiRules(store.rules), moves: last.moves, from, to }, { signal, lane });
  } catch (err) {
    // A busy device may not search a whole stretch in the time allowed (the review refuses
    // rather than give values that depend on the load): one move at a time then.
    if (err.code === 'out_of_time' && to - from > 1) return reviewStretch(node, line, signal, 1, lane);
    throw err;
  }
  const nodes = [store.tree.root, ...line];
  for (const p of r.positions) {
    const n = nodes[p.ply];
    n.reviewChanceX = p.expect_x;
    n.reviewValue = { value: p.value, best: p.best, pv: p.pv, toMove: p.to_move };
  }
  for (const m of r.moves) {
    const n = nodes[m.ply];
    n.engineReview = {
      mark: m.mark,
      exact: false,
      best: m.best,
      line: m.line,
      value: m.value,
      bestValue: m.best_value,
      loss: m.loss,
      accuracy: m.accuracy,
    };
  }
}

/**
 * Marks the move that led to `node` (the nodes of `line` before it are marked already);
 * `search(node)` values the positions around it when the solver cannot.
 */
async function markMove(node, line, signal, search = (n) => reviewStretch(n.parent, line, signal)) {
  const before = node.parent;
  const exact = await solved(before, signal);
  if (exact) {
    const played = exact.moves.find((m) => m.cell === node.move || cellName(m.x, m.y) === node.move);
    if (played) {
      const best = exact.moves[0];
      const loss = Math.max(0, certainChance(best.value) - certainChance(played.value));
      return {
        mark: exactMark(best.value, played.value),
        exact: true,
        best: best.cell,
        line: [best.cell],
        value: played.value,
        bestValue: best.value,
        loss,
        accuracy: accuracyOf(loss),
      };
    }
  }
  if (!node.engineReview) await search(node);
  return node.engineReview;
}

/**
 * The review's searches on a device with cores to spare, one move at a time: the review goes
 * from the first move on while searchAhead goes from the last move back, in a worker of its
 * own, until they meet (wherever the work splits evenly: the positions do not all cost the
 * same). The review waits for the answer of a move the other asked first; a search of the
 * ahead lane that fails is asked again of the review's own. The values depend only on the
 * position and the nodes, so the marks are those of one worker.
 */
function sharedSearches(line, signal) {
  const asked = new Map();
  const ask = (node, lane) => {
    if (!asked.has(node.ply)) asked.set(node.ply, reviewStretch(node.parent, line, signal, 1, lane));
    return asked.get(node.ply);
  };
  return {
    own: (node) =>
      ask(node).catch((err) => {
        if (err instanceof RequestError && err.kind === 'aborted') throw err;
        return reviewStretch(node.parent, line, signal, 1);
      }),
    ahead: (node) => (asked.has(node.ply) ? null : ask(node, 'ahead')),
  };
}

/** Searches the moves of `line` from the last back in the ahead lane, up to one already asked. */
async function searchAhead(line, ahead) {
  for (const node of [...line].reverse()) {
    if (node.engineReview) continue;
    const search = ahead(node);
    if (!search) return;
    try {
      await search;
    } catch {
      // Stopped, or the third worker failed: the review searches the rest itself.
      return;
    }
  }
}

let graphFill = null;

/** The index of the last item of `list` that passes `test`, or -1. */
function lastIndex(list, test) {
  for (let i = list.length - 1; i >= 0; i -= 1) if (test(list[i])) return i;
  return -1;
}

/**
 * Values, for the analysis graph, every position of the line shown that has no value yet, a
 * stretch at a time, with the review's search (so the marks of a later review are found too).
 * Only where the device thinks: its second worker does it beside the analysis; the server's
 * slots are kept for the analysis itself (there the review fills the graph). Where the device
 * has cores to spare, the third worker fills from the last position back meanwhile. Stops
 * quietly on a failure, and when the game changes.
 */
export async function fillGraph() {
  if (graphFill || !answersLocally('review')) return;
  const root = store.tree.root;
  graphFill = new AbortController();
  const { signal } = graphFill;
  const asked = new Set();
  const unvalued = (n) => n.reviewChanceX === undefined && !asked.has(n);
  // Where the pairs of positions start. A position's value can depend on the pair it is
  // valued in (the review searches the second of a pair again when the move between them
  // looks like a mistake), so the back end keeps the front end's pairs: the same graph either way.
  const start = [root, ...store.tree.line()].findIndex(unvalued);
  /**
   * Fills from one end of the line: the first position without a value and the one after it,
   * or (`back`) the last and, when they form a pair, the one before it, until none is left that
   * the other end has not asked for.
   */
  const fillFrom = async (back, lane) => {
    for (;;) {
      if (store.tree.root !== root || !store.analysis.on) return;
      const line = store.tree.line();
      const nodes = [root, ...line];
      const i = back ? lastIndex(nodes, unvalued) : nodes.findIndex(unvalued);
      if (i < 0) return;
      const paired = back && i > start && (i - start) % 2 === 1 && unvalued(nodes[i - 1]);
      const from = paired ? i - 1 : i;
      asked.add(nodes[from]);
      if (nodes[from + 1]) asked.add(nodes[from + 1]);
      await reviewStretch(nodes[from], line, signal, 1, lane);
      if (nodes[i].reviewChanceX === undefined) return;
      render();
    }
  };
  try {
    if (spareCores()) {
      // A failure of the third worker leaves its positions to the second, below.
      const ahead = fillFrom(true, 'ahead').catch(() => {});
      await fillFrom(false);
      await ahead;
      asked.clear();
    }
    await fillFrom(false);
  } catch {
    // The graph stays as far as it got; the analysis of the position shown goes on.
  } finally {
    graphFill = null;
  }
}

/** Reviews the current line; marks go on the nodes as they are found. */
export async function runReview() {
  const { review, tree } = store;
  if (review.ctl) review.ctl.abort();
  const ctl = new AbortController();
  Object.assign(review, { on: true, ctl, done: 0, total: tree.line().length, failed: null, tooLarge: false });
  render();
  const line = tree.line();
  let shared = null;
  try {
    for (const [i, node] of line.entries()) {
      if (!node.state) node.state = await call('state', { rules: apiRules(store.rules), moves: node.moves }, { signal: ctl.signal });
      if (!node.review) node.review = await markMove(node, line, ctl.signal, shared?.own);
      review.done += 1;
      // Once a move showed that the solver cannot value this board, and the device's engine
      // answers (it may still be loading when the review begins), the third worker starts from
      // the other end.
      if (!shared && store.review.tooLarge && answersLocally('review') && spareCores()) {
        shared = sharedSearches(line, ctl.signal);
        searchAhead(line.slice(i + 1), shared.ahead);
      }
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
    // Judged as the review judged the mistake: the same search of the position before and after.
    const r = await call('review', { rules: apiRules(store.rules), moves: [...before.moves, name], from: before.ply });
    good = ['best', 'good'].includes(r.moves[0].mark);
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
  const { best, line } = trial.node.review;
  store.review.lastVerdict = t('trialReveal', { cell: best, line: (line || [best]).join(' ') });
  store.review.trial = null;
  render();
}

