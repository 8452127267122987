// Analysis mode (A): the engine thinks about the position shown, continuously, on this device
// (engine.js: each iteration posted by the worker) or streamed from GET /api/analyse
// (server-sent events): depth, score and principal variation, the top candidate moves, an
// evaluation bar and a graph of the evaluation over the game. Moving on stops the search (the
// worker is replaced, or the server stops at once when the stream closes) and starts one for the
// new position. Every score is shown from X's point of view.

import { analyseOnDevice, answersLocally } from './engine.js';
import { rulesToString } from './notation.js';
import { fillGraph } from './review.js';
import { ongoing, position, store } from './store.js';
import { chanceForX, render } from './view.js';

const CANDIDATES = 3;
const MAX_MS = 30000;

let source = null;

function close() {
  if (source) source.close();
  source = null;
}

/** Starts analysing the position shown (closing any analysis of another one). */
function start() {
  close();
  const { analysis, tree } = store;
  const node = tree.cursor;
  analysis.node = node;
  analysis.report = null;
  analysis.state = 'thinking';
  if (!position() || !ongoing()) {
    analysis.state = 'over';
    render();
    return;
  }
  const query = new URLSearchParams({ rules: rulesToString(store.rules), moves: node.moves.join('.'), multipv: String(CANDIDATES), max_ms: String(MAX_MS) });
  if (answersLocally('analyse')) startOnDevice(query, node);
  else startOnServer(query, node);
  fillGraph();
  render();
}

/** Takes one report of the search about `node` (`info`, `progress` or the last, `done`). */
function report(kind, data, node) {
  const { analysis } = store;
  analysis.events += 1;
  if (kind === 'progress') {
    analysis.progress = data;
  } else {
    analysis.report = data;
    analysis.progress = data;
    if (data.lines && data.lines.length) node.evalChanceX = chanceForX(data.lines[0].value, data.to_move);
    // The device may have been loading when the analysis began: the graph starts now.
    fillGraph();
  }
  if (kind === 'done') {
    analysis.state = 'done';
    close();
  }
  render();
}

/** The search ended without a last report: say so (or keep what it found). */
function ended() {
  store.analysis.state = store.analysis.report ? 'done' : 'unavailable';
  close();
  render();
}

function startOnDevice(query, node) {
  const ctl = new AbortController();
  const handle = { close: () => ctl.abort() };
  source = handle;
  const mine = () => source === handle && store.tree.cursor === node;
  analyseOnDevice(query.toString(), (kind, data) => mine() && report(kind, data, node), { signal: ctl.signal })
    .then(({ status, body }) => {
      if (!mine()) return;
      if (status === 200) report('done', body, node);
      else ended();
    })
    .catch((error) => {
      if (!mine()) return;
      // The device's engine gave up: the server analyses instead.
      if (error.kind === 'failed') startOnServer(query, node);
      // Another request needed the worker first: analyse again after it.
      else if (error.kind === 'preempted') startOnDevice(query, node);
      else ended();
    });
}

function startOnServer(query, node) {
  const es = new EventSource(`api/analyse?${query}`);
  source = es;
  const mine = () => source === es && store.tree.cursor === node;
  for (const kind of ['info', 'progress', 'done']) {
    es.addEventListener(kind, (e) => mine() && report(kind, JSON.parse(e.data), node));
  }
  es.addEventListener('error', () => {
    // A refusal (busy, rate limited) or a lost connection: EventSource would retry by itself and
    // start again; stop, and say so.
    if (mine()) ended();
  });
}

/**
 * Stops the analysis while the computer thinks for the game (a move, a hint): both would share
 * this client's engine slot. The next settled position starts it again.
 */
export function pauseAnalysis() {
  if (!source) return;
  close();
  store.analysis.node = null;
}

/** After the position shown changes: analyse the new one, if analysis is on. */
export function refreshAnalysis() {
  if (store.analysis.on && store.analysis.node !== store.tree.cursor) start();
}

/** Shows or hides the engine's own scores beside the chances (for those who read engines). */
export function toggleRawScores() {
  store.analysis.raw = !store.analysis.raw;
  render();
}

export function toggleAnalysis() {
  const { analysis } = store;
  analysis.on = !analysis.on;
  analysis.node = null;
  if (analysis.on) start();
  else {
    close();
    analysis.state = 'off';
    analysis.report = null;
    render();
  }
}

/** Turns analysis on (exact mode falls back to it where the solver cannot finish). */
export function ensureAnalysis() {
  if (!store.analysis.on) toggleAnalysis();
}

