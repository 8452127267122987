// A game without a clock that the opponent left: after the room's delay (5 s on this test's own
// server, `--room-claim-secs 5`; a minute unless told) the player left may claim the win, or hand
// the empty seat to the computer, which plays on; before it the page counts down and the server
// refuses. The player who left comes back to a lost game, or as a spectator. In English, Polish
// and Russian, on a desktop and a phone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, launch, open, serve, shot, VIEWPORTS } from '../lib.mjs';

// Long enough for the page's words in three languages to be read before the delay is over, on a
// loaded machine (they took up to a second on a machine running two other test files).
const CLAIM_SECS = 5;
let browser;
let server;
before(async () => {
  browser = await launch();
  server = await serve(['--database', 'memory', '--room-claim-secs', String(CLAIM_SECS)]);
});
after(async () => {
  server?.stop();
  await browser?.close();
});

const [desktop, phone] = VIEWPORTS;
const panel = (page) => page.$eval('#room', (el) => ({ ...el.dataset }));
const waitRoom = (page, attr, value) =>
  page.waitForFunction(([a, v]) => document.getElementById('room').dataset[a] === v, [attr, value], { timeout: 15000 });
const waitPly = (page, ply) =>
  page.waitForFunction((n) => document.getElementById('board').dataset.ply === String(n), ply, { timeout: 15000 });
const waitClaim = (page, ready) =>
  page.waitForFunction((r) => document.getElementById('room-claim').dataset.ready === r, ready, { timeout: 15000 });
const language = async (page, code) => {
  await page.selectOption('#sel-lang', code);
  await page.waitForFunction((c) => document.documentElement.lang === c, code);
};

/** A room made on this test's server by `a` (playing X) and joined by a second device: the
 * second page and the room's link. */
async function twoPlayers(a, vp) {
  const tap = (sel) => (vp.hasTouch ? a.tap(sel) : a.click(sel));
  await tap('#btn-room');
  await a.selectOption('#room-colour', 'X');
  await tap('#room-create');
  await waitRoom(a, 'status', 'waiting');
  const link = await a.inputValue('#room-link');
  const b = await open(browser, vp, link.slice(server.base.length), { base: server.base, locale: 'en-US' });
  await b.waitForSelector('#room:not([hidden])');
  await waitRoom(a, 'status', 'playing');
  await a.waitForFunction(() => document.getElementById('room-opponent').dataset.here === 'true', null, { timeout: 15000 });
  return { b, link, room: /room=([2-9a-z]{14})$/.exec(link)[1] };
}

describe('a game the opponent left', () => {
  test('the win is claimed once the delay is over, and the one who left has lost (desktop)', async () => {
    const a = await open(browser, desktop, '/?r=gomoku15&o=human', { base: server.base });
    const { b, link, room } = await twoPlayers(a, desktop);
    assert.equal(await a.isVisible('#room-claim'), false, 'nothing to claim while the opponent is here');
    await a.click('#grid [data-cell="h8"]');
    await waitPly(b, 1);

    const token = await a.evaluate((id) => JSON.parse(localStorage.getItem('mnk.roomTokens'))[id], room);

    // O leaves the page: X is told when the game may be claimed, and may not yet.
    await b.goto('about:blank');
    await waitClaim(a, 'false');
    // The server says the same: too early (asked at once, before the checks of the page's words,
    // which take time on a loaded machine).
    const early = await api(`rooms/${room}/claim`, { token }, server.base);
    assert.equal(early.error && early.error.code, 'not_abandoned', JSON.stringify(early));
    // With the words the page says it in: the reason and the seconds.
    assert.match(early.error.reason, /^(connected|not_yet)$/, JSON.stringify(early));
    assert.equal(typeof early.error.params.secs, 'number', JSON.stringify(early));
    assert.match(await a.textContent('#room-claim-text'), /^If they do not come back, you may claim the game in [1-5] s\.$/);
    assert.equal(await a.isVisible('#room-claim-win'), false);
    const waiting = {
      pl: /^Jeśli nie wróci, za [1-5] s możesz zgłosić partię jako wygraną\.$/,
      ru: /^Если соперник не вернётся, через [1-5] с вы сможете засчитать себе победу\.$/,
    };
    for (const [code, text] of Object.entries(waiting)) {
      await language(a, code);
      assert.match(await a.textContent('#room-claim-text'), text, code);
    }

    await waitClaim(a, 'true');
    const ready = {
      ru: ['Засчитать победу', 'Пусть за него играет компьютер', /^Соперника нет уже \d+ с: засчитайте себе победу или пусть за него играет компьютер\.$/],
      pl: ['Zgłoś wygraną', 'Niech gra za niego komputer', /^Przeciwnika nie ma od \d+ s: zgłoś wygraną albo niech gra za niego komputer\.$/],
      en: ['Claim the win', 'Let the computer play for them', /^Your opponent has been away for \d+ s: claim the win, or let the computer play for them\.$/],
    };
    for (const [code, [win, bot, text]] of Object.entries(ready)) {
      await language(a, code);
      assert.equal(await a.textContent('#room-claim-win'), win, code);
      assert.equal(await a.textContent('#room-claim-bot'), bot, code);
      assert.match(await a.textContent('#room-claim-text'), text, code);
    }
    await shot(a, 'desktop-room-claim');
    await a.click('#room-claim-win');
    await waitRoom(a, 'status', 'over');
    assert.equal(await a.textContent('#room-status'), 'You won: O left the game');
    assert.equal(await a.textContent('#status'), 'X won: O left the game', 'the line above the board');
    assert.equal(await a.isVisible('#room-claim'), false);
    assert.deepEqual((await api(`rooms/${room}`, undefined, server.base)).result, { winner: 'X', reason: 'abandoned' });

    // O comes back to the game it lost.
    await b.goto(link);
    await b.waitForSelector('#room:not([hidden])');
    await waitRoom(b, 'status', 'over');
    assert.equal(await b.textContent('#room-status'), 'You lost: O left the game');
    await a.done();
    await b.done();
  });

  test('the seat left goes to the computer, which plays on; the one who left watches (phone)', async () => {
    const a = await open(browser, phone, '/?r=9x9x5&o=human', { base: server.base, locale: 'ru-RU' });
    const { b, link } = await twoPlayers(a, phone);
    await b.goto('about:blank');
    await waitClaim(a, 'true');
    // In sight on the phone: the claim sits in the room's panel, under the board.
    await a.$eval('#room-claim', (el) => el.scrollIntoView({ block: 'center' }));
    const box = await a.$eval('#room-claim', (el) => el.getBoundingClientRect().toJSON());
    assert.ok(box.left >= 0 && box.right <= 375 && box.top >= 0 && box.bottom <= 667, JSON.stringify(box));
    await shot(a, 'phone-room-claim');
    await a.tap('#room-claim-bot');
    await a.waitForFunction(() => document.getElementById('room-opponent').hidden, null, { timeout: 15000 });
    assert.equal((await panel(a)).status, 'playing');
    assert.equal(await a.isVisible('#room-claim'), false);
    // The computer answers X's move.
    await a.tap('#grid [data-cell="e5"]');
    await waitPly(a, 2);
    assert.equal(await a.textContent('#room-status'), 'Ваш ход');
    // The one who left comes back with a token that holds nothing now: it watches.
    await b.goto(link);
    await b.waitForSelector('#room:not([hidden])');
    await waitPly(b, 2);
    assert.equal((await panel(b)).seat, '');
    assert.match(await b.textContent('#room-seat'), /You are watching/);
    await a.done();
    await b.done();
  });
});
