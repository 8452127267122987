// The error box: what went wrong in words a player understands, and a Retry when trying again
// could help.

import { RequestError } from './api.js';
import { store } from './store.js';
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);

export function describeError(err) {
  if (typeof err === 'string') return err;
  if (!(err instanceof RequestError)) return t('errUnexpected', { message: String(err && err.message ? err.message : err) });
  if (err.kind === 'timeout') return t('errTimeout');
  if (err.kind === 'network') return t(navigator.onLine === false ? 'errOffline' : 'errNetwork');
  if (err.status === 503) return t('errBusy');
  if (err.status >= 500) return t('errServer', { status: err.status });
  return t('errRefused', { message: err.message });
}

/** A refusal (4xx) would only be refused again; timeouts, network failures and 5xx may pass. */
export function isRefusal(err) {
  return err instanceof RequestError && err.kind === 'http' && err.status < 500 && err.status !== 408 && err.status !== 429;
}

export function showError(err, retry) {
  store.error = { retry };
  $('error-text').textContent = describeError(err);
  $('error').dataset.code = err && err.code ? err.code : err && err.kind ? err.kind : 'error';
  $('btn-retry').hidden = !retry || isRefusal(err);
  $('error').hidden = false;
}

/** Shows a failed request's error, unless it was cancelled on purpose. */
export function showRequestFailure(err, retry) {
  if (err instanceof RequestError && err.kind === 'aborted') return;
  showError(err, retry);
}

export function hideError() {
  store.error = null;
  $('error').hidden = true;
}

/** Runs the shown error's retry. */
export function retryError() {
  const r = store.error && store.error.retry;
  hideError();
  if (r) r();
}

/** A link that leads nowhere (no such room or game): said above the board, where a phone shows
 * it without scrolling. `err` gives its code, for tests and styles. */
export function showLinkError(text, err) {
  $('link-error-text').textContent = text;
  $('link-error').dataset.code = err && err.code ? err.code : err && err.kind ? err.kind : 'error';
  $('link-error').hidden = false;
}

export function hideLinkError() {
  $('link-error').hidden = true;
}
