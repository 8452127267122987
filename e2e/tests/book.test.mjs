// Study: the solved opening books shipped in the server. On 7×7×5 after X's book move d4 the
// book holds every reply of O, so exact mode colours all 48 free cells at once without the
// solver and says the values came from the book (7×7×5 is a draw: books/7x7x5.book, written by
// `mnk solve 7 7 5 --book`); the explorer marks the same values as the book's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, launch, open, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const vp of VIEWPORTS) {
  describe(`solved opening book (${vp.name})`, () => {
    test('7×7×5 after d4: every free cell from the shipped book, said in words', async () => {
      const page = await open(browser, vp, '/?r=7x7x5&m=d4&o=human');
      await page.keyboard.press('e');
      await page.waitForFunction(() => document.getElementById('legend').dataset.state === 'solved', null, { timeout: 30000 });
      assert.equal(await page.getAttribute('#legend', 'data-source'), 'book');
      assert.equal((await board(page)).exactCells, '48');
      const legend = await page.textContent('#legend');
      assert.match(legend, /The position: draw\./);
      assert.match(legend, /From the solved opening book/);
      // O's replies next to X's stone hold the draw (every line of the book is a draw for O).
      const values = Object.fromEntries((await board(page)).exact.split(' ').map((e) => e.split(':')));
      assert.equal(values.c3, 'draw');

      await page.keyboard.press('g');
      await page.waitForSelector('#explorer-tree .xnote[data-state="book"]', { timeout: 30000 });
      assert.match(await page.textContent('#explorer-tree .xnote[data-state="book"]'), /solved opening book/);
      await page.done();
    });
  });
}
