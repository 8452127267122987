// The page's engine: mnk-api compiled to WebAssembly (crates/mnk-wasm), run in this dedicated
// worker so the page never freezes while it thinks. The page sends it the requests it would send
// the server and gets the same JSON back; see engine.js for the other side.
//
// Messages in:  {type: 'init', module, books: [{name, text}]}  (a compiled WebAssembly.Module)
//               {id, type: 'request', path, body}              (body undefined for a GET)
//               {id, type: 'analyse', query}
//               {id, type: 'bench', depth}
//               {id, type: 'solve-board', rules}                (the empty board's value, timed)
// Messages out: {type: 'ready', books} or {type: 'failed', message} after init;
//               {id, type: 'reply', status, body}; during an analysis {id, type: 'info', kind,
//               data}, kind 'info' after each iteration and 'progress' every 250 ms.
//
// The module is synchronous: one request runs at a time, and a search is stopped by terminating
// this worker (engine.js starts another from the same compiled module within milliseconds).
'use strict';

let exports = null;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let current = null;

function memory() {
  return new Uint8Array(exports.memory.buffer);
}

/** Copies the strings into the module's input buffer, one after the other; answers their lengths. */
function put(...texts) {
  const parts = texts.map((text) => encoder.encode(text));
  const total = parts.reduce((n, p) => n + p.length, 0);
  let at = exports.mnk_input(total);
  for (const part of parts) {
    memory().set(part, at);
    at += part.length;
  }
  return parts.map((p) => p.length);
}

/** The module's last answer, `length` bytes of its output buffer. */
function output(length) {
  return decoder.decode(memory().subarray(exports.mnk_output(), exports.mnk_output() + length));
}

const host = {
  now_ms: () => performance.now(),
  emit: (kind, ptr, len) => {
    const data = JSON.parse(decoder.decode(memory().subarray(ptr, ptr + len)));
    postMessage({ id: current, type: 'info', kind: kind === 1 ? 'progress' : 'info', data });
  },
};

async function init({ module, books }) {
  const instance = await WebAssembly.instantiate(module, { host });
  exports = instance.exports;
  let shelved = 0;
  for (const { name, text } of books || []) {
    const [nameLen, textLen] = put(name, text);
    const refusal = output(exports.mnk_add_book(nameLen, textLen));
    if (refusal) postMessage({ type: 'warning', message: refusal });
    else shelved += 1;
  }
  postMessage({ type: 'ready', books: shelved });
}

function run(message) {
  current = message.id;
  let text;
  if (message.type === 'request') {
    const hasBody = message.body !== undefined;
    const [pathLen, bodyLen] = put(message.path, hasBody ? JSON.stringify(message.body) : '');
    text = output(exports.mnk_respond(pathLen, bodyLen, hasBody ? 1 : 0, Math.floor(Math.random() * 2 ** 52)));
  } else if (message.type === 'analyse') {
    const [queryLen] = put(message.query);
    text = output(exports.mnk_analyse(queryLen));
  } else if (message.type === 'solve-board') {
    const [rulesLen] = put(message.rules);
    text = output(exports.mnk_solve_board(rulesLen));
  } else if (message.type === 'bench') {
    text = JSON.stringify({ status: 200, body: JSON.parse(output(exports.mnk_bench(message.depth))) });
  } else {
    text = JSON.stringify({ status: 400, body: { error: { code: 'bad_request', message: `no such message: ${message.type}` } } });
  }
  const { status, body } = JSON.parse(text);
  postMessage({ id: message.id, type: 'reply', status, body });
}

onmessage = (e) => {
  const message = e.data;
  if (message.type === 'init') {
    init(message).catch((error) => postMessage({ type: 'failed', message: String(error && error.message ? error.message : error) }));
    return;
  }
  try {
    run(message);
  } catch (error) {
    // A trap (a panic in the module): its memory may be broken, so the page starts a new worker.
    postMessage({ id: message.id, type: 'crashed', message: String(error && error.message ? error.message : error) });
  }
};
