// On a phone the page stays where the player put it: playing, the computer's replies and opening
// a finished game's link never scroll the page (the move list scrolls inside itself to show the
// current move).
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

const phone = VIEWPORTS.find((vp) => vp.name === 'phone');

describe('the page on a phone does not run away', () => {
  test('fourteen plies against the computer leave the page where it was', async () => {
    const page = await open(browser, phone, '/?r=15x15x5&o=level1&s=X');
    // Cells in the board's upper half, which a phone shows without scrolling.
    for (const cell of ['h12', 'c14', 'm13', 'b15', 'n11', 'a10', 'o15']) {
      if ((await board(page)).status !== 'ongoing') break;
      await play(page, cell, phone);
      assert.equal(await page.evaluate(() => window.scrollY), 0, `after ${cell}`);
    }
    // The list itself shows the current move.
    const visible = await page.$eval('#moves [aria-current]', (item) => {
      const list = item.closest('ol').getBoundingClientRect();
      const at = item.getBoundingClientRect();
      return at.top >= list.top - 1 && at.bottom <= list.bottom + 1;
    });
    assert.ok(visible, 'the current move is in view in the list');
    await page.done();
  });

  test("a finished game's link opens at the top, with the result in view", async () => {
    const page = await open(browser, phone, '/?r=3x3x3&m=a1.b1.a2.b2.a3&o=human');
    assert.equal((await board(page)).status, 'win');
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    await page.done();
  });
});
