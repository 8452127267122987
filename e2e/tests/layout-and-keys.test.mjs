// Fixes from the study review: the game-over banner does not move or shrink the board and the
// status is above the board (in view on phones); a game no one can win any more is a draw;
// shortcuts work by physical key whatever the keyboard layout; a preset in the new-game dialog
// is its whole rule set; no two elements of the page share an id.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { board, idle, launch, open, play, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('no two elements of the page share an id', () => {
  // A second element with an id is dead: getElementById finds the first, so the page never
  // fills or shows the other (the room panel kept a stale clock line that way).
  const html = fs.readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
  const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(ids.length > 100, `${ids.length} ids read`);
  assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), []);
});

for (const vp of VIEWPORTS) {
  describe(`layout and keys (${vp.name})`, () => {
    test('the result does not move the board, and the status is in view', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&m=a1.a2.b1.b2&o=human');
      const status = await page.$eval('#status', (el) => el.getBoundingClientRect().toJSON());
      assert.ok(status.bottom <= vp.viewport.height, `status at ${status.bottom} is in view`);
      const place = () =>
        page.$eval('#board', (el) => {
          const r = el.getBoundingClientRect();
          return { top: r.top + scrollY, left: r.left + scrollX, width: r.width, height: r.height };
        });
      const before = await place();
      await play(page, 'c1', vp);
      assert.equal((await board(page)).status, 'win');
      assert.equal(await page.isVisible('#banner'), true);
      const banner = await page.$eval('#banner', (el) => el.getBoundingClientRect().toJSON());
      assert.ok(banner.top >= 0 && banner.bottom <= vp.viewport.height, 'the result is in view');
      const afterWin = await place();
      assert.deepEqual(afterWin, before, 'the board keeps its place and size');
      await page.done();
    });

    test('an early draw: no line can be completed any more', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&m=b2.a1.c3.a3.a2.c2.b3&o=human');
      await play(page, 'b1', vp);
      const b = await board(page);
      assert.equal(b.status, 'draw');
      assert.equal(await page.textContent('#banner-text'), 'Draw: no line can be completed any more');
      // c1 is still empty, but the game is over: a click changes nothing.
      await page.click('#grid [data-cell="c1"]');
      await page.waitForTimeout(300);
      assert.equal((await board(page)).ply, '8');
      await page.done();
    });

    test('shortcuts by physical key: a Cyrillic layout works', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8&o=human', { locale: 'ru-RU' });
      // The M key types "ь" on a Russian layout.
      await page.evaluate(() =>
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ь', code: 'KeyM', bubbles: true, cancelable: true })),
      );
      assert.equal(await page.getAttribute('#btn-numbers', 'aria-pressed'), 'true');
      // D ("в") plays for the side to move.
      await page.evaluate(() =>
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'в', code: 'KeyD', bubbles: true, cancelable: true })),
      );
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '2', null, { timeout: 30000 });
      await idle(page);
      // M again, back off (and the setting does not leak into the next test's context).
      await page.keyboard.press('m');
      assert.equal(await page.getAttribute('#btn-numbers', 'aria-pressed'), 'false');
      await page.done();
    });

    test('a preset sets its whole rule set: nothing carries over', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=human');
      await page.keyboard.press('n');
      await page.waitForSelector('#dlg-new[open]');
      await page.check('input[name="first"][value="O"]');
      await page.check('input[name="win"][value="exact"]');
      await page.selectOption('#f-preset', 'tictactoe');
      assert.equal(await page.isChecked('input[name="first"][value="X"]'), true);
      assert.equal(await page.isChecked('input[name="win"][value="freestyle"]'), true);
      assert.equal(await page.inputValue('#f-width'), '3');
      await page.done();
    });
  });
}
