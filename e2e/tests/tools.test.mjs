// The player's tools on 15×15 against level 2: hint (ghost stone), D, undo, T, W, move numbers
// and the shortcut list.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, idle, launch, open, play, shot, stones, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const vp of VIEWPORTS) {
  describe(`tools (${vp.name})`, () => {
    test('hint, D, undo, T, W, move numbers, ?', async () => {
      const theme = vp.name === 'phone' ? 'light' : 'dark';
      const page = await open(browser, vp, '/?r=15x15x5&o=level2&s=X', { colorScheme: theme });
      await play(page, 'h8', vp);
      const afterFirst = await stones(page);
      assert.equal(Object.keys(afterFirst).length, 2);

      // Hint: a ghost stone on a free cell, nothing played.
      await page.click('#btn-hint');
      await page.waitForFunction(() => document.getElementById('board').dataset.hint !== '');
      await idle(page);
      const b = await board(page);
      assert.equal(b.ply, '2');
      assert.ok(!(b.hint in afterFirst), `the hint ${b.hint} is a free cell`);
      assert.match(await page.textContent('#info'), new RegExp(`Hint: ${b.hint}`));

      // D: the computer plays for the human, then answers.
      await page.keyboard.press('d');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '4', null, { timeout: 30000 });
      await idle(page);
      assert.equal((await board(page)).hint, '', 'the hint goes once a move is played');

      // Undo: two plies against the computer.
      await page.keyboard.press('u');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '2');
      await idle(page);
      assert.deepEqual(await stones(page), afterFirst);

      // T: the weight of the cell under the pointer.
      const target = await page.$('#grid [data-cell="i8"]');
      const box = await target.boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.keyboard.press('t');
      await page.waitForSelector('#tip:not([hidden])');
      assert.match(await page.textContent('#tip'), /^i8: (weight [\d.,-]+|not a candidate)$/);

      // W: the heat map of every candidate cell.
      await page.keyboard.press('w');
      await page.waitForFunction(() => Number(document.getElementById('board').dataset.heatCells) > 0);
      assert.equal(await page.getAttribute('#btn-heat', 'aria-pressed'), 'true');
      await page.keyboard.press('m');
      assert.equal(await page.getAttribute('#btn-numbers', 'aria-pressed'), 'true');
      await shot(page, `${vp.name}-${theme}-heat-map`);
      await page.keyboard.press('w');
      assert.equal((await board(page)).heatCells, '');

      // ?: every shortcut is listed.
      await page.keyboard.press('?');
      await page.waitForSelector('#dlg-help[open]');
      const keys = await page.$$eval('#dlg-help kbd', (els) => els.map((e) => e.textContent));
      for (const k of ['N', 'U', 'H', 'D', 'T', 'W', 'M', 'C', 'X', '?', 'Enter', 'Esc']) assert.ok(keys.includes(k), `${k} listed`);
      await shot(page, `${vp.name}-${theme}-shortcuts`);
      await page.keyboard.press('Escape');
      await page.waitForSelector('#dlg-help[open]', { state: 'detached' });
      await page.done();
    });
  });
}
