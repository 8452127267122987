// The game flow: one game step in flight at a time (a move, the computer's answer, a hint, a
// step through the moves), each with a timeout, cancelled by a new game, an undo or a step
// elsewhere, and on failure an error with a Retry, so the page never hangs.
//
// Every position shown goes through POST /api/state (legality, whose turn, outcome, winning
// line) before it is settled; its answer stays on the position's node, so stepping back and
// forth through a game asks the server once per position. The computer answers a move the human
// made against it; it never moves by itself while the player looks at an earlier position.

import { pauseAnalysis } from './analysis.js';
import { call, RequestError } from './api.js';
import { hideError, hideLinkError, isRefusal, refusalText, showError, showLinkError } from './errors.js';
import { t } from './i18n.js';
import { saveUrl } from './link.js';
import { apiOpponent, apiRules, cellName, other, parseCell } from './notation.js';
import {
  apiOpening,
  computerDue,
  humanToMove,
  ongoing,
  openingRequest,
  openingStep,
  playerOf,
  position,
  settledAt,
  settleSide,
  store,
  vsComputer,
} from './store.js';
import { board, forbiddenAt, render, searchDetails, seatName, updateButtons } from './view.js';

const THINKING_DELAY_MS = 300;
const COMPUTER_PAUSE_MS = 300;

const $ = (id) => document.getElementById(id);

let thinkingTimer = 0;

/** Listeners told when the position shown has settled (the heat map follows it). */
const settledListeners = [];
export function onSettled(listener) {
  settledListeners.push(listener);
}

function setBusy(kind) {
  $('board').dataset.busy = kind ? 'true' : 'false';
  document.body.classList.toggle('busy', Boolean(kind));
  clearTimeout(thinkingTimer);
  $('thinking').hidden = true;
  if (kind === 'move' || kind === 'auto' || kind === 'hint') {
    thinkingTimer = setTimeout(() => ($('thinking').hidden = false), THINKING_DELAY_MS);
  }
  updateButtons();
}

/** Cancels the game request in flight (a new game, an undo, a step elsewhere). */
export function cancelStep() {
  if (store.step) store.step.ctl.abort();
  store.step = null;
  board.pending = null;
  setBusy(null);
}

/**
 * Runs one game step: `work(signal)` makes the request(s) and applies the answer; `then` runs
 * after success. A failure shows the error with a Retry that runs the same step again, unless
 * `onError(err)` takes it (returns true).
 */
function runStep(kind, work, then, onError) {
  cancelStep();
  hideError();
  // The computer's answer leaves a notice about the link the page opened with in view.
  if (kind !== 'move') hideLinkError();
  const ctl = new AbortController();
  const me = { ctl, kind };
  store.step = me;
  if (kind === 'move' || kind === 'auto' || kind === 'hint') pauseAnalysis();
  setBusy(kind);
  work(ctl.signal).then(
    () => {
      if (store.step !== me) return;
      store.step = null;
      setBusy(null);
      if (then) then();
    },
    (err) => {
      if (store.step !== me) return;
      store.step = null;
      board.pending = null;
      setBusy(null);
      render();
      if (err instanceof RequestError && err.kind === 'aborted') return;
      if (onError && onError(err)) return;
      showError(err, () => runStep(kind, work, then, onError), { step: true });
    },
  );
}

/** The hint's bot: the API's default for a hint, named. */
const HINT_OPPONENT = { level: 6 };

/** A seed for a bot's random choices, kept with the request so the move can be explained. */
const newSeed = () => Math.floor(Math.random() * 2 ** 31);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function checkAborted(signal) {
  if (signal.aborted) throw new RequestError('aborted', 'cancelled');
}

function fetchState(moves, signal, rules = store.rules, opening = apiOpening(moves.length)) {
  return call('state', { rules: apiRules(rules), moves, opening }, { signal });
}

/** Plays the server's last move of `state` into the tree at the cursor and shows it. */
function advance(state) {
  const node = store.tree.play(state.moves[state.moves.length - 1]);
  node.state = state;
  show();
}

/** Shows the position at the cursor, whose state is known. */
function show() {
  const st = position();
  settleSide(st);
  store.hint = null;
  board.pending = null;
  render();
  if (st && st.last) board.follow(parseCell(st.last.cell) || st.last);
  saveUrl();
}

/** After a move: the computer answers if it is its turn; listeners refresh. */
function afterMove() {
  for (const listener of settledListeners) listener();
  if (computerDue()) computerMove();
}

export function humanMove(cell) {
  if (store.step || !humanToMove()) return;
  const name = cellName(cell.x, cell.y);
  if (store.tree.moves.some((m) => sameCell(m, cell))) return; // occupied: nothing to ask
  const forbidden = forbiddenAt(cell);
  if (forbidden) {
    // Renju: black may not play here. Say why instead of asking the server to refuse it.
    const p = position().to_move;
    store.info = () => t('forbiddenMoveFor', { cell: name, p, kind: t(`forbidden_${forbidden.kind}`) });
    render();
    return;
  }
  board.pending = { ...cell, p: position().to_move };
  board.schedule();
  // What the computer said of its last move no longer describes the position.
  store.info = '';
  const moves = [...store.tree.moves, name];
  runStep('state', async (signal) => advance(await fetchState(moves, signal)), afterMove);
}

function sameCell(name, cell) {
  const c = parseCell(name);
  return c && c.x === cell.x && c.y === cell.y;
}

export function computerMove() {
  if (openingStep()) {
    computerOpening();
    return;
  }
  runStep(
    'move',
    async (signal) => {
      const pause = sleep(COMPUTER_PAUSE_MS);
      const mover = position().to_move;
      // The seed is kept so that "How did it choose?" explains this very decision.
      const body = { rules: apiRules(store.rules), moves: store.tree.moves, opponent: apiOpponent(store.opponent), seed: newSeed() };
      const r = await call('move', body, { signal });
      await pause;
      checkAborted(signal);
      store.info = () => t('computerPlayed', { cell: r.move.cell, details: searchDetails(r, mover) });
      advance(r.state);
      store.tree.cursor.explain = { body, played: r.move.cell };
      render();
    },
    afterMove,
  );
}

/** The computer's part of a swap opening: its three stones, or its decision and their stones. */
function computerOpening() {
  runStep(
    'move',
    async (signal) => {
      const pause = sleep(COMPUTER_PAUSE_MS);
      const { moves, ply } = store.tree;
      const body = { rules: apiRules(store.rules), moves, opening: apiOpening(ply), opponent: apiOpponent(store.opponent) };
      const r = await call('opening', body, { signal });
      await pause;
      checkAborted(signal);
      if (r.decision) store.opening.decisions = [...apiOpening(ply).decisions, r.decision];
      store.info = () => openingStory(r);
      placeStones(r.stones, r.state);
    },
    afterMove,
  );
}

/** What the computer did in the opening, in words. */
function openingStory(r) {
  const stones = r.stones.join(', ');
  if (r.action === 'place') return t('openingComputerPlaced', { stones });
  const first = store.rules.first || 'X';
  const colour = r.decision === 'black' ? first : other(first);
  if (r.decision === 'place-two') return t('openingComputerPlacedTwo', { stones });
  if (r.decision === 'white') return t('openingComputerTookAndPlayed', { p: colour, cell: stones });
  return t('openingComputerTook', { p: colour });
}

/** Plays `stones` into the tree (the last one's state is `state`) and shows the result. */
function placeStones(stones, state) {
  for (const stone of stones) store.tree.play(stone);
  store.tree.cursor.state = state;
  show();
}

/** A decision of a swap opening made by the player (or either person, on one device). */
export function chooseInOpening(decision) {
  const step = openingStep();
  if (store.step || !step || step.step !== 'choose' || !step.options.includes(decision)) return;
  const { moves, ply } = store.tree;
  const decisions = [...apiOpening(ply).decisions, decision];
  const opening = { kind: store.opening.kind, decisions };
  runStep(
    'state',
    async (signal) => {
      const state = await fetchState(moves, signal, store.rules, opening);
      store.opening.decisions = decisions;
      store.info = tookColour(step.seat, decision);
      placeStones([], state);
    },
    afterMove,
  );
}

/**
 * Between two people on this device, who took which colour when `seat` decided `decision`
 * (nothing for two more stones, or against the computer, where the status says "your move").
 */
function tookColour(seat, decision) {
  if (vsComputer() || decision === 'place-two') return '';
  const first = store.rules.first || 'X';
  const taken = decision === 'black' ? first : other(first);
  const otherSeat = seat === 'opener' ? 'chooser' : 'opener';
  return () => t('openingTook', { who: seatName(seat), p: taken, other: seatName(otherSeat), q: other(taken) });
}

/** D: the computer plays the side to move for the player (the server's hint, then the state). */
export function autoMove() {
  if (store.step || !position() || !ongoing()) return;
  runStep(
    'auto',
    async (signal) => {
      const moves = store.tree.moves;
      const mover = position().to_move;
      const body = { rules: apiRules(store.rules), moves, opponent: HINT_OPPONENT, seed: newSeed() };
      const r = await call('hint', body, { signal });
      checkAborted(signal);
      const state = await fetchState([...moves, r.move.cell], signal);
      store.info = () => t('autoPlayed', { cell: r.move.cell, details: searchDetails(r, mover) });
      advance(state);
      store.tree.cursor.explain = { body, played: r.move.cell };
      render();
    },
    afterMove,
  );
}

export function askHint() {
  if (store.step || !humanToMove()) return;
  runStep('hint', async (signal) => {
    // The hint's bot (level 6) and its seed are named so that the hint can be explained.
    const body = { rules: apiRules(store.rules), moves: store.tree.moves, opponent: HINT_OPPONENT, seed: newSeed() };
    const r = await call('hint', body, { signal });
    checkAborted(signal);
    const mover = position().to_move;
    store.hint = { x: r.move.x, y: r.move.y, p: mover, cell: r.move.cell, explain: { body, played: r.move.cell } };
    store.info = () => t('hintIs', { cell: r.move.cell, details: searchDetails(r, mover) });
    render();
  }, () => {
    for (const listener of settledListeners) listener();
  });
}

/**
 * Takes back: against the computer to before the player's last move (its answer too), else one
 * ply. A search in flight is cancelled first. At the end of the line the moves taken back leave
 * the tree; in the middle of a game this only steps back.
 */
export function undo() {
  const { tree } = store;
  if (!tree.ply) return;
  cancelStep();
  let target = tree.cursor;
  if (vsComputer()) {
    if (target.parent && playerOf(target.ply - 1) !== store.side) target = target.parent;
    if (!target.parent || playerOf(target.ply - 1) !== store.side) {
      if (target !== tree.cursor) goto(target);
      return;
    }
    target = target.parent;
  } else {
    target = target.parent;
  }
  // A swap opening is not taken back: its stones and decisions stand.
  if (target.ply < settledAt()) return;
  const removed = tree.atEnd() ? target.children[target.next] : null;
  store.info = '';
  goto(target, () => {
    if (removed) {
      tree.remove(removed);
      render();
      saveUrl();
    }
  });
}

/** Shows the position of `node` (a step through the game; asks the server once per position). */
export function goto(node, then) {
  if (!node) return;
  cancelStep();
  hideError();
  hideLinkError();
  store.tree.goto(node);
  store.info = '';
  const done = () => {
    for (const listener of settledListeners) listener();
    if (then) then();
  };
  if (node.state) {
    show();
    done();
    return;
  }
  render();
  runStep(
    'state',
    async (signal) => {
      node.state = await fetchState(node.moves, signal);
      if (store.tree.cursor === node) show();
    },
    done,
    (err) => {
      // A move of the tree the server refuses (a link edited by hand): drop it and say why.
      if (!isRefusal(err)) return false;
      store.tree.remove(node);
      show();
      showLinkError(t('errLinkRefused', { message: refusalText(err) }));
      return true;
    },
  );
}

export const back = () => goto(store.tree.cursor.parent);
export const forward = () => goto(store.tree.cursor.continuation);
export const toStart = () => goto(store.tree.root);
export const toEnd = () => goto(store.tree.end());

/**
 * Starts a game from a tree of moves (a new game has none; a link may have a whole tree, the
 * cursor anywhere in it). The line through the cursor is checked by the server before the game
 * starts. `onFailed(err)` (the new-game dialog, a link) takes a failure instead of the error
 * box; `onStarted` runs once the server accepted; `check()` may change the game first (a link's
 * opponent that cannot play its rules). The computer answers only when the position
 * shown is the line's end and its turn.
 */
export function startGame(game, { onFailed, onStarted, check } = {}) {
  runStep(
    'state',
    async (signal) => {
      if (check) await check();
      const { rules, opponent, side, tree } = game;
      const opening = game.opening || { kind: 'free', decisions: [], seat: 'opener' };
      const end = tree.end();
      const ask = (node) => fetchState(node.moves, signal, rules, openingRequest(opening, node.ply));
      // The line's end is asked with every decision, so a link's choice made before its stones
      // is refused by the server rather than applied later.
      const whole = opening.kind === 'free' ? undefined : { kind: opening.kind, decisions: opening.decisions };
      end.state = await fetchState(end.moves, signal, rules, whole);
      if (tree.cursor !== end) tree.cursor.state = await ask(tree.cursor);
      Object.assign(store, { rules, opponent, side, tree, opening, hint: null, info: '' });
      store.heat.weights = null;
      board.setRules(rules);
      show();
      board.recentre();
    },
    () => {
      if (onStarted) onStarted();
      for (const listener of settledListeners) listener();
      if (store.tree.atEnd() && computerDue()) computerMove();
    },
    onFailed
      ? (err) => {
          onFailed(err);
          return true;
        }
      : undefined,
  );
}
