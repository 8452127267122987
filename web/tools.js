// The player's looking tools: the heat map of every cell's weight (W), and the weight of one
// cell in a tip (T). Weights belong to the position shown and are asked again when it changes.

import { call, RequestError } from './api.js';
import { showRequestFailure } from './errors.js';
import { t } from './i18n.js';
import { apiRules, cellName } from './notation.js';
import { position, store } from './store.js';
import { board, grid, render, shownName } from './view.js';

const $ = (id) => document.getElementById(id);
let tipTimer = 0;

/** The weights of the position shown (asked once per position). */
export async function loadWeights() {
  const { heat } = store;
  const moves = store.tree.moves;
  const key = moves.join(' ');
  if (heat.weights && heat.weights.key === key) return heat.weights.list;
  if (heat.ctl) heat.ctl.abort();
  heat.ctl = new AbortController();
  const r = await call('weights', { rules: apiRules(store.rules), moves }, { signal: heat.ctl.signal });
  if (store.tree.moves.join(' ') !== key) throw new RequestError('aborted', 'stale');
  heat.weights = { key, list: r.weights, for: r.for };
  render();
  return heat.weights.list;
}

/** After the position shown changes: drop old weights, and refresh the map if it is on. */
export function refreshHeat() {
  const { heat } = store;
  if (heat.weights && heat.weights.key !== store.tree.moves.join(' ')) heat.weights = null;
  if (heat.on) loadWeights().catch((e) => showRequestFailure(e, refreshHeat));
}

export function toggleHeat() {
  store.heat.on = !store.heat.on;
  $('btn-heat').setAttribute('aria-pressed', String(store.heat.on));
  $('board').dataset.heat = String(store.heat.on);
  render();
  refreshHeat();
}

export async function showWeightUnderPointer() {
  if (!position()) return;
  let cell = store.pointer;
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

export function hideTip() {
  $('tip').hidden = true;
}

function formatWeight(w) {
  return Math.abs(w) >= 100 ? String(Math.round(w)) : String(Math.round(w * 10) / 10);
}
