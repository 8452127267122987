// Exact mode (E): on boards the solver can decide, every empty cell is coloured by its exact
// value for the side to move — a win in n, a draw, a loss in n — from POST /api/solve within a
// deadline. Values belong to a position: they are kept on its tree node, so stepping back and
// forth asks once. Where the solver cannot finish (a board too large, no proof in time), the
// page says so instead of colouring. Values the server took from a solved opening book say so
// (`source: 'book'`); when the solver ran out of time on a book position, only the moves the
// book holds are coloured (`partial`).

import { call, RequestError } from './api.js';
import { showRequestFailure } from './errors.js';
import { apiRules } from './notation.js';
import { ongoing, position, store } from './store.js';
import { ensureAnalysis } from './analysis.js';
import { render } from './view.js';

const $ = (id) => document.getElementById(id);

/** How long the solver may think for one position, in ms. */
const SOLVE_MS = 4000;

/** Asks the solver for the position shown, unless its values are known. */
export async function loadExact() {
  const { exact, tree } = store;
  const node = tree.cursor;
  if (!position() || !ongoing()) return;
  if (node.exact) return;
  if (exact.ctl) exact.ctl.abort();
  exact.ctl = new AbortController();
  exact.loading = true;
  render();
  try {
    const r = await call('solve', { rules: apiRules(store.rules), moves: node.moves, time_ms: SOLVE_MS }, { signal: exact.ctl.signal });
    node.exact = { value: r.value, moves: r.moves, nodes: r.nodes, time_ms: r.time_ms, source: r.source, partial: Boolean(r.partial) };
  } catch (err) {
    if (err instanceof RequestError && (err.code === 'too_large' || err.code === 'out_of_time')) {
      // Not an error of the page: this position is beyond the solver here.
      node.exact = { unsolved: err.code };
      ensureAnalysis();
    } else {
      throw err;
    }
  } finally {
    if (tree.cursor === node) exact.loading = false;
  }
  if (tree.cursor === node) render();
}

/** After the position shown changes: the values of the new one, if exact mode is on. */
export function refreshExact() {
  if (!store.exact.on) return;
  if (store.exact.ctl && !store.tree.cursor.exact) store.exact.ctl.abort();
  store.exact.loading = false;
  loadExact().catch((e) => showRequestFailure(e, refreshExact));
}

export function toggleExact() {
  store.exact.on = !store.exact.on;
  $('btn-exact').setAttribute('aria-pressed', String(store.exact.on));
  if (!store.exact.on && store.exact.ctl) store.exact.ctl.abort();
  store.exact.loading = false;
  render();
  refreshExact();
}
