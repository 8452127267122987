// Where the page's thinking happens: on this device, in a Web Worker running the engine compiled
// to WebAssembly (engine-worker.js, crates/mnk-wasm), or on the server. Both answer the same
// requests with the same JSON from the same Rust code (mnk-api), so api.js sends a request to
// whichever is in use and the rest of the page cannot tell.
//
// The device is the default. The server answers while the module loads (unless the browser is
// offline: then the request waits for it), and for good when the browser has no WebAssembly or
// workers, when the module fails to start, or when the player chooses the server in the
// settings. Rooms and shared games are always the server's.
//
// Stopping: the module thinks synchronously, so a search that is no longer wanted (a new game,
// an undo, leaving analysis) is stopped by terminating the worker; a new one starts at once from
// the module compiled on the first load and the books already fetched.
//
// Two workers, two lanes: the main lane answers the game and the analysis board; the review's
// requests (the review and the graph of the whole game, long and not urgent) run in a second
// worker started when first needed, so that they neither wait for the analysis nor stop it.
// On a device with cores to spare, a review (and the graph's filling) also starts a third worker
// (the `ahead` lane) on the last move and works back while the second goes forward, until the
// two meet (web/review.js).

import { settings } from './settings.js';

/** The requests the device answers; everything else (rooms, health) goes to the server. */
const LOCAL = new Set(['state', 'move', 'hint', 'explain', 'opening', 'weights', 'solve', 'tree', 'review', 'import', 'export', 'presets', 'bots', 'analyse']);
/** The requests the second worker answers. */
const BACKGROUND = new Set(['review']);

const MODULE_URL = 'engine/mnk.wasm';
const BOOKS_URL = 'engine/books.json';

/**
 * The engine's state, for the indicator: `loading`, `ready`, `failed` or `server`; why it
 * failed; how many solved books it shelved; when it was first ready (ms after navigation).
 */
export const engine = { state: 'loading', why: '', books: 0 };

const listeners = new Set();
let compiled = null; // { module, books }
let readyWaiters = [];
let nextId = 1;

/** A worker and its jobs: `queue` not yet sent, `running` the one it is on. */
class Lane {
  constructor(name) {
    this.name = name;
    this.worker = null;
    this.ready = false;
    this.queue = [];
    this.running = null;
    /**
     * Replies with a result: how the work was shared (for the console and the browser tests).
     * An error (a search out of time on a busy device, say) is not counted: its request is
     * asked again, often in another lane, and is answered there.
     */
    this.answered = 0;
  }
}

const main = new Lane('main');
const background = new Lane('background');
const ahead = new Lane('ahead');

/**
 * Whether a third worker may search beside the two: the page's own thread, the analysis and the
 * review each want a core, so only where the browser reports four or more.
 */
export function spareCores() {
  return (navigator.hardwareConcurrency || 1) >= 4;
}

/** Calls `listener` whenever the engine's state changes (the indicator redraws). */
export function onEngineChange(listener) {
  listeners.add(listener);
}

function setState(state, why = '') {
  engine.state = state;
  engine.why = why;
  for (const listener of listeners) listener(engine);
  if (state === 'ready' || state === 'failed' || state === 'server') {
    const waiters = readyWaiters;
    readyWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

// The smallest module using 128-bit SIMD (a function answering a v128 constant): the engine is
// built with it (crates/mnk-server/build.rs), so a browser that cannot validate this cannot run it.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, // header
  1, 5, 1, 96, 0, 1, 123, // type: () -> v128
  3, 2, 1, 0, // one function of that type
  10, 22, 1, 20, 0, 253, 12, ...new Array(16).fill(0), 11, // its body: v128.const 0
]);

/** Whether this browser can run the engine at all. */
export function deviceSupported() {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function' || typeof Worker !== 'function') return false;
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

/** Whether the device should answer `path` now (else the server does). */
export function answersLocally(path) {
  const name = path.split('?')[0];
  if (!LOCAL.has(name)) return false;
  if (engine.state === 'ready') return true;
  // A worker restarting after a stop is ready within milliseconds: wait for it. While the module
  // loads for the first time the server answers, unless there is no network to reach it.
  return engine.state === 'loading' && (compiled !== null || navigator.onLine === false);
}

/**
 * After the server could not be reached for `path`: whether the device will answer it instead
 * (waiting for its engine to finish loading).
 */
export async function deviceTakesOver(path) {
  if (!LOCAL.has(path.split('?')[0]) || (engine.state !== 'loading' && engine.state !== 'ready')) return false;
  await settled();
  return engine.state === 'ready';
}

/** Starts the engine on this device, or settles on the server (the settings or the browser say so). */
export function startEngine() {
  if (settings.thinking === 'server') {
    setState('server');
    return;
  }
  if (!deviceSupported()) {
    setState('failed', 'unsupported');
    return;
  }
  setState('loading');
  load()
    .then(() => spawn(main))
    .catch((error) => fail(error));
}

/** Switches between the device and the server (the setting). */
export function chooseThinking(where) {
  settings.thinking = where;
  stopWorker(main);
  stopWorker(background);
  stopWorker(ahead);
  // What the device was asked is asked of the server instead (api.js falls back on `failed`).
  rejectAll('failed', 'the player chose the server');
  if (where === 'server') setState('server');
  else if (compiled) {
    setState('loading');
    spawn(main);
  } else startEngine();
}

async function load() {
  const response = await fetch(MODULE_URL);
  if (!response.ok) throw new Error(`the engine module is not served (HTTP ${response.status})`);
  const module = WebAssembly.compileStreaming && /wasm/.test(response.headers.get('Content-Type') || '')
    ? await WebAssembly.compileStreaming(response)
    : await WebAssembly.compile(await response.arrayBuffer());
  let books = [];
  try {
    const names = await (await fetch(BOOKS_URL)).json();
    books = await Promise.all(names.map(async (name) => ({ name, text: await (await fetch(name)).text() })));
  } catch {
    // Without its books the device still solves; only slower on the boards they cover.
    books = [];
  }
  compiled = { module, books };
}

function fail(error) {
  stopWorker(main);
  stopWorker(background);
  stopWorker(ahead);
  setState('failed', String(error && error.message ? error.message : error));
  rejectAll('failed', engine.why);
}

function spawn(lane) {
  stopWorker(lane);
  let w;
  try {
    w = new Worker('engine-worker.js');
  } catch (error) {
    if (lane === main) fail(error);
    else rejectLane(lane, 'failed', String(error && error.message ? error.message : error));
    return;
  }
  lane.worker = w;
  w.onmessage = (e) => onMessage(lane, w, e.data);
  w.onerror = (e) => {
    if (lane.worker !== w) return;
    e.preventDefault();
    const why = e.message || 'the engine worker failed';
    if (lane === main) fail(why);
    else {
      stopWorker(lane);
      rejectLane(lane, 'failed', why);
    }
  };
  w.postMessage({ type: 'init', module: compiled.module, books: compiled.books });
}

function stopWorker(lane) {
  if (lane.worker) lane.worker.terminate();
  lane.worker = null;
  lane.ready = false;
  lane.running = null;
}

function onMessage(lane, w, message) {
  if (w !== lane.worker) return;
  if (message.type === 'ready') {
    lane.ready = true;
    if (lane === main) {
      engine.books = message.books;
      if (engine.readyMs === undefined) engine.readyMs = performance.now();
      setState('ready');
    }
    pump(lane);
  } else if (message.type === 'failed') {
    if (lane === main) fail(message.message);
    else {
      stopWorker(lane);
      rejectLane(lane, 'failed', message.message);
    }
  } else if (message.type === 'info') {
    const job = lane.running;
    if (job && job.id === message.id && job.onInfo) job.onInfo(message.kind, message.data);
  } else if (message.type === 'reply') {
    const job = lane.running;
    lane.running = null;
    if (message.status === 200) lane.answered += 1;
    if (job && job.id === message.id) job.settle(message.status, message.body);
    pump(lane);
  } else if (message.type === 'crashed') {
    const job = lane.running;
    lane.running = null;
    if (job) job.settle(500, { error: { code: 'internal', message: `the engine failed: ${message.message}` } });
    if (lane === main) setState('loading');
    spawn(lane);
  }
}

/** Sends the lane's next job, starting its worker first if it has none (the second lane's). */
function pump(lane) {
  if (lane.running || !lane.queue.length || (lane === main && engine.state !== 'ready')) return;
  if (!lane.worker) {
    if (compiled) spawn(lane);
    return;
  }
  if (!lane.ready) return;
  lane.running = lane.queue.shift();
  lane.running.started = performance.now();
  lane.worker.postMessage(lane.running.message);
}

function rejectLane(lane, kind, why) {
  const jobs = lane.running ? [lane.running, ...lane.queue] : lane.queue;
  lane.queue = [];
  lane.running = null;
  for (const job of jobs) job.fail(kind, why);
}

function rejectAll(kind, why) {
  rejectLane(main, kind, why);
  rejectLane(background, kind, why);
  rejectLane(ahead, kind, why);
}

/** Waits until the engine has settled (ready, or given up for the server). */
function settled() {
  if (engine.state !== 'loading') return Promise.resolve();
  return new Promise((resolve) => readyWaiters.push(resolve));
}

/**
 * Sends a job and answers a promise of `{status, body}`. `signal` cancels it: a job still queued
 * is dropped, the job the worker is on is stopped by starting a new worker.
 */
function submit(message, { signal, onInfo, lane = main } = {}) {
  return new Promise((resolve, reject) => {
    const job = {
      id: nextId++,
      lane,
      message: null,
      onInfo,
      settle: (status, body) => {
        cleanup();
        resolve({ status, body });
      },
      fail: (kind, why) => {
        cleanup();
        const error = new Error(why || kind);
        error.kind = kind;
        reject(error);
      },
    };
    job.message = { ...message, id: job.id };
    const onAbort = () => cancel(job);
    const cleanup = () => signal && signal.removeEventListener('abort', onAbort);
    if (signal) {
      if (signal.aborted) {
        job.fail('aborted', 'cancelled');
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
    }
    lane.queue.push(job);
    // The analysis runs until told to stop, and the worker does one thing at a time: any other
    // request of its lane (the state of the position moved to, a heat map) goes first.
    if (message.type !== 'analyse' && lane.running && lane.running.message.type === 'analyse') preempt(lane.running);
    settled().then(() => {
      if (engine.state === 'ready') pump(lane);
      else if (lane.queue.includes(job)) {
        lane.queue = lane.queue.filter((j) => j !== job);
        job.fail('failed', engine.why || 'the engine is not available');
      }
    });
  });
}

/** Stops `job`: dropped from the queue, or its search ended by replacing the worker. */
function cancel(job) {
  const { lane } = job;
  if (lane.running === job) restart(lane);
  else lane.queue = lane.queue.filter((j) => j !== job);
  job.fail('aborted', 'cancelled');
}

/** Stops the analysis under way for a request that came after it (analysis.js starts it again). */
function preempt(job) {
  restart(job.lane);
  job.fail('preempted', 'another request came first');
}

/** Ends the lane's search under way by replacing its worker with a fresh one. */
function restart(lane) {
  const waiting = lane.queue;
  stopWorker(lane);
  lane.queue = waiting;
  if (lane === main) setState('loading');
  spawn(lane);
}

/**
 * A request as the server would answer it: `{status, body}`. A background request with
 * `lane: 'ahead'` goes to the third worker where the device has the cores for it.
 */
export function ask(path, body, options = {}) {
  const name = path.split('?')[0];
  let lane = main;
  if (BACKGROUND.has(name)) lane = options.lane === 'ahead' && spareCores() ? ahead : background;
  return submit({ type: 'request', path, body }, { ...options, lane });
}

/**
 * The analysis of `query` (as GET /api/analyse takes it): `onInfo(kind, data)` gets each
 * iteration (`info`) and the nodes so far (`progress`); the promise the last report. Stopped by
 * `signal`.
 */
export function analyseOnDevice(query, onInfo, options = {}) {
  return submit({ type: 'analyse', query }, { ...options, onInfo });
}

/** The engine's fixed-depth bench in the worker (browser tests compare it with `mnk bench`). */
export function benchOnDevice(depth) {
  return submit({ type: 'bench', depth });
}

/** The exact value of an empty board in the worker, timed (`mnk solve W H K` on the device). */
export function solveBoardOnDevice(rules) {
  return submit({ type: 'solve-board', rules });
}

// Browser tests and curious players can reach the engine from the console.
const answeredByLane = () => Object.fromEntries([main, background, ahead].map((lane) => [lane.name, lane.answered]));
globalThis.mnkEngine = { engine, ask, analyseOnDevice, benchOnDevice, solveBoardOnDevice, chooseThinking, answeredByLane };
