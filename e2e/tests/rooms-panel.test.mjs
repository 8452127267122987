// The room's panel and clocks: the room's id in sight, the link offered to the friend only while
// the seat waits for them (spectators are told they watch), resigning asked twice, the running
// clock and a clock low on time seen at a glance above the board, a move sent while the
// connection is down said not to be delivered (never lost silently), and a room link that leads
// nowhere said above the board. In English, Polish and Russian, on a desktop and a phone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, board, clockFaces, launch, open, shot, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const [desktop, phone] = VIEWPORTS;
const panel = (page) => page.$eval('#room', (el) => ({ ...el.dataset }));
const waitRoom = (page, attr, value) =>
  page.waitForFunction(([a, v]) => document.getElementById('room').dataset[a] === v, [attr, value], { timeout: 15000 });
const waitPly = (page, ply) =>
  page.waitForFunction((n) => document.getElementById('board').dataset.ply === String(n), ply, { timeout: 15000 });
const language = async (page, code) => {
  await page.selectOption('#sel-lang', code);
  await page.waitForFunction((c) => document.documentElement.lang === c, code);
};

/** A room made over the API whose creator plays O (`rules`, `clock`): its id and O's token. */
async function roomForX(rules = 'gomoku15', clock = undefined) {
  const created = await api('rooms', { rules, colour: 'O', clock });
  assert.ok(created.room, JSON.stringify(created));
  return { room: created.room, o: created.token };
}

/** The page in the room's free seat (X), or a spectator's once both are taken. */
async function enter(room, vp, options = {}) {
  const page = await open(browser, vp, `/?room=${room}`, options);
  await page.waitForSelector('#room:not([hidden])');
  return page;
}

describe('the room panel', () => {
  test('the id in sight, the link for the friend while the seat waits, for spectators to watch (desktop)', async () => {
    const a = await open(browser, desktop, '/?r=gomoku15&o=human');
    await a.click('#btn-room');
    await a.click('#room-create');
    await waitRoom(a, 'status', 'waiting');
    const link = await a.inputValue('#room-link');
    const id = /room=([2-9a-z]{14})$/.exec(link)[1];
    assert.equal(await a.textContent('#room-id'), id);
    assert.equal(await a.isVisible('#room-id'), true);
    assert.equal(await a.textContent('#room-link-label'), 'Send this link to your friend');

    const b = await enter(id, desktop);
    await waitRoom(a, 'status', 'playing');
    // Both seats taken: the link is for watching now, for the players as for the spectators.
    for (const p of [a, b]) assert.equal(await p.textContent('#room-link-label'), 'Link to this room: whoever opens it watches the game');
    const watcher = await enter(id, desktop);
    assert.equal((await panel(watcher)).seat, '');
    assert.equal(await watcher.textContent('#room-id'), id);
    const labels = {
      en: 'Link to this room: whoever opens it watches the game',
      pl: 'Link do tego pokoju: kto go otworzy, ogląda partię',
      ru: 'Ссылка на эту комнату: кто её откроет, смотрит партию',
    };
    for (const [code, label] of Object.entries(labels)) {
      await language(watcher, code);
      assert.equal(await watcher.textContent('#room-link-label'), label, code);
      assert.doesNotMatch(await watcher.textContent('#room'), /friend|znajomemu|другу/i, 'a spectator is not asked to send the link');
    }
    await shot(watcher, 'desktop-room-spectator');
    for (const p of [a, b, watcher]) await p.done();
  });

  test('resigning asks first: kept playing, then resigned, in three languages (desktop)', async () => {
    const { room } = await roomForX();
    const page = await enter(room, desktop);
    await waitRoom(page, 'status', 'playing');
    const asked = {
      en: ['Resign this game?', 'Keep playing', 'Resign'],
      pl: ['Poddać tę partię?', 'Graj dalej', 'Poddaj się'],
      ru: ['Сдать эту партию?', 'Играть дальше', 'Сдаться'],
    };
    for (const [code, [title, keep, resign]] of Object.entries(asked)) {
      await language(page, code);
      await page.click('#room-resign');
      await page.waitForSelector('#dlg-resign[open]');
      assert.equal(await page.textContent('#dlg-resign-title'), title, code);
      assert.equal(await page.textContent('#resign-cancel'), keep, code);
      assert.equal(await page.textContent('#resign-confirm'), resign, code);
      if (code === 'en') await shot(page, 'desktop-room-resign-asked');
      await page.click('#resign-cancel');
      assert.equal(await page.isVisible('#dlg-resign'), false);
      await page.waitForTimeout(300);
      assert.equal((await panel(page)).status, 'playing', 'kept playing');
    }
    // Escape closes the question too, and nothing happens.
    await page.click('#room-resign');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#dlg-resign'), false);
    assert.equal((await api(`rooms/${room}`)).status, 'playing');
    await page.click('#room-resign');
    await page.click('#resign-confirm');
    await waitRoom(page, 'status', 'over');
    assert.equal(await page.textContent('#room-status'), 'Вы проиграли: X сдался');
    assert.deepEqual((await api(`rooms/${room}`)).result, { winner: 'O', reason: 'resigned' });
    await page.done();
  });

  test('on a phone: the link field ends with the room id, resigning is asked for by tap', async () => {
    const { room } = await roomForX();
    const page = await enter(room, phone);
    await waitRoom(page, 'status', 'playing');
    const field = await page.$eval('#room-link', (el) => ({ value: el.value, left: el.scrollLeft, width: el.clientWidth, full: el.scrollWidth }));
    assert.ok(field.value.endsWith(`?room=${room}`), field.value);
    assert.ok(field.full > field.width, 'the link is wider than its field on a phone');
    assert.ok(field.left + field.width >= field.full - 1, `the field shows its end, the id: ${JSON.stringify(field)}`);
    const idBox = await page.$eval('#room-id', (el) => el.getBoundingClientRect().toJSON());
    assert.ok(idBox.left >= 0 && idBox.right <= 375, JSON.stringify(idBox));
    await page.$eval('#room', (el) => el.scrollIntoView());
    await shot(page, 'phone-room-link');
    await page.tap('#room-resign');
    await page.waitForSelector('#dlg-resign[open]');
    const dialog = await page.$eval('#dlg-resign', (el) => el.getBoundingClientRect().toJSON());
    assert.ok(dialog.left >= 0 && dialog.right <= 375 && dialog.bottom <= 667, JSON.stringify(dialog));
    await page.tap('#resign-cancel');
    await page.tap('#room-resign');
    await page.tap('#resign-confirm');
    await waitRoom(page, 'status', 'over');
    assert.equal(await page.textContent('#room-status'), 'You lost: X resigned');
    await page.done();
  });

  for (const vp of [desktop, phone]) {
    test(`the running clock and low time at a glance, above the board (${vp.name})`, async () => {
      // 16 s each: a clock is low below 10 s. X's runs from when the page joins, and must not be
      // low before its move: 6 s for the page to open and move, on a loaded machine too.
      const { room, o } = await roomForX('gomoku15', { initial_ms: 16000, increment_ms: 0 });
      const page = await enter(room, vp);
      await waitRoom(page, 'status', 'playing');
      const faces = () => clockFaces(page);
      let now = await faces();
      assert.equal(now.X.running, 'true', "X's clock runs first");
      assert.equal(now.O.running, 'false');
      assert.equal(now.X.low, 'false', now.X.label);
      const boxes = await page.evaluate(() => ['#room-clocks', '#board'].map((s) => document.querySelector(s).getBoundingClientRect().toJSON()));
      assert.ok(boxes[0].bottom <= boxes[1].top, 'above the board');
      assert.ok(boxes[0].top >= 0 && boxes[0].bottom <= vp.viewport.height && boxes[0].right <= vp.viewport.width, JSON.stringify(boxes[0]));
      await page.click('#grid [data-cell="h8"]');
      await waitPly(page, 1);
      now = await faces();
      assert.deepEqual([now.X.running, now.O.running], ['false', 'true'], 'the turn passed: O runs');
      await shot(page, `${vp.name}-room-clock-running`);
      // O thinks: below 10 s its clock turns to low time.
      await page.waitForFunction(() => document.querySelector('#room-clocks .clock[data-side="O"]').dataset.low === 'true', null, { timeout: 15000 });
      now = await faces();
      assert.match(now.O.label, /^O: 0:(10|0\d), running$/);
      assert.equal(now.X.low, 'false', now.X.label);
      await shot(page, `${vp.name}-room-clock-low`);
      if (vp === desktop) {
        await language(page, 'pl');
        await page.waitForFunction(() => /biegnie$/.test(document.querySelector('#room-clocks .clock[data-side="O"]').getAttribute('aria-label')));
        await language(page, 'ru');
        await page.waitForFunction(() => /идут$/.test(document.querySelector('#room-clocks .clock[data-side="O"]').getAttribute('aria-label')));
      }
      const moved = await api(`rooms/${room}/move`, { token: o, ply: 1, cell: 'h9' });
      assert.equal(moved.ply, 2, JSON.stringify(moved));
      await waitPly(page, 2);
      now = await faces();
      assert.deepEqual([now.X.running, now.O.running], ['true', 'false']);
      await page.done();
    });
  }

  test('a move no answer follows is said not to be delivered, and can be played again (desktop)', async () => {
    const { room } = await roomForX();
    // The socket goes through a relay that, while `cut`, drops the moves the page sends: as a
    // connection that died without closing does.
    let cut = false;
    const setup = (page) =>
      page.routeWebSocket(/\/api\/rooms\/[^/]+\/socket$/, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((message) => {
          if (cut && JSON.parse(message).type === 'move') return;
          server.send(message);
        });
      });
    const page = await enter(room, desktop, { setup });
    await waitRoom(page, 'status', 'playing');
    // The join's reply shows the game before the socket opens; a move sent before it does goes
    // as a request, which the relay does not see.
    await waitRoom(page, 'connected', 'true');
    cut = true;
    await page.click('#grid [data-cell="h8"]');
    // Said after 5 s without an answer (web/room.js's DELIVERY_MS): 20 s leaves a loaded
    // machine its margin.
    await page.waitForFunction(() => document.getElementById('room').dataset.undelivered === 'h8', null, { timeout: 20000 });
    cut = false;
    assert.equal(await page.textContent('#room-notice'), 'Your move h8 was not delivered: the connection is down. Play it again once it is back.');
    assert.equal((await board(page)).ply, '0');
    assert.equal((await api(`rooms/${room}`)).ply, 0, 'the server never had it');
    // The page took the silent socket for dead and connected again; the notice stays.
    await waitRoom(page, 'connected', 'true');
    await page.waitForTimeout(300);
    assert.equal((await panel(page)).undelivered, 'h8');
    await shot(page, 'desktop-room-move-not-delivered');
    const said = {
      pl: 'Twój ruch h8 nie został dostarczony: nie ma połączenia. Zagraj go ponownie, gdy wróci.',
      ru: 'Ваш ход h8 не доставлен: нет соединения. Сделайте его снова, когда связь вернётся.',
    };
    for (const [code, text] of Object.entries(said)) {
      await language(page, code);
      assert.equal(await page.textContent('#room-notice'), text, code);
    }
    await language(page, 'en');
    await page.click('#grid [data-cell="h8"]');
    await waitPly(page, 1);
    assert.equal((await panel(page)).undelivered, '');
    assert.equal(await page.textContent('#room-notice'), '');
    await page.done();
  });

  test('a move tapped while the connection is down is said not to be delivered (phone)', async () => {
    const { room } = await roomForX();
    let down = false;
    let current = null;
    const setup = async (page) => {
      await page.routeWebSocket(/\/api\/rooms\/[^/]+\/socket$/, (ws) => {
        if (down) {
          ws.close();
          return;
        }
        ws.connectToServer();
        current = ws;
      });
      await page.route('**/api/rooms/*/move', (route) => (down ? route.abort('internetdisconnected') : route.continue()));
    };
    const page = await enter(room, phone, { setup, locale: 'pl-PL', routed: true });
    await waitRoom(page, 'status', 'playing');
    await waitRoom(page, 'connected', 'true');
    down = true;
    await current.close();
    await waitRoom(page, 'connected', 'false');
    assert.equal(await page.isVisible('#room-connection'), true);
    await page.tap('#grid [data-cell="h8"]');
    await page.waitForFunction(() => document.getElementById('room').dataset.undelivered === 'h8', null, { timeout: 10000 });
    assert.equal(await page.textContent('#room-notice'), 'Twój ruch h8 nie został dostarczony: nie ma połączenia. Zagraj go ponownie, gdy wróci.');
    assert.equal((await board(page)).ply, '0');
    assert.equal(await page.isVisible('#error'), false, 'said in the room, not as a request error below');
    await page.$eval('#room', (el) => el.scrollIntoView());
    await shot(page, 'phone-room-move-not-delivered');
    down = false;
    await waitRoom(page, 'connected', 'true');
    await page.tap('#grid [data-cell="h8"]');
    await waitPly(page, 1);
    assert.equal((await panel(page)).undelivered, '');
    await page.done();
  });

  for (const vp of [phone, desktop]) {
    test(`a room link that leads nowhere says so above the board, in each language (${vp.name})`, async () => {
      const said = {
        'en-US': 'There is no room 23456789abcdef: check the link.',
        'pl-PL': 'Nie ma pokoju 23456789abcdef: sprawdź link.',
        'ru-RU': 'Комнаты 23456789abcdef нет: проверьте ссылку.',
      };
      for (const [locale, text] of Object.entries(said)) {
        const page = await open(browser, vp, '/?room=23456789abcdef', { locale });
        await page.waitForSelector('#link-error:not([hidden])');
        assert.equal(await page.textContent('#link-error-text'), text, locale);
        assert.equal(await page.getAttribute('#link-error', 'data-code'), 'unknown_room');
        assert.equal(await page.isVisible('#room'), false);
        assert.equal(await page.isVisible('#error'), false, 'not in the panel below the board');
        const [alert, boardTop] = await page.evaluate(() => [
          document.getElementById('link-error').getBoundingClientRect().toJSON(),
          document.getElementById('board').getBoundingClientRect().top,
        ]);
        assert.ok(alert.top >= 0 && alert.bottom <= vp.viewport.height && alert.right <= vp.viewport.width && alert.bottom <= boardTop, JSON.stringify(alert));
        if (locale === 'en-US') await shot(page, `${vp.name}-room-link-wrong`);
        await page.done(true);
      }
    });
  }
});
