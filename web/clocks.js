// The two clocks of a room's game (room.js) and of a finished game's record (record.js), above the
// board where they are seen at a glance: X's and O's time, the running one counted down from the
// server's figures and marked, and a clock low on time marked too. The server keeps the time;
// this only shows it.

import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);

/** Below this a clock is low on time: a tenth of the initial time, but 10 to 30 seconds. */
export function lowTimeMs(initialMs) {
  return Math.min(30000, Math.max(10000, initialMs / 10));
}

/** `m:ss`, rounded up: a clock shows 0:00 only once its time is out. */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Shows `clocks` ({x_ms, o_ms, running}, as the server sent them `elapsedMs` ago) for a clock of
 * `initialMs`, or hides the clocks when there are none.
 */
export function showClocks(clocks, initialMs, elapsedMs = 0) {
  const el = $('room-clocks');
  if (!clocks) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const low = lowTimeMs(initialMs || 0);
  for (const face of el.querySelectorAll('.clock')) {
    const side = face.dataset.side;
    const running = clocks.running === side;
    const left = (side === 'X' ? clocks.x_ms : clocks.o_ms) - (running ? elapsedMs : 0);
    const text = clockText(left);
    face.querySelector('.clock-time').textContent = text;
    face.dataset.running = String(running);
    face.dataset.low = String(left < low);
    face.setAttribute('aria-label', t(running ? 'clockRunning' : 'clockStopped', { p: side, time: text }));
  }
}
