// Study, item 3: exact mode. On a solvable board every free cell is coloured by its exact value
// for the side to move; the position's value agrees with the known results (4×3×3 is a first
// player win, ../shared/data/mnk-results.tsv; 3×3 is a draw); on a board too large to solve the
// page says so instead of colouring.
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

async function exactOn(page) {
  await page.keyboard.press('e');
  await page.waitForFunction(() => ['solved', 'too_large', 'out_of_time'].includes(document.getElementById('legend').dataset.state), null, { timeout: 30000 });
}

for (const vp of VIEWPORTS) {
  describe(`exact mode (${vp.name})`, () => {
    test('4×4×3 and 4×3×3: every free cell coloured, values agree with the known results', async () => {
      const page = await open(browser, vp, '/?r=4x3x3&o=human');
      await exactOn(page);
      assert.equal((await board(page)).exactCells, '12');
      assert.match(await page.textContent('#legend'), /The position: X wins in \d+ pl(y|ies)\./);
      assert.equal(await page.getAttribute('#btn-exact', 'aria-pressed'), 'true');

      await page.goto(page.url().replace('r=4x3x3', 'r=4x4x3'));
      await exactOn(page);
      assert.equal((await board(page)).exactCells, '16');
      await shot(page, `${vp.name}-exact-4x4x3`);
      // A move: the values of the new position (O to move), one cell fewer.
      await play(page, 'b2', vp);
      await page.waitForFunction(() => document.getElementById('board').dataset.exactCells === '15', null, { timeout: 30000 });
      assert.match(await page.textContent('#legend'), /value for O/);
      await page.done();
    });

    test('3×3: a draw; the losing replies are the ones marked red', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&m=a1.b2.c3&o=human');
      await exactOn(page);
      assert.match(await page.textContent('#legend'), /The position: draw\./);
      assert.equal((await board(page)).exactCells, '6');
      // O must answer on an edge: a corner loses (the classic trap of tic-tac-toe).
      const values = Object.fromEntries((await board(page)).exact.split(' ').map((e) => e.split(':')));
      assert.deepEqual(values, { b1: 'draw', a2: 'draw', c2: 'draw', b3: 'draw', c1: 'loss', a3: 'loss' });
      await page.done();
    });

    test('15×15: too large, said in words', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8&o=human');
      await exactOn(page);
      assert.equal(await page.getAttribute('#legend', 'data-state'), 'too_large');
      assert.match(await page.textContent('#legend'), /too large to solve/);
      assert.equal((await board(page)).exactCells, '');
      await page.done();
    });
  });
}
