// A swap2 opening in a room, between two people in two browser contexts: the creator chooses
// swap2 and a clock in the room dialog, opens with three stones, the friend chooses in the panel
// beside the board to place two more, the opener then takes a colour, and play goes on with the
// colours the opening gave. The panel shows only to the seat choosing, and comes back after a
// reload. The clocks run for the seat that places or chooses, and a flag in the opening loses;
// the computer, invited from the page, opens a swap2 room and plays on after the person chooses.
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
const waitPanel = (page) => page.waitForSelector('#swap:not([hidden])', { timeout: 15000 });
/** A clock's `m:ss` in seconds, to compare two of them. */
const seconds = (text) => text.split(':').reduce((m, s) => 60 * Number(m) + Number(s));

describe('rooms with a swap2 opening (desktop)', () => {
  test('two people play a swap2 room through its opening', async () => {
    const a = await open(browser, vp, '/?r=15x15x5&o=human');
    await a.click('#btn-room');
    await a.selectOption('#room-clock', '300000+3000');
    await a.selectOption('#room-opening', 'swap2');
    assert.equal(await a.isDisabled('#room-clock'), false, 'a swap room may have a clock');
    assert.equal(await a.inputValue('#room-clock'), '300000+3000');
    assert.equal(await a.isVisible('#room-opening-note'), true);
    await a.selectOption('#room-colour', 'X');
    await a.click('#room-create');
    await waitRoom(a, 'status', 'waiting');
    const link = await a.inputValue('#room-link');
    const id = /room=([2-9a-z]{14})$/.exec(link)[1];

    // X's clock starts when the friend joins, in opening the link.
    const joining = Date.now();
    const b = await open(browser, vp, link.replace(/^https?:\/\/[^/]+/, ''));
    await b.waitForSelector('#room:not([hidden])');
    await waitRoom(b, 'status', 'playing');
    await waitRoom(a, 'status', 'playing');
    assert.match(await a.textContent('#room-seat'), /You open/);
    assert.match(await b.textContent('#room-seat'), /Your friend opens/);
    assert.match(await a.textContent('#room-status'), /place the opening stones \(3 to place, next: X\)/);
    assert.match(await b.textContent('#room-status'), /Your friend’s turn in the opening/);

    const both = [a, b];
    const place = async (page, cell, ply) => {
      await page.click(`#grid [data-cell="${cell}"]`);
      for (const p of both) await waitPly(p, ply);
    };
    // The friend cannot place the opener's stones.
    await b.click('#grid [data-cell="h8"]');
    await b.waitForTimeout(400);
    assert.equal((await board(a)).ply, '0');
    await place(a, 'h8', 1);
    await place(a, 'h9', 2);
    await place(a, 'j8', 3);
    // The opener's three stones were one turn on its clock (5 min, + 3 s once), stopped at the
    // server's figure; the friend's clock (O) runs while it chooses. (The server's figures,
    // bounded by the time measured since the friend joined, not a window of wall-clock ones.)
    const { clocks } = await api(`rooms/${id}`);
    const elapsed = Date.now() - joining;
    assert.equal(clocks.running, 'O', JSON.stringify(clocks));
    assert.ok(clocks.x_ms <= 303000 && clocks.x_ms >= 303000 - elapsed, `${JSON.stringify(clocks)} after ${elapsed} ms`);
    const faces = await clockFaces(a);
    assert.deepEqual([faces.X.running, faces.X.time], ['false', clockText(clocks.x_ms)]);
    assert.equal(faces.O.running, 'true');
    assert.match(faces.O.time, /^(5:00|4:[0-5]\d)$/);

    // Three stones: the friend chooses, and only the friend sees the panel (a reload keeps it).
    await waitPanel(b);
    await b.reload();
    await b.waitForSelector('#room:not([hidden])');
    await waitPly(b, 3);
    await waitPanel(b);
    assert.equal(await a.isHidden('#swap'), true);
    assert.match(await b.textContent('#swap-title'), /You: choose a colour/);
    assert.match(await b.textContent('#room-status'), /choose a colour/);
    await a.click('#grid [data-cell="k8"]');
    await b.click('#grid [data-cell="k8"]');
    await a.waitForTimeout(400);
    assert.equal((await board(a)).ply, '3', 'no stone while a colour is to be chosen');
    await shot(b, 'desktop-room-swap2-choice');
    await b.click('#swap-place-two');
    await b.waitForSelector('#swap', { state: 'hidden', timeout: 15000 });

    // The friend places two more (white, then black); the opener chooses.
    await b.waitForFunction(() => /2 to place/.test(document.getElementById('room-status').textContent), null, {
      timeout: 15000,
    });
    await place(b, 'k8', 4);
    await place(b, 'g7', 5);
    await waitPanel(a);
    assert.equal(await b.isHidden('#swap'), true);
    assert.deepEqual(
      await a.$$eval('#swap-options button', (buttons) => buttons.map((x) => x.id)),
      ['swap-black', 'swap-white'],
    );
    await a.click('#swap-white');

    // The opener took white (O, to move): the seats' colours follow, and play goes on.
    await waitRoom(a, 'colour', 'O');
    await waitRoom(b, 'colour', 'X');
    assert.equal(await a.isHidden('#swap'), true);
    assert.match(await a.textContent('#room-seat'), /You play O/);
    assert.match(await a.textContent('#room-status'), /Your turn/);
    assert.match(await b.textContent('#room-status'), /Your friend’s turn/);
    await place(a, 'l8', 6);
    await place(b, 'f6', 7);
    assert.equal((await room(a)).status, 'playing');
    await a.click('#room-resign');
    await a.click('#resign-confirm');
    for (const p of both) await waitRoom(p, 'status', 'over');
    assert.match(await b.textContent('#room-status'), /You won: O resigned/);
    for (const p of both) await p.done();
  });

  test('a clocked swap2 room: the chooser is on its clock while it chooses, and flags', async () => {
    // Eight seconds each: time for the page to open and the opener's three stones, and for the
    // friend's running clock to be read before it flags.
    const INITIAL_MS = 8000;
    const clock = { initial_ms: INITIAL_MS, increment_ms: 1000 };
    const created = await api('rooms', { rules: 'gomoku15', colour: 'X', opening: 'swap2', clock });
    const b = await open(browser, vp, `/?room=${created.room}`);
    await waitRoom(b, 'status', 'playing');
    const replies = [];
    for (const [ply, cell] of ['h8', 'h9', 'j8'].entries()) {
      const sent = Date.now();
      const placed = await api(`rooms/${created.room}/move`, { token: created.token, ply, cell });
      assert.equal(placed.ply, ply + 1);
      replies.push({ sent, got: Date.now(), clocks: placed.clocks });
    }
    // The opener's three stones are one turn, which earns one second at its end: between the
    // second stone's reply and the third's, X's clock lost at most the time that passed between
    // sending the one and receiving the other, and gained 1000 ms. (Bounds from measured time,
    // not a window of wall-clock figures, which a loaded machine overruns.)
    const [, second, third] = replies;
    assert.equal(second.clocks.running, 'X');
    assert.equal(third.clocks.running, 'O');
    // The friend's clock started with its turn, in the third stone's request.
    assert.ok(third.clocks.o_ms <= INITIAL_MS && third.clocks.o_ms >= INITIAL_MS - (third.got - third.sent), JSON.stringify(replies));
    const passed = third.got - second.sent;
    assert.ok(third.clocks.x_ms <= second.clocks.x_ms + 1000, JSON.stringify(replies));
    assert.ok(third.clocks.x_ms >= second.clocks.x_ms + 1000 - passed, JSON.stringify(replies));
    await waitPly(b, 3);
    await waitPanel(b);
    // The page shows X's clock stopped at the server's figure, and O's running down as the
    // friend thinks: no more than the server's figure during the third stone's request (the
    // reply's, give or take the request's time), no less than the reply's less the time since
    // the request was sent.
    const faces = await clockFaces(b);
    const since = Date.now() - third.sent;
    assert.deepEqual([faces.X.running, faces.X.time], ['false', clockText(third.clocks.x_ms)]);
    assert.equal(faces.O.running, 'true');
    const most = clockText(Math.min(INITIAL_MS, third.clocks.o_ms + (third.got - third.sent)));
    const least = clockText(third.clocks.o_ms - since);
    assert.ok(seconds(faces.O.time) <= seconds(most) && seconds(faces.O.time) >= seconds(least), `O ${faces.O.time}, not within ${least}..${most}`);
    await shot(b, 'desktop-room-swap2-clock');
    await waitRoom(b, 'status', 'over');
    assert.match(await b.textContent('#room-status'), /You lost: O ran out of time/);
    assert.match(await b.textContent('#room-clocks'), /O 0:00$/);
    assert.equal(await b.isHidden('#swap'), true, 'no choice once the game is over');
    await shot(b, 'desktop-room-swap2-flag');
    await b.done();
  });

  test('the computer, invited from the page, opens a swap2 room and plays on', async () => {
    const page = await open(browser, vp, '/?r=15x15x5&o=human');
    await page.click('#btn-room');
    await page.selectOption('#room-clock', '180000+2000');
    await page.selectOption('#room-opening', 'swap2');
    // The person plays O: the computer, given X, opens.
    await page.selectOption('#room-colour', 'O');
    await page.click('#room-create');
    await waitRoom(page, 'status', 'waiting');
    await page.click('#room-bot');
    await waitPly(page, 3);
    await waitPanel(page);
    assert.match(await page.textContent('#room-status'), /choose a colour/);
    await page.click('#swap-white');
    await page.waitForSelector('#swap', { state: 'hidden', timeout: 15000 });
    await page.waitForFunction(() => /Your turn/.test(document.getElementById('room-status').textContent), null, {
      timeout: 15000,
    });
    // White's stone, on a free cell far from the centre; the computer (black) answers.
    await page.click('#grid [data-cell="a1"]');
    await waitPly(page, 5);
    assert.match(await page.textContent('#room-seat'), /You play O/);
    assert.match(await page.textContent('#room-status'), /Your turn/);
    await shot(page, 'desktop-room-swap2-bot');
    await page.done();
  });
});
