// Rooms ("Play a friend"): a game between two devices. The page creates a room for the rules on
// the board, shows its link (`?room=ID`) to send, and from then on the server's room is the game:
// every state it pushes over the room's WebSocket replaces the board, moves are sent with the ply
// they expect, and the seat's token stays in localStorage so a reload (or the same browser
// opening the link again) gets the seat back. Without WebSockets the page long-polls instead.
// The server decides everything; this module only shows the room and sends what the player does:
// a move that no answer follows (the socket closed, or silent for DELIVERY_MS, or the request
// failed) is said not to be delivered, never left to vanish. In a game without a clock, once the
// opponent has been away for the room's delay the player may claim the win or hand the seat to
// the computer (the server checks the delay too).

import { call } from './api.js';
import { showClocks } from './clocks.js';
import { hideError, refusalText, showError } from './errors.js';
import { t } from './i18n.js';
import { apiRules, cellName, other } from './notation.js';
import { settings } from './settings.js';
import { store } from './store.js';
import { MoveTree } from './tree.js';
import { board, forbiddenAt, onRender, render, resultText, rulesTitle } from './view.js';

const $ = (id) => document.getElementById(id);

/** localStorage key of the seat tokens: {roomId: token}. */
const TOKENS = 'mnk.roomTokens';
const MAX_BACKOFF_MS = 8000;
/** How long a move sent over the socket may go unanswered before the connection is taken for
 * dead: the server answers in milliseconds, or within its database timeout (2 s) with a refusal. */
const DELIVERY_MS = 5000;

const room = {
  /** the room's id, or null outside a room */
  id: null,
  /** this page's seat (0 or 1), or null for a spectator */
  seat: null,
  /** the newest state the server sent */
  state: null,
  /** when that state arrived (the running clock counts from there) */
  at: 0,
  socket: null,
  backoff: 500,
  /** which seats have a live connection to the server, as it last said */
  here: [false, false],
  /** since when (Date.now()) each seat has been away, as the server and its presence said */
  awaySince: [null, null],
  /** the last refusal to show under the room's status */
  notice: '',
  /** the move sent and not yet answered: {game, ply, cell, timer} */
  sending: null,
  /** a move that was not delivered, said until it is played again (or found delivered after
   * all): {game, ply, cell} */
  undelivered: null,
  clockTimer: 0,
};

export const inRoom = () => room.id !== null;

function tokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS)) || {};
  } catch {
    return {};
  }
}

function keepToken(id, token) {
  const all = tokens();
  if (token) all[id] = token;
  else delete all[id];
  try {
    localStorage.setItem(TOKENS, JSON.stringify(all));
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}

/** The room of the address (`?room=ID`), if any. */
export function roomInUrl() {
  return new URLSearchParams(location.search).get('room');
}

const roomLink = (id) => `${location.origin}${location.pathname}?room=${encodeURIComponent(id)}`;

/** Asks for the colour, the clock and the opening of a room for the rules on the board. */
function askForRoom() {
  if (!store.rules) return;
  $('room-rules').textContent = rulesTitle(store.rules);
  syncOpeningField();
  syncNetwork();
  $('dlg-room').showModal();
}

/** Rooms live on the server: offline, the dialog says so and cannot create one. */
function syncNetwork() {
  const offline = navigator.onLine === false;
  $('room-offline').hidden = !offline;
  $('room-create').disabled = offline;
}

/** With a swap opening a note says who opens and whose clock runs while it is played. */
function syncOpeningField() {
  $('room-opening-note').hidden = $('room-opening').value === 'free';
}

/** The clock chosen in the dialog: `{initial_ms, increment_ms}` from "300000+3000", or none. */
function chosenClock() {
  const m = /^(\d+)\+(\d+)$/.exec($('room-clock').value);
  return m ? { initial_ms: Number(m[1]), increment_ms: Number(m[2]) } : undefined;
}

/** Creates a room for the rules on the board and sits down in it. */
export async function createRoom() {
  if (!store.rules) return;
  $('dlg-room').close();
  hideError();
  try {
    const opening = $('room-opening').value;
    enter(await call('rooms', { rules: apiRules(store.rules), colour: $('room-colour').value, clock: chosenClock(), opening }));
  } catch (e) {
    showError(e, createRoom);
  }
}

/** Opens room `id`: the seat this browser holds, the free seat, or a spectator's view. */
export async function openRoom(id, onFailed) {
  const token = tokens()[id];
  try {
    enter(await call(`rooms/${encodeURIComponent(id)}/join`, token ? { token } : {}));
  } catch (e) {
    if (e.code === 'bad_token') {
      // A token of another database (or a damaged one): come in as a newcomer.
      keepToken(id, null);
      return openRoom(id, onFailed);
    }
    onFailed(e);
  }
}

function enter(reply) {
  room.id = reply.room;
  room.seat = reply.seat;
  if (reply.token) keepToken(reply.room, reply.token);
  try {
    history.replaceState(null, '', `${location.pathname}?room=${encodeURIComponent(reply.room)}`);
  } catch {
    /* the room still works */
  }
  document.body.classList.add('room-mode');
  $('room').hidden = false;
  $('room-id').textContent = reply.room;
  $('room-link').value = roomLink(reply.room);
  apply(reply.state);
  showLinkEnd();
  if (typeof WebSocket === 'function') connect();
  else poll();
  clearInterval(room.clockTimer);
  room.clockTimer = setInterval(tick, 250);
}

/** The link field scrolled to its end, where the room's id is, however narrow the field. */
function showLinkEnd() {
  const input = $('room-link');
  if (document.activeElement !== input) input.scrollLeft = input.scrollWidth;
}

/** What changes with time alone: the running clock, how long the opponent has been away. */
function tick() {
  renderClocks();
  if (room.state) renderClaim(room.state);
}

/** Shows a state from the server, unless a newer one is shown already. */
function apply(state) {
  if (!state || (room.state && state.version < room.state.version)) return;
  const sameRules = room.state && JSON.stringify(room.state.rules) === JSON.stringify(state.rules);
  room.state = state;
  room.at = Date.now();
  if (state.seats.every((s) => typeof s.here === 'boolean')) {
    room.here = state.seats.map((s) => s.here);
    room.awaySince = state.seats.map((s) => (typeof s.away_ms === 'number' ? room.at - s.away_ms : null));
  }
  settleMoves(state);
  // The room's opening, as the server keeps it: the choice panel and the opening's status read it.
  const opening = state.opening
    ? { kind: state.opening.kind, decisions: state.opening.decisions, seat: openingSeat(state), room: true }
    : { kind: 'free', decisions: [], seat: 'opener' };
  Object.assign(store, { rules: state.rules, opponent: { human: true }, opening, hint: null, info: '', roomColour: myColour() });
  store.tree = MoveTree.fromMoves(state.moves);
  store.tree.cursor.state = state;
  board.pending = null;
  if (!sameRules) {
    board.setRules(state.rules);
    board.recentre();
  }
  render();
  if (state.last) board.follow(state.last);
  renderRoom();
}

/** What a new state says of the move sent, or of the one not delivered: answered (played, or the
 * game moved on), or there after all (a move delivered while the page thought it lost). */
function settleMoves(state) {
  const sent = room.sending;
  if (sent && (state.game !== sent.game || state.ply > sent.ply || state.status !== 'playing')) {
    clearTimeout(sent.timer);
    room.sending = null;
  }
  const lost = room.undelivered;
  if (lost && (state.game !== lost.game || state.ply > lost.ply || state.status !== 'playing')) room.undelivered = null;
}

/** The move sent was not delivered: the player is told, and the stone shown meanwhile goes. */
function undelivered() {
  const sent = room.sending;
  if (!sent) return;
  clearTimeout(sent.timer);
  room.sending = null;
  room.undelivered = { game: sent.game, ply: sent.ply, cell: sent.cell };
  board.pending = null;
  board.schedule();
  renderRoom();
}

/** This page's seat in the room's opening: `opener`, `chooser`, or null for a spectator. */
function openingSeat(state) {
  if (room.seat === null || !state.opening) return null;
  return room.seat === state.opening.opener ? 'opener' : 'chooser';
}

/** The opening's step while it is still being played (null once settled, or without one). */
const unsettled = (st) => (st.opening && st.opening.step !== 'settled' ? st.opening : null);

function socketUrl() {
  const url = new URL(`api/rooms/${encodeURIComponent(room.id)}/socket`, location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/** Keeps a WebSocket open on the room, reconnecting (with the seat's hello) when it drops. */
function connect() {
  const ws = new WebSocket(socketUrl());
  room.socket = ws;
  ws.onopen = () => {
    room.backoff = 500;
    const token = tokens()[room.id];
    if (token && room.seat !== null) ws.send(JSON.stringify({ type: 'hello', token }));
    setConnected(true);
  };
  ws.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === 'state') {
      room.notice = '';
      apply(message.state);
    } else if (message.type === 'presence') {
      const now = Date.now();
      room.awaySince = room.awaySince.map((since, seat) => (message.here[seat] ? null : (since ?? now)));
      room.here = message.here;
      renderRoom();
    } else if (message.type === 'error') {
      if (room.sending) {
        clearTimeout(room.sending.timer);
        room.sending = null;
      }
      if (message.error.code === 'bad_token' && room.seat !== null) {
        // The seat was handed to the computer while this page was away: it watches now.
        keepToken(room.id, null);
        room.seat = null;
        room.notice = t('roomSeatLost');
      } else {
        room.notice = refusalText(message.error);
      }
      board.pending = null;
      if (message.state) apply(message.state);
      else renderRoom();
    }
  };
  ws.onclose = () => {
    if (room.socket !== ws) return;
    // Whatever was sent and not answered did not arrive, as far as this page can tell.
    undelivered();
    setConnected(false);
    setTimeout(connect, room.backoff);
    room.backoff = Math.min(room.backoff * 2, MAX_BACKOFF_MS);
  };
}

/** The fallback without WebSockets: asks for what comes after the version shown (a seat's poll
 * names its token, which keeps the seat shown as here to the opponent). */
async function poll() {
  for (;;) {
    const token = room.seat === null ? null : tokens()[room.id];
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    try {
      apply(await call(`rooms/${encodeURIComponent(room.id)}?after=${room.state.version}`, undefined, { timeoutMs: 40000, headers }));
      setConnected(true);
    } catch {
      setConnected(false);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

function setConnected(on) {
  $('room').dataset.connected = on ? 'true' : 'false';
  $('room-connection').hidden = on;
}

/**
 * Sends an action of this seat: over the socket when it is open, else as a request. A move is
 * watched until its answer comes (see `undelivered`).
 */
async function act(type, extra = {}) {
  if (room.seat === null) return;
  const ws = room.socket;
  const move = type === 'move';
  if (move) {
    room.undelivered = null;
    room.sending = { game: room.state.game, ply: extra.ply, cell: extra.cell, timer: 0 };
  }
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({ type, ...extra }));
    if (move) {
      room.sending.timer = setTimeout(() => {
        // No answer: the connection is not working, though the socket looks open. The move is
        // said lost and the socket opened again (its state shows the move if it did arrive).
        undelivered();
        if (room.socket === ws) ws.close();
      }, DELIVERY_MS);
    }
    return;
  }
  try {
    apply(await call(`rooms/${encodeURIComponent(room.id)}/${type}`, { token: tokens()[room.id], ...extra }));
  } catch (e) {
    if (move && (e.kind === 'network' || e.kind === 'timeout')) return undelivered();
    if (move) {
      // Delivered, and refused: the refusal says why.
      clearTimeout(room.sending && room.sending.timer);
      room.sending = null;
      board.pending = null;
      board.schedule();
    }
    if (e.code === 'stale_ply') openRoom(room.id, (err) => showError(err, null));
    else showError(e, null);
  }
}

/** Seats the computer (at the level last chosen against it, else 3) in the free seat. */
async function inviteBot() {
  try {
    apply(await call(`rooms/${encodeURIComponent(room.id)}/bot`, { token: tokens()[room.id], bot: botLevel() }));
  } catch (e) {
    showError(e, null);
  }
}

/** The computer a seat is given: at the level last chosen against it, else 3. */
function botLevel() {
  const level = store.catalogue.levels.length && settings.opponent && /^level(\d)$/.exec(settings.opponent);
  return { level: level ? Number(level[1]) : 3 };
}

const myColour = () => (room.seat === null ? null : room.state.seats[room.seat].colour);

/** Whether this seat places the next stone: in the opening when the opening says so, else when
 * its colour is to move. */
function mayPlace(st) {
  const opening = unsettled(st);
  if (opening) return opening.step === 'place' && opening.acts === room.seat;
  return myColour() === st.to_move;
}

/** A click on the board in a room: a move, if it is this seat's turn. */
export function roomMove(cell) {
  const st = room.state;
  if (!st || st.status !== 'playing' || room.seat === null || !mayPlace(st) || board.pending) return;
  const forbidden = forbiddenAt(cell);
  if (forbidden) {
    // Renju: black may not play here. Say why instead of asking the server to refuse it.
    room.notice = t('forbiddenMoveFor', { cell: cellName(cell.x, cell.y), p: st.to_move, kind: t(`forbidden_${forbidden.kind}`) });
    renderRoom();
    return;
  }
  board.pending = { ...cell, p: st.to_move };
  board.schedule();
  room.notice = '';
  act('move', { ply: st.ply, cell: cellName(cell.x, cell.y) });
}

/** A decision of the room's swap opening, made in the choice panel. */
export function roomDecide(decision) {
  const opening = room.state && unsettled(room.state);
  if (!opening || opening.step !== 'choose' || opening.acts !== room.seat) return;
  act('decide', { ply: room.state.ply, decision });
}

/** Whether the other seat is the computer's. */
function againstBot(st) {
  const other = room.seat === null ? null : st.seats[1 - room.seat];
  return Boolean(other && other.bot);
}

function statusText(st) {
  const mine = myColour();
  if (st.status === 'closed') return t('roomClosed');
  if (st.status === 'waiting') return t('roomWaiting');
  const opening = unsettled(st);
  if (st.status === 'playing' && opening) {
    if (room.seat === null) return t('roomOpeningWatch');
    if (opening.acts !== room.seat) return t(againstBot(st) ? 'roomOpeningComputer' : 'roomOpeningTheirs');
    if (opening.step === 'choose') return t('roomOpeningChoose');
    return t('roomOpeningPlace', { n: opening.left, p: st.to_move });
  }
  if (st.status === 'playing') {
    if (mine === null) return t('roomToMove', { p: st.to_move });
    if (mine === st.to_move) return t('roomYourTurn');
    return t(againstBot(st) ? 'roomComputerTurn' : 'roomTheirTurn');
  }
  if (st.result.winner === null || mine === null) return resultText(st.result, st.rules);
  const why = t(`roomReason_${st.result.reason}`, { k: st.rules.k, q: other(st.result.winner) });
  return t(st.result.winner === mine ? 'roomYouWon' : 'roomYouLost', { why });
}

/** Who this page is in the room: its colour, or its part in an opening still being played. */
function seatText(st) {
  if (room.seat === null) return t('roomWatching');
  if (unsettled(st)) return t(openingSeat(st) === 'opener' ? 'roomYouOpen' : 'roomYouChoose', { game: st.game });
  return t('roomYouPlay', { p: myColour(), game: st.game });
}

function offerText(st) {
  if (!st.offer) return '';
  const theirs = st.offer.seat !== room.seat;
  return t(`roomOffer_${st.offer.kind}_${theirs ? 'theirs' : 'mine'}`);
}

/** The room's panel: seat, status, offers, the buttons that make sense now. */
export function renderRoom() {
  const st = room.state;
  if (!st) return;
  const seated = room.seat !== null;
  const panel = $('room');
  panel.dataset.status = st.status;
  panel.dataset.seat = seated ? String(room.seat) : '';
  panel.dataset.version = String(st.version);
  panel.dataset.colour = myColour() || '';
  panel.dataset.undelivered = room.undelivered ? room.undelivered.cell : '';
  // Who the link is for: the friend while the seat waits for them; later visitors watch.
  $('room-link-label').textContent = t(seated && st.status === 'waiting' ? 'roomLink' : 'roomLinkShare');
  $('room-seat').textContent = seatText(st);
  $('room-status').textContent = statusText(st);
  $('room-offer').textContent = offerText(st);
  $('room-notice').textContent = room.undelivered ? t('roomNotDelivered', { cell: room.undelivered.cell }) : room.notice;
  renderOpponent(st);
  renderClaim(st);
  const theirOffer = (kind) => st.offer && st.offer.kind === kind && st.offer.seat !== room.seat;
  $('room-resign').hidden = !seated || st.status !== 'playing';
  $('room-draw').hidden = !seated || st.status !== 'playing';
  $('room-draw').textContent = t(theirOffer('draw') ? 'roomAcceptDraw' : 'roomOfferDraw');
  $('room-rematch').hidden = !seated || st.status !== 'over';
  $('room-bot').hidden = !seated || st.status !== 'waiting';
  const record = $('room-record');
  record.hidden = st.status !== 'over';
  record.href = `${location.pathname.replace(/[^/]*$/, '')}g/${room.id}-${st.game}`;
  $('room-rematch').textContent = t(theirOffer('rematch') ? 'roomAcceptRematch' : 'roomRematch');
  renderClocks();
}

/** Whether the opponent (a person) is connected: shown to a seated player once both are seated. */
function renderOpponent(st) {
  const el = $('room-opponent');
  const other = room.seat === null ? null : st.seats[1 - room.seat];
  if (!other || !other.taken || other.bot || st.status === 'closed') {
    el.hidden = true;
    el.dataset.here = '';
    return;
  }
  const here = room.here[other.seat];
  el.hidden = false;
  el.dataset.here = String(here);
  el.textContent = t(here ? 'roomOpponentHere' : 'roomOpponentAway');
}

/**
 * In a game without a clock whose opponent (a person) is away: how long until the game may be
 * claimed, then the two ways to claim it. The server counts the absence too, and decides.
 */
function renderClaim(st) {
  const el = $('room-claim');
  const opponent = room.seat === null ? null : st.seats[1 - room.seat];
  const since = opponent ? room.awaySince[opponent.seat] : null;
  const away = since !== null && opponent.taken && !opponent.bot && !room.here[opponent.seat];
  if (st.status !== 'playing' || typeof st.claim_after_ms !== 'number' || !away) {
    el.hidden = true;
    el.dataset.ready = '';
    return;
  }
  const gone = Date.now() - since;
  const ready = gone >= st.claim_after_ms;
  el.hidden = false;
  el.dataset.ready = String(ready);
  $('room-claim-text').textContent = ready
    ? t('roomClaimNow', { s: Math.floor(gone / 1000) })
    : t('roomClaimWait', { s: Math.ceil((st.claim_after_ms - gone) / 1000) });
  $('room-claim-win').hidden = !ready;
  $('room-claim-bot').hidden = !ready;
}

/** The clocks, the running one counted down since the state arrived. */
function renderClocks() {
  const st = room.state;
  if (!st) return;
  showClocks(st.clocks, st.clock ? st.clock.initial_ms : 0, Date.now() - room.at);
}

async function copyLink() {
  const input = $('room-link');
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand('copy');
  }
  $('room-copy').textContent = t('roomCopied');
  setTimeout(() => ($('room-copy').textContent = t('roomCopy')), 1500);
}

/** Binds the room's buttons, and titles the game as a room's whenever the page is drawn. */
export function bindRoom() {
  onRender(() => {
    if (inRoom() && store.rules) $('game-title').textContent = `${rulesTitle(store.rules)} — ${t('roomTitle')}`;
  });
  $('btn-room').addEventListener('click', askForRoom);
  $('room-create').addEventListener('click', createRoom);
  $('room-opening').addEventListener('change', syncOpeningField);
  $('room-cancel').addEventListener('click', () => $('dlg-room').close());
  addEventListener('online', syncNetwork);
  addEventListener('offline', syncNetwork);
  $('room-copy').addEventListener('click', copyLink);
  $('room-link').addEventListener('blur', showLinkEnd);
  addEventListener('resize', () => inRoom() && showLinkEnd());
  // Resigning asks first: a slip of the finger should not end a game.
  $('room-resign').addEventListener('click', () => $('dlg-resign').showModal());
  $('resign-cancel').addEventListener('click', () => $('dlg-resign').close());
  $('resign-confirm').addEventListener('click', () => {
    $('dlg-resign').close();
    act('resign');
  });
  $('room-claim-win').addEventListener('click', () => act('claim'));
  $('room-claim-bot').addEventListener('click', () => act('claim', { bot: botLevel() }));
  $('room-draw').addEventListener('click', () => act('draw'));
  $('room-rematch').addEventListener('click', () => act('rematch'));
  $('room-bot').addEventListener('click', inviteBot);
  $('room-leave').addEventListener('click', () => {
    location.href = location.pathname;
  });
}
