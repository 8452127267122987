// Rooms: a full game between two people in two browser contexts from a shared link, a spectator
// in a third who sees every move and cannot play, a reload mid-game that keeps the seat, the
// finished game's permanent link, then a rematch with the colours swapped and a resignation;
// whether the opponent is here or away (over a socket and a long poll), renju's forbidden points
// in a room, and a whole game between two phones.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clockText } from '../../web/clocks.js';
import { api, board, clockFaces, launch, open, shot, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const vp = VIEWPORTS[0];
const room = (page) => page.$eval('#room', (el) => ({ ...el.dataset }));
const waitRoom = (page, attr, value) =>
  page.waitForFunction(([a, v]) => document.getElementById('room').dataset[a] === v, [attr, value], { timeout: 15000 });
const waitPly = (page, ply) =>
  page.waitForFunction((n) => document.getElementById('board').dataset.ply === String(n), ply, { timeout: 15000 });

/** Opens the room's link in a fresh context (another device), a desktop unless `v` says. */
async function visit(link, v = vp) {
  const page = await open(browser, v, link.replace(/^https?:\/\/[^/]+/, ''));
  await page.waitForSelector('#room:not([hidden])');
  return page;
}

describe('rooms (desktop)', () => {
  test('two people play from a shared link, a spectator watches, a reload keeps the seat', async () => {
    const a = await open(browser, vp, '/?r=3x3x3&o=human');
    await a.click('#btn-room');
    await a.click('#room-create');
    await waitRoom(a, 'status', 'waiting');
    const link = await a.inputValue('#room-link');
    assert.match(link, /\?room=[2-9a-z]{14}$/);
    assert.equal((await room(a)).seat, '0');

    const b = await visit(link);
    await waitRoom(b, 'status', 'playing');
    await waitRoom(a, 'status', 'playing');
    assert.equal((await room(b)).seat, '1');
    const watcher = await visit(link);
    assert.equal((await room(watcher)).seat, '', 'the third visitor watches');
    assert.match(await watcher.textContent('#room-seat'), /watching/);

    const x = (await room(a)).colour === 'X' ? a : b;
    const o = x === a ? b : a;
    const everyone = [a, b, watcher];
    const move = async (page, cell, ply) => {
      await page.click(`#grid [data-cell="${cell}"]`);
      for (const p of everyone) await waitPly(p, ply);
    };
    await move(x, 'a1', 1);
    await move(o, 'a2', 2);

    // The spectator cannot move; neither can a player out of turn.
    await watcher.click('#grid [data-cell="c1"]');
    await o.click('#grid [data-cell="c1"]');
    await a.waitForTimeout(500);
    for (const p of everyone) assert.equal((await board(p)).ply, '2');

    // O reloads mid-game: same seat, same game, and plays on.
    await o.reload();
    await o.waitForSelector('#room:not([hidden])');
    await waitPly(o, 2);
    assert.equal((await room(o)).colour, 'O');
    // The line above the board says whose turn it is as each sees it; a spectator, by colour.
    assert.equal(await x.textContent('#status'), 'Your move (X)');
    assert.equal(await o.textContent('#status'), 'Your opponent’s move (X)');
    assert.equal(await watcher.textContent('#status'), 'X to move');
    await move(x, 'b2', 3);
    await move(o, 'b3', 4);
    await move(x, 'c3', 5);
    for (const p of everyone) await waitRoom(p, 'status', 'over');
    assert.equal((await board(watcher)).winner, 'X');
    assert.match(await x.textContent('#room-status'), /You won/);
    assert.match(await o.textContent('#room-status'), /You lost/);
    await shot(x, 'desktop-room-won');

    // The finished game's permanent link replays it on any device.
    const record = await x.getAttribute('#room-record', 'href');
    assert.match(record, /\/g\/[2-9a-z]{14}-1$/);
    const replay = await open(browser, vp, record);
    await waitPly(replay, 5);
    assert.equal((await board(replay)).winner, 'X');
    assert.equal(await replay.isHidden('#room'), true);
    await replay.click('#nav-back');
    await waitPly(replay, 4);
    await replay.done();

    // Rematch: offered by one, accepted by the other; the colours swap.
    await o.click('#room-rematch');
    await x.waitForFunction(() => /offers a rematch/.test(document.getElementById('room-offer').textContent), null, { timeout: 15000 });
    await x.click('#room-rematch');
    for (const p of everyone) await waitRoom(p, 'status', 'playing');
    assert.equal((await room(o)).colour, 'X', 'colours swapped');
    assert.equal((await board(a)).ply, '0');
    await o.click('#grid [data-cell="b2"]');
    for (const p of everyone) await waitPly(p, 1);
    await x.click('#room-resign');
    await x.click('#resign-confirm');
    for (const p of everyone) await waitRoom(p, 'status', 'over');
    assert.match(await o.textContent('#room-status'), /You won: O resigned/);
    // The line above the board says how the game ended, not whose move it would be.
    for (const p of everyone) assert.match(await p.textContent('#status'), /^X won: O resigned$/);
    for (const p of everyone) await p.done();
  });

  test('each player sees whether the other is here or away, over a socket or a long poll', async () => {
    const a = await open(browser, vp, '/?r=3x3x3&o=human');
    await a.click('#btn-room');
    await a.click('#room-create');
    await waitRoom(a, 'status', 'waiting');
    assert.equal(await a.isHidden('#room-opponent'), true, 'no opponent yet');
    const link = await a.inputValue('#room-link');
    const here = (page, value) =>
      page.waitForFunction((v) => document.getElementById('room-opponent').dataset.here === v, value, { timeout: 15000 });

    const b = await visit(link);
    await here(a, 'true');
    await here(b, 'true');
    assert.match(await a.textContent('#room-opponent'), /Your opponent is here/);
    await shot(a, 'desktop-room-opponent-here');

    // B leaves the page: away; B comes back: here again.
    await b.goto('about:blank');
    await here(a, 'false');
    assert.match(await a.textContent('#room-opponent'), /away/);
    await shot(a, 'desktop-room-opponent-away');
    await b.goto(link);
    await b.waitForSelector('#room:not([hidden])');
    await here(a, 'true');

    // Without WebSockets, B's long polls keep B here.
    await b.addInitScript(() => {
      delete window.WebSocket;
    });
    await b.goto('about:blank');
    await here(a, 'false');
    await b.goto(link);
    await b.waitForSelector('#room:not([hidden])');
    await here(a, 'true');
    assert.equal(await b.evaluate(() => typeof WebSocket), 'undefined');
    await here(b, 'true');
    await a.done();
    await b.done();
  });

  test('the computer takes the free seat and answers every move', async () => {
    const page = await open(browser, vp, '/?r=3x3x3&o=level2');
    await page.click('#btn-room');
    await page.selectOption('#room-colour', 'X');
    await page.click('#room-create');
    await waitRoom(page, 'status', 'waiting');
    await page.click('#room-bot');
    await waitRoom(page, 'status', 'playing');
    await page.click('#grid [data-cell="b2"]');
    await waitPly(page, 2);
    assert.match(await page.textContent('#room-status'), /Your turn/);
    await page.done();
  });

  test('a clock that runs out loses the game, shown live', async () => {
    // Five seconds each: X's clock starts when O joins (in opening the page), and X's move must
    // come before it runs out.
    const created = await api('rooms', { rules: 'gomoku15', colour: 'X', clock: { initial_ms: 5000, increment_ms: 0 } });
    const joining = Date.now();
    const o = await visit(`/?room=${created.room}`);
    await waitRoom(o, 'status', 'playing');
    const faces = () => clockFaces(o);
    // X's clock runs; O's waits for its turn, whole.
    let now = await faces();
    assert.equal(now.X.running, 'true');
    assert.deepEqual([now.O.running, now.O.time], ['false', '0:05']);
    const moved = await api(`rooms/${created.room}/move`, { token: created.token, ply: 0, cell: 'h8' });
    const elapsed = Date.now() - joining;
    assert.equal(moved.ply, 1, JSON.stringify(moved));
    assert.equal(moved.clocks.running, 'O', JSON.stringify(moved.clocks));
    assert.ok(moved.clocks.x_ms <= 5000 && moved.clocks.x_ms >= 5000 - elapsed, `${JSON.stringify(moved.clocks)} after ${elapsed} ms`);
    // X's clock stopped where the server says.
    await waitPly(o, 1);
    now = await faces();
    assert.deepEqual([now.X.running, now.X.time], ['false', clockText(moved.clocks.x_ms)]);
    // O does not move: five seconds later the flag falls, and the page says so.
    await waitRoom(o, 'status', 'over');
    assert.match(await o.textContent('#room-status'), /You lost: O ran out of time/);
    assert.equal(await o.textContent('#room-clocks'), `X ${clockText(moved.clocks.x_ms)} · O 0:00`);
    await o.done();
  });

  test("renju in a room: black's forbidden points are marked and explained, never sent", async () => {
    const a = await open(browser, vp, '/?r=15x15x5,renju&o=human');
    await a.click('#btn-room');
    await a.selectOption('#room-colour', 'X');
    await a.click('#room-create');
    await waitRoom(a, 'status', 'waiting');
    const b = await visit(await a.inputValue('#room-link'));
    await waitRoom(a, 'status', 'playing');
    // Black (X) gets an open two across (f8 g8) and one down (h9 h10) meeting at h8.
    const moves = ['f8', 'a1', 'g8', 'c1', 'h9', 'e1', 'h10', 'g1'];
    for (const [ply, cell] of moves.entries()) {
      await (ply % 2 === 0 ? a : b).click(`#grid [data-cell="${cell}"]`);
      for (const p of [a, b]) await waitPly(p, ply + 1);
    }
    for (const p of [a, b]) assert.match((await board(p)).forbidden, /(^| )h8:double-three( |$)/);
    assert.match(await a.getAttribute('#grid [data-cell="h8"]', 'aria-label'), /h8, empty, forbidden for X \(black\): a double-three/);
    await shot(a, 'desktop-room-renju-forbidden');
    await a.click('#grid [data-cell="h8"]');
    assert.match(await a.textContent('#room-notice'), /h8 is forbidden for X \(black\) under renju: a double-three/);
    await a.waitForTimeout(300);
    for (const p of [a, b]) assert.equal((await board(p)).ply, '8');
    // Black plays elsewhere; white, to move, has none and may take h8.
    await a.click('#grid [data-cell="o15"]');
    for (const p of [a, b]) await waitPly(p, 9);
    assert.equal((await board(b)).forbidden, '');
    await b.click('#grid [data-cell="h8"]');
    for (const p of [a, b]) await waitPly(p, 10);
    await a.done();
    await b.done();
  });

  test('an unknown room says so and opens a game', async () => {
    const page = await open(browser, vp, '/?room=nosuchroom2345');
    await page.waitForSelector('#link-error:not([hidden])');
    assert.equal(await page.getAttribute('#link-error', 'data-code'), 'unknown_room');
    assert.equal(await page.textContent('#link-error-text'), 'There is no room nosuchroom2345: check the link.');
    assert.equal(await page.isHidden('#room'), true);
    await page.done(true);
  });
});

describe('rooms (phone)', () => {
  const phone = VIEWPORTS[1];

  test('a whole game between two phones, tapped, the room fitting the screen', async () => {
    const a = await open(browser, phone, '/?r=3x3x3&o=human');
    await a.tap('#btn-room');
    await a.selectOption('#room-colour', 'X');
    await a.tap('#room-create');
    await waitRoom(a, 'status', 'waiting');
    const link = await a.inputValue('#room-link');
    const b = await visit(link, phone);
    for (const p of [a, b]) await waitRoom(p, 'status', 'playing');
    await a.waitForFunction(() => document.getElementById('room-opponent').dataset.here === 'true', null, { timeout: 15000 });
    const moves = ['a1', 'a2', 'b2', 'b3', 'c3'];
    for (const [ply, cell] of moves.entries()) {
      await (ply % 2 === 0 ? a : b).tap(`#grid [data-cell="${cell}"]`);
      for (const p of [a, b]) await waitPly(p, ply + 1);
    }
    for (const p of [a, b]) await waitRoom(p, 'status', 'over');
    assert.equal((await board(b)).winner, 'X');
    assert.match(await a.textContent('#room-status'), /You won/);
    assert.match(await b.textContent('#room-status'), /You lost/);
    for (const p of [a, b]) {
      // Nothing wider than the phone's screen; the board and the room's panel both shown.
      assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
      const boxes = await p.evaluate(() =>
        ['#board', '#room-status', '#room-rematch'].map((sel) => {
          const r = document.querySelector(sel).getBoundingClientRect();
          return { sel, left: r.left, right: r.right, width: r.width };
        }),
      );
      for (const box of boxes) assert.ok(box.width > 0 && box.left >= 0 && box.right <= 375 + 0.5, JSON.stringify(box));
    }
    await shot(a, 'phone-room-won');
    await b.evaluate(() => document.getElementById('room').scrollIntoView());
    await shot(b, 'phone-room-lost');
    // Rematch, tapped on both phones: the colours swap.
    await b.tap('#room-rematch');
    await a.waitForFunction(() => /offers a rematch/.test(document.getElementById('room-offer').textContent), null, { timeout: 15000 });
    await a.tap('#room-rematch');
    for (const p of [a, b]) await waitRoom(p, 'status', 'playing');
    assert.equal((await room(b)).colour, 'X');
    await a.done();
    await b.done();
  });
});
