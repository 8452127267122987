// A finished game's permanent page (`/g/ROOM-N`): it says who won and how (five in a row, a
// resignation, time, an agreed draw), shows the clocks as they stood at the end, and is
// read-only: a click or a shortcut plays nothing, the address stays the game's, the moves can be
// stepped through, and "Study this game" makes it an ordinary game. In English, Polish and
// Russian, on a desktop and a phone; a link to no game says so above the board.
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

const [desktop, phone] = VIEWPORTS;
const waitPly = (page, ply) =>
  page.waitForFunction((n) => document.getElementById('board').dataset.ply === String(n), ply, { timeout: 15000 });

/**
 * A room of `rules` (the creator X, a second player O) where `moves` are played and `end` then
 * ends the game: `resign` (X resigns), `draw` (offered and accepted) or nothing (the moves end
 * it). Answers the room's id.
 */
async function finishedGame({ rules, clock, moves, end }) {
  const created = await api('rooms', { rules, colour: 'X', clock });
  assert.ok(created.room, JSON.stringify(created));
  const joined = await api(`rooms/${created.room}/join`, {});
  const tokens = [created.token, joined.token];
  for (const [ply, cell] of moves.entries()) {
    const moved = await api(`rooms/${created.room}/move`, { token: tokens[ply % 2], ply, cell });
    assert.equal(moved.ply, ply + 1, JSON.stringify(moved));
  }
  if (end === 'resign') await api(`rooms/${created.room}/resign`, { token: tokens[0] });
  if (end === 'draw') {
    await api(`rooms/${created.room}/draw`, { token: tokens[0] });
    await api(`rooms/${created.room}/draw`, { token: tokens[1] });
  }
  const state = await api(`rooms/${created.room}`);
  assert.equal(state.status, 'over', JSON.stringify(state));
  return created.room;
}

/** Opens game 1 of `room` at its permanent address, and waits for its panel. */
async function record(room, vp, locale = 'en-US') {
  const page = await open(browser, vp, `/g/${room}-1`, { locale });
  await page.waitForSelector('#record:not([hidden])');
  return page;
}

describe('a finished game at its permanent address', () => {
  test('a resignation on a clock: who won and how, the clocks stopped, nothing playable (desktop)', async () => {
    const room = await finishedGame({ rules: 'gomoku15', clock: { initial_ms: 300000, increment_ms: 3000 }, moves: ['h8', 'h9', 'j10'], end: 'resign' });
    const page = await record(room, desktop);
    assert.match(page.url(), new RegExp(`\\?game=${room}-1$`));
    await waitPly(page, 3);
    assert.equal(await page.textContent('#record-result'), 'O won: X resigned');
    assert.equal(await page.textContent('#banner-text'), 'O won: X resigned', 'the line above the board');
    assert.equal(await page.isVisible('#banner'), true);
    assert.equal(await page.isVisible('#banner-new'), false);
    assert.equal(await page.textContent('#record-title'), `Game 1 of room ${room}`);
    assert.match(await page.textContent('#game-title'), /a finished game$/);
    // The clocks as they stood at the end: 5 min, 3 s added a move (X two, O one); none running.
    assert.equal(await page.isVisible('#room-clocks'), true);
    // The page shows the server's figures; those hold the increments, less what the moves took.
    const { clocks } = await api(`rooms/${room}`);
    assert.ok(clocks.x_ms > 300000 && clocks.x_ms <= 306000, JSON.stringify(clocks));
    assert.ok(clocks.o_ms > 300000 && clocks.o_ms <= 303000, JSON.stringify(clocks));
    assert.equal(await page.textContent('#room-clocks'), `X ${clockText(clocks.x_ms)} · O ${clockText(clocks.o_ms)}`);
    const faces = Object.values(await clockFaces(page));
    assert.equal(faces.length, 2);
    for (const face of faces) assert.deepEqual([face.running, face.low], ['false', 'false'], JSON.stringify(face));
    await shot(page, 'desktop-record-resigned');

    // Read-only: a click plays nothing and says why; the tools that play are put away.
    await page.click('#grid [data-cell="a1"]');
    await page.waitForTimeout(300);
    assert.equal((await board(page)).ply, '3');
    assert.match(await page.textContent('#record-note'), /This game is over and its record cannot be changed/);
    for (const id of ['#btn-new', '#btn-undo', '#btn-hint', '#btn-auto', '#room']) assert.equal(await page.isVisible(id), false, id);
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    for (const key of ['u', 'd', 'n', 'h']) await page.keyboard.press(key);
    await page.waitForTimeout(300);
    assert.equal((await board(page)).ply, '3');
    assert.equal(await page.isVisible('#dlg-new'), false);
    // Its moves are stepped through, with the result still said; the address stays the game's.
    await page.keyboard.press('ArrowLeft');
    await waitPly(page, 2);
    await page.click('#nav-start');
    await waitPly(page, 0);
    assert.equal(await page.textContent('#banner-text'), 'O won: X resigned');
    await page.keyboard.press('End');
    await waitPly(page, 3);
    assert.match(page.url(), new RegExp(`\\?game=${room}-1$`));

    // "Study this game": an ordinary game of two people, where moves can be tried.
    await page.click('#record-study');
    assert.equal(await page.isVisible('#record'), false);
    assert.equal(await page.isVisible('#room-clocks'), false);
    assert.equal(await page.isVisible('#btn-undo'), true);
    await page.click('#grid [data-cell="a1"]');
    await waitPly(page, 4);
    assert.match(page.url(), /\?r=.*&m=h8\.h9\.j10\.a1/);
    await page.done();
  });

  test('five in a row, a loss on time and an agreed draw, each said (desktop)', async () => {
    const five = await finishedGame({ rules: 'gomoku15', moves: ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8'] });
    const won = await record(five, desktop);
    await waitPly(won, 9);
    assert.equal(await won.textContent('#banner-text'), 'X won: 5 in a row');
    assert.equal((await board(won)).line, 'h8 i8 j8 k8 l8');
    assert.equal(await won.isVisible('#room-clocks'), false, 'no clock, no clocks');
    await shot(won, 'desktop-record-five');
    await won.done();

    // O does not move after X's first: its three seconds run out.
    const created = await api('rooms', { rules: 'gomoku15', colour: 'X', clock: { initial_ms: 3000, increment_ms: 0 } });
    await api(`rooms/${created.room}/join`, {});
    const moved = await api(`rooms/${created.room}/move`, { token: created.token, ply: 0, cell: 'h8' });
    assert.equal(moved.ply, 1, JSON.stringify(moved));
    // Until the server says the game is over (not a guess of when that is).
    let state;
    for (const deadline = Date.now() + 15000; ; ) {
      state = await api(`rooms/${created.room}`);
      if (state.status === 'over' || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(state.status, 'over', JSON.stringify(state));
    assert.deepEqual(state.result, { winner: 'X', reason: 'time' }, JSON.stringify(state));
    // The clocks as the server kept them: X's what its move left, O's none.
    assert.ok(state.clocks.x_ms > 0 && state.clocks.x_ms <= 3000, JSON.stringify(state.clocks));
    assert.equal(state.clocks.o_ms, 0, JSON.stringify(state.clocks));
    const flagged = await record(created.room, desktop);
    assert.equal(await flagged.textContent('#record-result'), 'X won: O ran out of time');
    assert.equal(await flagged.textContent('#room-clocks'), `X ${clockText(state.clocks.x_ms)} · O 0:00`);
    const { O } = await clockFaces(flagged);
    assert.deepEqual([O.running, O.low], ['false', 'true'], 'the flag shows');
    await shot(flagged, 'desktop-record-time');
    await flagged.done();

    const drawn = await finishedGame({ rules: 'gomoku15', moves: ['h8', 'h9'], end: 'draw' });
    const agreed = await record(drawn, desktop);
    assert.equal(await agreed.textContent('#record-result'), 'Draw: agreed');
    assert.equal(await agreed.textContent('#banner-text'), 'Draw: agreed');
    await agreed.done();
  });

  test('in Polish and Russian, on a phone: the result, the clocks and the board fit the screen', async () => {
    const room = await finishedGame({ rules: 'gomoku15', clock: { initial_ms: 180000, increment_ms: 2000 }, moves: ['h8', 'h9'], end: 'resign' });
    const said = {
      'pl-PL': { result: 'Wygrywa O: X się poddaje', title: `Partia 1 z pokoju ${room}`, study: 'Analizuj tę partię' },
      'ru-RU': { result: 'O выиграл: X сдался', title: `Партия 1 из комнаты ${room}`, study: 'Разобрать эту партию' },
      'en-US': { result: 'O won: X resigned', title: `Game 1 of room ${room}`, study: 'Study this game' },
    };
    for (const [locale, want] of Object.entries(said)) {
      const page = await record(room, phone, locale);
      await waitPly(page, 2);
      assert.equal(await page.textContent('#record-result'), want.result, locale);
      assert.equal(await page.textContent('#banner-text'), want.result, locale);
      assert.equal(await page.textContent('#record-title'), want.title, locale);
      assert.equal(await page.textContent('#record-study'), want.study, locale);
      // On the phone's screen without scrolling: the result above the board, the clocks, the board.
      const boxes = await page.evaluate(() =>
        ['#banner', '#room-clocks', '#board'].map((sel) => {
          const r = document.querySelector(sel).getBoundingClientRect();
          return { sel, top: r.top, bottom: r.bottom, left: r.left, right: r.right };
        }),
      );
      for (const box of boxes) assert.ok(box.top >= 0 && box.left >= 0 && box.right <= 375.5, JSON.stringify(box));
      assert.ok(boxes[1].bottom <= boxes[2].top, 'the clocks above the board');
      assert.ok(boxes[0].bottom <= 667 && boxes[1].bottom <= 667, JSON.stringify(boxes));
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
      if (locale === 'en-US') await shot(page, 'phone-record-resigned');
      await page.tap('#grid [data-cell="a1"]');
      await page.waitForTimeout(200);
      assert.equal((await board(page)).ply, '2', 'a tap plays nothing');
      await page.done();
    }
  });

  test('a link to no game says so above the board, in each language (phone)', async () => {
    // A room id as the server makes them (14 of its 32 characters), but of no room.
    const said = {
      'en-US': 'There is no game 23456789abcdef-1: check the link.',
      'pl-PL': 'Nie ma partii 23456789abcdef-1: sprawdź link.',
      'ru-RU': 'Партии 23456789abcdef-1 нет: проверьте ссылку.',
    };
    for (const [locale, text] of Object.entries(said)) {
      const page = await open(browser, phone, '/g/23456789abcdef-1', { locale });
      await page.waitForSelector('#link-error:not([hidden])');
      assert.equal(await page.textContent('#link-error-text'), text);
      assert.equal(await page.getAttribute('#link-error', 'data-code'), 'unknown_room');
      assert.equal(await page.isVisible('#record'), false);
      assert.equal(await page.isVisible('#error'), false, 'not in the panel below the board');
      const [alert, boardTop] = await page.evaluate(() => [
        document.getElementById('link-error').getBoundingClientRect().toJSON(),
        document.getElementById('board').getBoundingClientRect().top,
      ]);
      assert.ok(alert.top >= 0 && alert.bottom <= 667 && alert.bottom <= boardTop, JSON.stringify(alert));
      await page.done(true);
    }
    // A mistyped address says the same, not JSON.
    const typo = await open(browser, phone, '/g/abc-x1');
    await typo.waitForSelector('#link-error:not([hidden])');
    assert.equal(await typo.textContent('#link-error-text'), 'There is no game abc-x1: check the link.');
    await typo.done(true);
    // A game still being played has no record yet.
    const created = await api('rooms', { rules: 'gomoku15', colour: 'X' });
    const page = await open(browser, phone, `/g/${created.room}-1`);
    await page.waitForSelector('#link-error:not([hidden])');
    assert.equal(await page.textContent('#link-error-text'), `Game ${created.room}-1 is still being played: watch it in its room.`);
    await page.click('#link-error-dismiss');
    assert.equal(await page.isVisible('#link-error'), false);
    await page.done(true);
  });
});
