// Failures are shown, never hung on: a 500, a dropped connection, a slow answer (the thinking
// indicator), the dialog's own validation and the server's refusal of impossible rules. The page
// thinks on the server here (the player's setting), since these are the server's failures. Retry
// retries the failed move even when the heat map failed after it; a refusal the page handles
// (an illegal link, a board too large to solve) leaves no error in the browser's console.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, idle, LANGUAGES, launch, open, say, shot, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** `promise`, or a failure naming `what` after `ms`. */
function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

for (const vp of VIEWPORTS) {
  describe(`errors (${vp.name})`, () => {
    test('a 500 from /api/move shows an error with Retry; Retry recovers', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=level2&s=X', { thinking: 'server', routed: true });
      await page.route('**/api/move', (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"boom"}}' }),
      );
      await page.click('#grid [data-cell="h8"]');
      await page.waitForSelector('#error:not([hidden])');
      await idle(page);
      assert.match(await page.textContent('#error-text'), /HTTP 500/);
      assert.equal(await page.isVisible('#btn-retry'), true);
      assert.equal((await board(page)).ply, '1');
      await shot(page, `${vp.name}-light-error`);
      await page.unroute('**/api/move');
      await page.click('#btn-retry');
      await page.waitForSelector('#board[data-busy="false"][data-ply="2"]');
      assert.equal(await page.isVisible('#error'), false);
      await page.done(true);
    });

    for (const { lang, locale, dict } of LANGUAGES) {
      test(`Retry after a failed move retries the move, though the heat map failed after it (${lang})`, async () => {
        const page = await open(browser, vp, '/?r=15x15x5&o=level1&s=X', { thinking: 'server', routed: true, locale });
        await page.keyboard.press('w');
        await page.waitForFunction(() => Number(document.getElementById('board').dataset.heatCells) > 0, null, { timeout: 30000 });
        const failed = [];
        const fail = (what) => (route) => {
          failed.push(what);
          return route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"boom"}}' });
        };
        await page.route('**/api/move', fail('move'));
        // The heat map of the new position fails too, after the move did.
        let weightsFailed;
        const weightsDone = new Promise((resolve) => (weightsFailed = resolve));
        await page.route('**/api/weights', async (route) => {
          await new Promise((r) => setTimeout(r, 800));
          await fail('weights')(route);
          weightsFailed();
        });
        await page.click('#grid [data-cell="h8"]');
        await page.waitForSelector('#error:not([hidden])');
        await page.waitForFunction(() => document.getElementById('board').dataset.busy === 'false');
        // Until the heat map's failure has been answered (not a guess of how long that takes).
        await within(weightsDone, 15000, 'the heat map request');
        assert.deepEqual(failed, ['move', 'weights']);
        assert.equal(await page.textContent('#error-text'), say(dict, 'errServer', { status: 500 }));
        assert.equal(await page.isVisible('#btn-retry'), true);
        assert.equal((await board(page)).ply, '1');
        await page.unroute('**/api/move');
        await page.unroute('**/api/weights');
        await page.click('#btn-retry');
        // The computer's answer comes, and the heat map of the new position.
        await page.waitForSelector('#board[data-busy="false"][data-ply="2"]', { timeout: 30000 });
        await page.waitForFunction(() => Number(document.getElementById('board').dataset.heatCells) > 0, null, { timeout: 30000 });
        assert.equal(await page.isVisible('#error'), false);
        await page.done(true);
      });

      test(`a refusal the page handles leaves no error in the console (${lang})`, async () => {
        // The server refuses the link's second move (422): the page says so.
        const page = await open(browser, vp, '/?r=3x3x3&m=a1.a1&o=human', { thinking: 'server', locale });
        await page.waitForSelector('#link-error:not([hidden])');
        // In the player's language, from the refusal's reason and values (the server's message
        // is English).
        const occupied = say(dict, 'refusal_illegal_move_occupied', { move: 2, cell: 'a1' });
        assert.equal(await page.textContent('#link-error-text'), say(dict, 'errLinkRefused', { message: occupied }));
        // 15×15 is too large to solve (422): exact mode says so in words.
        await page.goto(page.url().replace(/\?.*$/, '?r=15x15x5&m=h8&o=human'));
        await idle(page);
        await page.keyboard.press('e');
        await page.waitForFunction(() => document.getElementById('legend').dataset.state === 'too_large', null, { timeout: 30000 });
        assert.equal(await page.textContent('#legend'), say(dict, 'exactTooLarge'));
        assert.deepEqual(page.consoleErrors, []);
        await page.done();
      });
    }

    test('a dropped connection on /api/state is shown; the move is not kept', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&o=human', { thinking: 'server', routed: true });
      await page.route('**/api/state', (route) => route.abort('connectionreset'));
      await page.click('#grid [data-cell="b2"]');
      await page.waitForSelector('#error:not([hidden])');
      await idle(page);
      assert.match(await page.textContent('#error-text'), /Cannot reach/);
      assert.equal((await board(page)).ply, '0');
      await page.unroute('**/api/state');
      await page.click('#btn-retry');
      await page.waitForSelector('#board[data-busy="false"][data-ply="1"]');
      await page.done(true);
    });

    test('a slow answer shows the thinking indicator, then the move', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&o=perfect&s=X', { thinking: 'server', routed: true });
      // The answer is held until the test has seen the indicator (15 s at most), however slowly
      // the page shows it.
      let seen;
      const shown = new Promise((resolve) => (seen = resolve));
      await page.route('**/api/move', async (route) => {
        await within(shown, 15000, 'the thinking indicator').catch(() => {});
        await route.continue();
      });
      await page.click('#grid [data-cell="b2"]');
      await page.waitForSelector('#thinking:not([hidden])', { timeout: 15000 });
      seen();
      await page.waitForSelector('#board[data-busy="false"][data-ply="2"]');
      assert.equal(await page.isVisible('#thinking'), false);
      await page.done();
    });

    test('the new-game dialog validates, and shows the server refusing', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&o=human', { thinking: 'server', routed: true });
      await page.click('#btn-new');
      await page.waitForSelector('#dlg-new[open]');
      await page.selectOption('#f-preset', 'custom').catch(() => {});
      await page.fill('#f-width', '40');
      await page.click('#f-start');
      assert.match(await page.textContent('#f-error'), /Width must be a whole number from 1 to 32/);
      await page.fill('#f-width', '5');
      await page.fill('#f-height', '4');
      await page.fill('#f-k', '6');
      await page.click('#f-start');
      assert.match(await page.textContent('#f-error'), /k must be a whole number from 1 to 5/);

      // The page's checks pass but the server refuses (here: a stand-in refusal from the server).
      await page.fill('#f-k', '4');
      await page.route('**/api/state', (route) =>
        route.fulfill({
          status: 422,
          contentType: 'application/json',
          body: '{"error":{"code":"bad_rules","message":"no line of 4 fits this board"}}',
        }),
      );
      await page.click('#f-start');
      await page.waitForSelector('#f-error:not([hidden])');
      assert.match(await page.textContent('#f-error'), /The server refused: no line of 4 fits this board/);
      assert.equal(await page.isVisible('#dlg-new'), true);
      await shot(page, `${vp.name}-light-dialog-refused`);
      await page.unroute('**/api/state');

      // A real start: 5×4, four in a row, against the perfect bot with O first.
      await page.check('input[name="first"][value="O"]');
      await page.selectOption('#f-opponent', 'human');
      await page.click('#f-start');
      await page.waitForSelector('#dlg-new[open]', { state: 'detached' });
      await idle(page);
      const b = await board(page);
      assert.equal(b.toMove, 'O');
      assert.equal(await page.$$eval('#grid [data-cell]', (els) => els.length), 20);
      assert.match(page.url(), /r=5x4x4,o-first/);
      await page.done(true);
    });
  });
}
