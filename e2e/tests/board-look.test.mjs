// Study, item 7: the board's look. Stones on the intersections with star points (the gomoku
// look) beside X and O in the cells; the last move and the winning line stay clear in both.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, launch, open, play, shot, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The colour the canvas shows at the centre of a cell: [r, g, b]. */
async function pixelAt(page, cell) {
  return page.$eval(
    '#canvas',
    (canvas, cell) => {
      const button = document.querySelector(`#grid [data-cell="${cell}"]`).getBoundingClientRect();
      const box = canvas.getBoundingClientRect();
      const k = canvas.width / box.width;
      const x = Math.round((button.left + button.width / 2 - box.left) * k);
      const y = Math.round((button.top + button.height / 2 - box.top) * k);
      return Array.from(canvas.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3));
    },
    cell,
  );
}

const near = (a, b, tolerance = 40) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);
const hex = (s) => [1, 3, 5].map((i) => parseInt(s.trim().slice(i, i + 2), 16));

for (const vp of VIEWPORTS) {
  describe(`board look (${vp.name})`, () => {
    test('stones on intersections, X black and O white; last move and win stay clear', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8.a1.i8.a2.j8.a3.k8.a4&o=human');
      const colours = await page.evaluate(() => {
        const cs = getComputedStyle(document.documentElement);
        return Object.fromEntries(['x', 'black', 'white', 'last'].map((n) => [n, cs.getPropertyValue(`--c-${n}`)]));
      });
      // Cells: the X's stroke crosses the cell's centre.
      await page.waitForTimeout(100);
      assert.ok(near(await pixelAt(page, 'h8'), hex(colours.x)), 'an X in the cells look');

      await page.selectOption('#sel-look', 'stones');
      await page.waitForFunction(() => document.getElementById('board').dataset.look === 'stones');
      await page.waitForTimeout(100);
      assert.ok(near(await pixelAt(page, 'h8'), hex(colours.black)), 'X is a black stone');
      assert.ok(near(await pixelAt(page, 'a1'), hex(colours.white)), 'O is a white stone');
      assert.ok(near(await pixelAt(page, 'a4'), hex(colours.last)), 'the last move is marked on its stone');

      // The win: its line is highlighted in the stones look too.
      await play(page, 'l8', vp);
      assert.equal((await board(page)).status, 'win');
      assert.equal((await board(page)).line, 'h8 i8 j8 k8 l8');
      await shot(page, `${vp.name}-stones-look-win`);
      // The choice is kept for the next visit.
      const again = await open(browser, vp, '/?r=15x15x5&m=h8&o=human');
      assert.equal(await again.inputValue('#sel-look'), 'cells', 'a new browser context starts from the default');
      await again.done();
      await page.reload();
      await page.waitForSelector('#board[data-look="stones"]');
      await page.done();
    });
  });
}
