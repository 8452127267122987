// The page's one state object. Every module reads and changes the game through `store`; the
// rendering reads it whole. The server decides everything about a position (legality, whose
// turn, outcome): its answer for a position is kept on that position's node of the move tree.

import { other } from './notation.js';
import { MoveTree } from './tree.js';

/** The presets when the server's list cannot be had. */
export const FALLBACK_PRESETS = [
  { id: 'tictactoe', rules: { width: 3, height: 3, k: 3, win: 'freestyle', first: 'X' } },
  { id: '9x9', rules: { width: 9, height: 9, k: 5, win: 'freestyle', first: 'X' } },
  { id: 'gomoku15', rules: { width: 15, height: 15, k: 5, win: 'freestyle', first: 'X' } },
  { id: 'gomoku19', rules: { width: 19, height: 19, k: 5, win: 'freestyle', first: 'X' } },
  { id: 'standard', rules: { width: 15, height: 15, k: 5, win: 'exact', first: 'X' } },
  { id: 'unbounded', rules: { unbounded: true, k: 5, win: 'freestyle', first: 'X' } },
  { id: 'renju', rules: { width: 15, height: 15, k: 5, win: 'renju', first: 'X' } },
  { id: 'caro', rules: { width: 15, height: 15, k: 5, win: 'caro', first: 'X' } },
];

export const store = {
  /** the game's rules (null before the first game starts) */
  rules: null,
  /** {human:true} | {level} | {bot} */
  opponent: { level: 2 },
  /** the human's side against the computer (in a swap opening, once the colours are settled) */
  side: 'X',
  /**
   * the game's opening: `kind` free, swap or swap2; the `decisions` made (the first at three
   * stones, the second at five); the human's `seat` against the computer or in a room (opener
   * or chooser; null for a room's spectator); `room` when a room's server keeps the opening
   */
  opening: { kind: 'free', decisions: [], seat: 'opener' },
  /** in a room, the colour this page plays (null for a spectator, and outside rooms) */
  roomColour: null,
  /** the moves and variations, with the cursor on the position shown */
  tree: new MoveTree(),
  /** what the server offers: presets, bots and levels */
  catalogue: { presets: FALLBACK_PRESETS, bots: [], levels: [] },
  /** the game request in flight: {ctl, kind} */
  step: null,
  /** the suggested move shown as a ghost stone: {x, y, p, cell} */
  hint: null,
  /** the line under the status: a string, or a function (so a language switch re-renders it) */
  info: '',
  /** the heat map: shown or not, the weights of the position shown, the request in flight */
  heat: { on: false, weights: null, ctl: null },
  /** exact mode: shown or not, a request in flight (values are kept on the tree's nodes) */
  exact: { on: false, loading: false, ctl: null },
  /** review: shown or not, progress, the request in flight, the "find the better move" trial */
  review: { on: false, ctl: null, done: 0, total: 0, trial: null, lastVerdict: '', tooLarge: false },
  /** analysis: shown or not, the node analysed, the last report and progress, events seen */
  analysis: { on: false, node: null, report: null, progress: null, state: 'off', events: 0 },
  /** the error shown, with its retry: {retry} */
  error: null,
  /** a finished game of a room shown read-only (record.js): {room, game, result, clock, clocks} */
  record: null,
  /** the cell under the pointer, with where the pointer is */
  pointer: null,
};

/** The server's state of the position shown, once known. */
export const position = () => store.tree.cursor.state;
/** The moves from the start to the position shown. */
export const shownMoves = () => store.tree.moves;

export const ongoing = () => !position() || position().outcome.status === 'ongoing';
export const vsComputer = () => !store.opponent.human;
/** Who plays the ply with this index (0 is the first move). */
export const playerOf = (index) => (index % 2 === 0 ? store.rules.first : other(store.rules.first));

// ---- swap openings: the server says whose step it is; these read it ---------------------------

/** Stones on the board when each decision of an opening is made. */
const DECISION_PLIES = [3, 5];

/** Whether the game has a swap opening. */
export const hasOpening = () => store.opening.kind !== 'free';
/** The opening `opening` as the API takes it for a position of `ply` stones (undefined: none). */
export function openingRequest(opening, ply) {
  if (!opening || opening.kind === 'free') return undefined;
  return { kind: opening.kind, decisions: opening.decisions.filter((_, i) => ply >= DECISION_PLIES[i]) };
}
/** The game's opening as the API takes it for a position of `ply` stones. */
export const apiOpening = (ply) => openingRequest(store.opening, ply);
/** The ply at which the colours were settled (no undo goes before it), or Infinity before. */
export function settledAt() {
  const [first, second] = store.opening.decisions;
  if (!hasOpening()) return 0;
  if (first === 'black' || first === 'white') return 3;
  return second ? 5 : Infinity;
}
/** The opening's step in the position shown while it is still being played, else null. */
export function openingStep() {
  const st = position();
  return st && st.opening && st.opening.step !== 'settled' ? st.opening : null;
}
/** Whether the step of the opening shown is the human's (always, for two people on one device;
 * in a room, when it is this page's seat's). */
const humanSeatActs = (step) => (!vsComputer() && !store.opening.room) || step.seat === store.opening.seat;
/** Whether the human chooses now (the choice dialog): not once a room's game has a result (a
 * resignation, a flag), though its opening was left unsettled. */
export const humanChooses = () => {
  const step = openingStep();
  const over = Boolean(position() && position().result);
  return Boolean(step) && step.step === 'choose' && humanSeatActs(step) && store.tree.atEnd() && !over;
};
/** The human's colour once the colours are settled by `state` (`black` names a seat). */
export function settleSide(state) {
  if (!state || !state.opening || state.opening.step !== 'settled' || !vsComputer()) return;
  const first = store.rules.first || 'X';
  store.side = state.opening.black === store.opening.seat ? first : other(first);
}

export const humanToMove = () => {
  if (!position() || !ongoing()) return false;
  // An opening's stones and choices are one line: no variation starts inside it.
  if (store.tree.ply < settledAt() && !store.tree.atEnd()) return false;
  const step = openingStep();
  if (step) return step.step === 'place' && humanSeatActs(step);
  return !vsComputer() || position().to_move === store.side;
};
export const computerDue = () => {
  if (!position() || !ongoing() || !vsComputer()) return false;
  const step = openingStep();
  if (step) return !humanSeatActs(step);
  return position().to_move !== store.side;
};
