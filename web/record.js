// A finished game of a room, at its permanent address (`/g/ROOM-N` leads to `?game=ROOM-N`):
// read-only. The page says who won and how, shows the clocks as they stood at the end, and lets
// the moves be stepped through; a click on the board changes nothing. "Study this game" turns it
// into an ordinary game on this device, where variations can be tried (and the address becomes
// that game's).

import { call } from './api.js';
import { showClocks } from './clocks.js';
import { t } from './i18n.js';
import { store } from './store.js';
import { saveUrl } from './link.js';
import { MoveTree } from './tree.js';
import { onRender, render, resultText, rulesTitle } from './view.js';

const $ = (id) => document.getElementById(id);

/** The finished game of the address (`?game=ROOM-N`), if any. */
export function gameInUrl() {
  const text = new URLSearchParams(location.search).get('game');
  if (text === null) return null;
  const m = /^([2-9a-z]{14})-(\d{1,9})$/.exec(text);
  // A mistyped address: no game has it (`room` null, `text` as typed).
  return m ? { room: m[1], number: Number(m[2]), text } : { room: null, number: 0, text: text.slice(0, 40) };
}

export const inRecord = () => store.record !== null;

/**
 * Shows game `number` of room `room` read-only, started through `startGame` as a game of two
 * people (so that its positions are the server's); `onFailed(error)` when it cannot be had.
 */
export async function openRecord({ room, number }, startGame, onFailed) {
  let record;
  try {
    record = await call(`rooms/${room}/games/${number}`);
  } catch (e) {
    onFailed(e);
    return;
  }
  store.record = { room: record.room, game: record.game, result: record.result, clock: record.clock, clocks: record.clocks };
  document.body.classList.add('record-mode');
  startGame(
    { rules: record.rules, opponent: { human: true }, side: 'X', tree: MoveTree.fromMoves(record.moves) },
    {
      onStarted: renderRecord,
      onFailed: (e) => {
        leave();
        onFailed(e);
      },
    },
  );
}

/** Leaves the record: the game shown becomes an ordinary one of two people on this device. */
function leave() {
  store.record = null;
  document.body.classList.remove('record-mode');
  $('record').hidden = true;
  $('record-note').textContent = '';
  showClocks(null);
}

function study() {
  leave();
  render();
  saveUrl();
}

/** A click on the board of a record: nothing to play, and a word on why. */
export function recordMove() {
  $('record-note').textContent = t('recordReadOnly');
}

/** The record's panel: which game, how it ended, its clocks. */
export function renderRecord() {
  const record = store.record;
  if (!record || !store.rules) return;
  $('record').hidden = false;
  $('record-title').textContent = t('recordTitle', { game: record.game, room: record.room });
  $('record-result').textContent = resultText(record.result, store.rules);
  $('record').dataset.reason = record.result.reason;
  $('record').dataset.winner = record.result.winner || '';
  showClocks(record.clocks, record.clock ? record.clock.initial_ms : 0);
}

/** Binds the record's button, and titles the game as a record whenever the page is drawn. */
export function bindRecord() {
  onRender(() => {
    if (inRecord() && store.rules) $('game-title').textContent = `${rulesTitle(store.rules)} — ${t('recordGame')}`;
  });
  $('record-study').addEventListener('click', study);
}
