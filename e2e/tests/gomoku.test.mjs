// 15×15 against level 1, played to the end with D (the computer moves for the human): the game
// finishes, the result banner shows, and a win has its five highlighted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, idle, launch, open, play, shot, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const vp of VIEWPORTS) {
  describe(`15×15 against level 1 (${vp.name})`, () => {
    test('played to the end with cell clicks and D', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=level1&s=X');
      await play(page, 'h8', vp);
      assert.equal((await board(page)).ply, '2');
      let b = await board(page);
      for (let i = 0; i < 120 && b.status === 'ongoing'; i++) {
        const ply = Number(b.ply);
        await page.keyboard.press('d');
        await page.waitForFunction((n) => Number(document.getElementById('board').dataset.ply) > n, ply, { timeout: 30000 });
        await idle(page);
        assert.equal(await page.isVisible('#error'), false, 'no error while playing');
        b = await board(page);
      }
      assert.notEqual(b.status, 'ongoing', 'the game ended');
      assert.equal(await page.isVisible('#banner'), true);
      if (b.status === 'win') {
        assert.ok(b.line.split(' ').length >= 5, `a line of five: ${b.line}`);
      }
      const listed = await page.$$eval('#moves li', (els) => els.length);
      assert.equal(listed, Number(b.ply), 'every move is in the move list');
      await page.click('#btn-numbers');
      await shot(page, `${vp.name}-light-15x15-finished`);
      await page.done();
    });
  });
}
