// Two people on one device: both sides are played by clicks, undo takes back one ply, and the
// winner is named.
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
  describe(`two people on one device (${vp.name})`, () => {
    test('X and O alternate, undo takes one ply, X wins on the a file', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&o=human');
      assert.match(await page.textContent('#status'), /X to move/);
      await play(page, 'a1', vp);
      assert.match(await page.textContent('#status'), /O to move/);
      await play(page, 'c3', vp);
      await page.click('#btn-undo');
      await idle(page);
      assert.deepEqual(await stones(page), { a1: 'X' });
      for (const cell of ['b1', 'a2', 'b2', 'a3']) await play(page, cell, vp);
      const b = await board(page);
      assert.equal(b.status, 'win');
      assert.equal(b.winner, 'X');
      assert.deepEqual(b.line.split(' ').sort(), ['a1', 'a2', 'a3']);
      assert.equal(await page.textContent('#banner-text'), 'X wins!');
      assert.deepEqual(await stones(page), { a1: 'X', b1: 'O', a2: 'X', b2: 'O', a3: 'X' });
      assert.equal(await page.getAttribute('#grid [data-cell="b2"]', 'aria-label'), 'b2, O');
      assert.equal(await page.getAttribute('#grid [data-cell="c3"]', 'aria-label'), 'c3, empty');
      await shot(page, `${vp.name}-light-two-people`);
      await page.done();
    });

    test('keyboard play through the grid mirror: arrows and Enter', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&o=human');
      await page.focus('#grid [data-cell="b2"]');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '1');
      await idle(page);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowUp');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.cell), 'a3');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '2');
      await idle(page);
      assert.deepEqual(await stones(page), { b2: 'X', a3: 'O' });
      await page.done();
    });
  });
}
