// 3×3 against the perfect bot: whatever order the human tries, the human never wins; when the
// human blunders, the computer wins and the page shows the winning line and the result banner.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, idle, launch, open, play, shot, VIEWPORTS } from '../lib.mjs';

const ORDERS = {
  centre: ['b2', 'a1', 'c3', 'a3', 'c1', 'b1', 'a2', 'c2', 'b3'],
  corners: ['a1', 'c3', 'a3', 'c1', 'b2', 'b1', 'a2', 'c2', 'b3'],
  edges: ['b1', 'a2', 'c2', 'b3', 'a1', 'c1', 'a3', 'c3', 'b2'],
  reverse: ['c3', 'c2', 'c1', 'b3', 'b2', 'b1', 'a3', 'a2', 'a1'],
};

/** Plays the first free cell of `order` whenever it is the human's turn, until the game ends. */
async function playOut(page, order, vp) {
  for (let guard = 0; guard < 9; guard++) {
    const b = await board(page);
    if (b.status !== 'ongoing') return b;
    const taken = await page.$$eval('#grid [data-stone]:not([data-stone=""])', (els) => els.map((e) => e.dataset.cell));
    const cell = order.find((c) => !taken.includes(c));
    await play(page, cell, vp);
  }
  return board(page);
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const vp of VIEWPORTS) {
  describe(`3×3 against the perfect bot (${vp.name})`, () => {
    for (const [name, order] of Object.entries(ORDERS)) {
      for (const side of name === 'centre' || name === 'edges' ? ['X', 'O'] : ['X']) {
        test(`the human playing ${side} with the ${name} order never wins`, async () => {
          const page = await open(browser, vp, `/?r=3x3x3&o=perfect&s=${side}`);
          const final = await playOut(page, order, vp);
          assert.notEqual(final.status, 'ongoing');
          assert.ok(final.status === 'draw' || final.winner !== side, `the human won: ${JSON.stringify(final)}`);
          assert.equal(await page.isVisible('#banner'), true);
          await page.done();
        });
      }
    }

    test('a blunder loses, and the winning line is highlighted', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&o=perfect&s=X', { colorScheme: vp.name === 'phone' ? 'dark' : 'light' });
      // X a1 forces O b2; X c1 forces O b1; X a2 ignores the threat on the b file: O wins b1-b2-b3.
      for (const cell of ['a1', 'c1', 'a2']) await play(page, cell, vp);
      const b = await board(page);
      assert.equal(b.status, 'win');
      assert.equal(b.winner, 'O');
      assert.deepEqual(b.line.split(' ').sort(), ['b1', 'b2', 'b3']);
      assert.equal(await page.textContent('#banner-text'), 'The computer wins');
      assert.match(await page.textContent('#status'), /computer wins/i);
      // The board refuses further moves: clicking a free cell changes nothing.
      await page.click('#grid [data-cell="c3"]');
      await idle(page);
      assert.equal((await board(page)).ply, b.ply);
      await shot(page, `${vp.name}-${vp.name === 'phone' ? 'dark' : 'light'}-3x3-computer-wins`);
      await page.done();
    });
  });
}
