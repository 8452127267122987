// Every engine request goes through here: JSON in, JSON out, a timeout on each request and a way
// to cancel it, and one error type the page can show. Nothing waits forever. The request is
// answered by the engine on this device when engine.js says so (the same JSON, from the same
// code), else by the server.

import { answersLocally, ask, deviceTakesOver } from './engine.js';

export const TIMEOUT_MS = 20000;

/** A request that did not give an answer the page can use. */
export class RequestError extends Error {
  /**
   * @param {'http'|'network'|'timeout'|'aborted'} kind
   * @param {string} message the server's message, or a description of the failure
   * @param {number} [status] HTTP status
   * @param {string} [code] the API's stable error code
   * @param {object} [words] the refusal's `reason`, `params` and `index` (docs/api.md#refusals),
   *   from which the page says it in the player's language
   */
  constructor(kind, message, status, code, words = {}) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.code = code;
    this.reason = words.reason;
    this.params = words.params;
    this.index = words.index;
  }
}

/** The refusal a reply with `status` and body `json` carries. */
function refusal(status, json) {
  const err = (json && json.error) || {};
  return new RequestError('http', err.message || `HTTP ${status}`, status, err.code, err);
}

/**
 * GET when body is undefined, otherwise POST the body as JSON.
 * `signal` cancels the request (a new game, an undo); it then rejects with kind "aborted".
 * `headers` are sent besides (a room's long poll names its seat's token in one).
 */
export async function call(path, body, options = {}) {
  if (answersLocally(path)) return callDevice(path, body, options);
  try {
    return await callServer(path, body, options);
  } catch (e) {
    // The server is out of reach while the device's engine loads: the device answers.
    if (e instanceof RequestError && e.kind === 'network' && (await deviceTakesOver(path))) return callDevice(path, body, options);
    throw e;
  }
}

/**
 * An abort controller that fires when `signal` does or after `timeoutMs`; `timedOut` says which,
 * `release()` drops the timer and the listener once the answer is in.
 */
function deadline(signal, timeoutMs) {
  const ctl = new AbortController();
  const state = { ctl, timedOut: false };
  const timer = setTimeout(() => {
    state.timedOut = true;
    ctl.abort();
  }, timeoutMs);
  const onAbort = () => ctl.abort();
  if (signal) {
    if (signal.aborted) ctl.abort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  state.release = () => {
    clearTimeout(timer);
    if (signal) signal.removeEventListener('abort', onAbort);
  };
  return state;
}

/** Asks the engine on this device, with the same timeout, cancelling and errors as the server. */
async function callDevice(path, body, { signal, timeoutMs = TIMEOUT_MS, lane } = {}) {
  const limit = deadline(signal, timeoutMs);
  const { ctl } = limit;
  try {
    let reply;
    try {
      reply = await ask(path, body, { signal: ctl.signal, lane });
    } catch (e) {
      if (limit.timedOut) throw new RequestError('timeout', `no answer within ${timeoutMs / 1000} s`);
      if (e.kind === 'aborted') throw new RequestError('aborted', 'cancelled');
      // The device's engine gave up (it failed to start): the server answers instead.
      return callServer(path, body, { signal, timeoutMs });
    }
    const { status, body: json } = reply;
    if (status !== 200) throw refusal(status, json);
    return json;
  } finally {
    limit.release();
  }
}

/**
 * Asks the server. Refusals are asked for with status 200 and their real status in `Mnk-Status`
 * (docs/api.md): the page handles every one, and a browser notes each response with an error
 * status as an error in its console.
 */
async function callServer(path, body, { signal, timeoutMs = TIMEOUT_MS, headers = {} } = {}) {
  const limit = deadline(signal, timeoutMs);
  const { ctl } = limit;
  try {
    let res;
    try {
      const asked = { ...headers, 'Mnk-Refusal-Status': '200' };
      res = await fetch(`api/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? asked : { ...asked, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: ctl.signal,
      });
    } catch (e) {
      if (limit.timedOut) throw new RequestError('timeout', `no answer within ${timeoutMs / 1000} s`);
      if (ctl.signal.aborted) throw new RequestError('aborted', 'cancelled');
      throw new RequestError('network', e && e.message ? e.message : 'network error');
    }
    let json = null;
    try {
      json = await res.json();
    } catch (e) {
      if (limit.timedOut) throw new RequestError('timeout', `no answer within ${timeoutMs / 1000} s`);
      if (ctl.signal.aborted) throw new RequestError('aborted', 'cancelled');
      json = null;
    }
    const status = Number(res.headers.get('Mnk-Status')) || res.status;
    if (status < 200 || status >= 300) throw refusal(status, json);
    if (json === null) throw new RequestError('http', 'the answer was not JSON', status);
    return json;
  } finally {
    limit.release();
  }
}
