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
];

export const store = {
  /** the game's rules (null before the first game starts) */
  rules: null,
  /** {human:true} | {level} | {bot} */
  opponent: { level: 2 },
  /** the human's side against the computer */
  side: 'X',
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
export const humanToMove = () => Boolean(position()) && ongoing() && (!vsComputer() || position().to_move === store.side);
export const computerDue = () => Boolean(position()) && ongoing() && vsComputer() && position().to_move !== store.side;
