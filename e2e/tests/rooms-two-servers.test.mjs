// Two `mnk serve` processes on one PostgreSQL database, as behind a load balancer: the room is
// created on one server and joined on the other, and a whole game is played between two browser
// contexts each talking to a different server; each sees the other's moves and presence.
//
// Needs a database: MNK_TEST_POSTGRES_URL (scripts/test.sh starts a throw-away cluster and sets
// it). Without it the test is skipped, saying so.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, launch, open, serve, shot, VIEWPORTS } from '../lib.mjs';

const DATABASE = process.env.MNK_TEST_POSTGRES_URL;
const BIN = process.env.MNK_BIN;
const skip = !DATABASE
  ? 'MNK_TEST_POSTGRES_URL is not set (scripts/test.sh sets it): no PostgreSQL to share'
  : !BIN
    ? 'MNK_BIN is not set: no server binary to start'
    : false;

let browser;
const servers = [];
before(async () => {
  if (skip) return;
  browser = await launch();
  const shared = ['--database', DATABASE];
  servers.push(await serve(shared), await serve(shared));
});
after(async () => {
  for (const server of servers) server.stop();
  await browser?.close();
});

const vp = VIEWPORTS[0];
const waitRoom = (page, attr, value) =>
  page.waitForFunction(([a, v]) => document.getElementById('room').dataset[a] === v, [attr, value], { timeout: 15000 });
const waitPly = (page, ply) =>
  page.waitForFunction((n) => document.getElementById('board').dataset.ply === String(n), ply, { timeout: 15000 });
const waitHere = (page, value) =>
  page.waitForFunction((v) => document.getElementById('room-opponent').dataset.here === v, value, { timeout: 15000 });

describe('rooms on two servers sharing PostgreSQL', { skip }, () => {
  test('a whole game between browsers on different servers', async () => {
    const [one, two] = servers;
    const a = await open(browser, vp, '/?r=3x3x3&o=human', { base: one.base });
    await a.click('#btn-room');
    await a.selectOption('#room-colour', 'X');
    await a.click('#room-create');
    await waitRoom(a, 'status', 'waiting');
    const link = await a.inputValue('#room-link');
    assert.ok(link.startsWith(one.base), link);

    // The friend's link leads to the other server.
    const b = await open(browser, vp, link.slice(one.base.length), { base: two.base });
    await b.waitForSelector('#room:not([hidden])');
    for (const p of [a, b]) await waitRoom(p, 'status', 'playing');
    assert.equal(await b.$eval('#room', (el) => el.dataset.colour), 'O');
    await waitHere(a, 'true');
    await waitHere(b, 'true');

    const moves = ['a1', 'a2', 'b2', 'b3', 'c3'];
    for (const [ply, cell] of moves.entries()) {
      await (ply % 2 === 0 ? a : b).click(`#grid [data-cell="${cell}"]`);
      for (const p of [a, b]) await waitPly(p, ply + 1);
    }
    for (const p of [a, b]) await waitRoom(p, 'status', 'over');
    assert.equal((await board(b)).winner, 'X');
    assert.match(await a.textContent('#room-status'), /You won/);
    assert.match(await b.textContent('#room-status'), /You lost/);
    await shot(b, 'desktop-room-two-servers');

    // O leaves: X, on the other server, sees it.
    await b.goto('about:blank');
    await waitHere(a, 'false');
    await a.done();
    await b.done();
  });
});
