// The perfect bot on the largest boards the dialog offers it (study, defect 1): on 6×6×4 and
// 7×5×4 the first player wins in 11 plies (../shared/data/mnk-results.tsv), and the computer,
// playing first, wins whole games there in the page, never more slowly than that.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, launch, open, play, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Every cell of a width × height board, the central ones first: a defender's natural order. */
function centreFirst(width, height) {
  const cells = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) cells.push({ x, y, d: Math.abs(x - (width - 1) / 2) + Math.abs(y - (height - 1) / 2) });
  }
  return cells.sort((a, b) => a.d - b.d || a.y - b.y || a.x - b.x).map((c) => `${String.fromCharCode(97 + c.x)}${c.y + 1}`);
}

for (const vp of VIEWPORTS) {
  describe(`the perfect bot on the largest boards (${vp.name})`, () => {
    for (const [width, height] of [
      [6, 6],
      [7, 5],
    ]) {
      test(`${width}×${height}×4: the computer plays first and wins within 11 plies`, async () => {
        const page = await open(browser, vp, `/?r=${width}x${height}x4&o=perfect&s=O`);
        const order = centreFirst(width, height);
        for (let guard = 0; guard < width * height; guard++) {
          const b = await board(page);
          if (b.status !== 'ongoing') break;
          const taken = await page.$$eval('#grid [data-stone]:not([data-stone=""])', (els) => els.map((e) => e.dataset.cell));
          await play(page, order.find((c) => !taken.includes(c)), vp);
        }
        const final = await board(page);
        assert.equal(final.status, 'win', JSON.stringify(final));
        assert.equal(final.winner, 'X');
        assert.ok(Number(final.ply) <= 11, `won at ply ${final.ply}`);
        assert.equal(await page.textContent('#banner-text'), 'The computer wins');
        assert.equal(await page.isVisible('#error'), false);
        await page.done();
      });
    }
  });
}
