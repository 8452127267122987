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

/**
 * Shows an error with its retry. `sticky`: a notice about the link the page opened with, which
 * stays while the computer answers (it goes when the player acts or dismisses it).
 */
export function showError(err, retry, { sticky = false } = {}) {
  store.error = { retry, sticky };
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

/** Hides the error shown; with `keepSticky`, not a notice about the link the page opened with. */
export function hideError({ keepSticky = false } = {}) {
  if (keepSticky && store.error && store.error.sticky) return;
  store.error = null;
  $('error').hidden = true;
}

/** Runs the shown error's retry. */
export function retryError() {
  const r = store.error && store.error.retry;
  hideError();
  if (r) r();
}
