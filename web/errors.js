// The error box: what went wrong in words a player understands, and a Retry when trying again
// could help.

import { RequestError } from './api.js';
import { store } from './store.js';
import { hasText, lang, t } from './i18n.js';

const $ = (id) => document.getElementById(id);

export function describeError(err) {
  if (typeof err === 'string') return err;
  if (!(err instanceof RequestError)) return t('errUnexpected', { message: String(err && err.message ? err.message : err) });
  if (err.kind === 'timeout') return t('errTimeout');
  if (err.kind === 'network') return t(navigator.onLine === false ? 'errOffline' : 'errNetwork');
  if (err.status === 503) return t('errBusy');
  if (err.status >= 500) return t('errServer', { status: err.status });
  return t('errRefused', { message: refusalText(err) });
}

/**
 * A refusal in the player's language: `{code, message, reason?, params?, index?}` as the API
 * gives it (docs/api.md#refusals). The sentence its reason names, else one for its code; in
 * English a refusal without a reason keeps the API's own message, which says more.
 */
export function refusalText(error) {
  const params = {};
  for (const [name, value] of Object.entries(error.params || {})) {
    params[name] = typeof value === 'number' ? value.toLocaleString(lang()) : value;
  }
  if (error.index != null && params.move === undefined) params.move = error.index + 1;
  if (params.kind) params.kind = t(`forbidden_${params.kind}`);
  const worded = error.reason && `refusal_${error.code}_${error.reason}`;
  if (worded && hasText(worded)) return t(worded, params);
  if (error.message && lang() === 'en') return error.message;
  const general = `refusal_${error.code}`;
  return hasText(general) ? t(general, params) : error.message || error.code;
}

/** A refusal (4xx) would only be refused again; timeouts, network failures and 5xx may pass. */
export function isRefusal(err) {
  return err instanceof RequestError && err.kind === 'http' && err.status < 500 && err.status !== 408 && err.status !== 429;
}

/**
 * Shows an error with its retry. `step`: a game step's failure (a move, the computer's answer),
 * which a study tool failing beside it does not replace.
 */
export function showError(err, retry, { step = false } = {}) {
  // Retries of the tools that failed just before are kept: Retry runs them too.
  const before = store.error ? [store.error.retry, ...store.error.also].filter(Boolean) : [];
  // A refusal would only be refused again.
  const again = retry && !isRefusal(err) ? retry : null;
  store.error = { retry: again, also: before, step };
  $('error-text').textContent = describeError(err);
  $('error').dataset.code = err && err.code ? err.code : err && err.kind ? err.kind : 'error';
  $('btn-retry').hidden = !again && !before.length;
  $('error').hidden = false;
}

/**
 * Shows a study tool's failed request (the heat map, exact values), unless it was cancelled on
 * purpose. A game step's failure shown already stays: the tool's retry joins its Retry, which
 * then retries both.
 */
export function showRequestFailure(err, retry) {
  if (err instanceof RequestError && err.kind === 'aborted') return;
  if (store.error && store.error.step) {
    if (retry && !isRefusal(err)) {
      store.error.also.push(retry);
      $('btn-retry').hidden = false;
    }
    return;
  }
  showError(err, retry);
}

/** Hides the error shown. */
export function hideError() {
  store.error = null;
  $('error').hidden = true;
}

/** Runs the shown error's retry, and those of the tools that failed with it. */
export function retryError() {
  const shown = store.error;
  hideError();
  if (!shown) return;
  if (shown.retry) shown.retry();
  for (const retry of shown.also) retry();
}

/** A link that cannot be opened as it is (no such room or game, rules or moves refused, an
 * opponent that cannot play them): said above the board, where a phone shows it without
 * scrolling, until the player acts or dismisses it. `err` gives its code, for tests and styles. */
export function showLinkError(text, err) {
  $('link-error-text').textContent = text;
  $('link-error').dataset.code = err && err.code ? err.code : err && err.kind ? err.kind : 'error';
  $('link-error').hidden = false;
}

export function hideLinkError() {
  $('link-error').hidden = true;
}
