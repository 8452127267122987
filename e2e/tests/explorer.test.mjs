// Study, item 4: the game-tree explorer. From the empty 3×3 board the whole tree can be browsed
// level by level: the counts are the published ones (../shared/data/tree-counts.tsv: 255,168
// games and 5,478 positions; 27,732 games after a corner, 29,592 after an edge, 25,872 after the
// centre), values are exact, a node clicked is shown on the board, the arrow keys walk the tree.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, launch, open, shot, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Waits until the item of `moves` (space-separated; '' is the root) shows its children. */
async function openedItem(page, moves) {
  await page.waitForFunction(
    (key) => {
      const li = [...document.querySelectorAll('#explorer-tree [role="treeitem"]')].find((e) => e.dataset.key === key);
      return li && li.getAttribute('aria-expanded') === 'true' && li.querySelector(':scope > ul > [role="treeitem"], :scope > ul > .xnote:not([data-state="loading"])');
    },
    moves,
    { timeout: 30000 },
  );
}

const row = (page, key) => page.locator(`#explorer-tree [role="treeitem"][data-key="${key}"] > .xrow`);

for (const vp of VIEWPORTS) {
  describe(`game-tree explorer (${vp.name})`, () => {
    test('3×3 from the empty board: counts, values, expanding, showing a node, the keyboard', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&o=human');
      await page.keyboard.press('g');
      await openedItem(page, '');
      assert.equal(await page.getAttribute('#btn-tree', 'aria-pressed'), 'true');
      assert.match(await row(page, '').textContent(), /Start\s*draw\s*255,168 games · 5,478 positions/);
      const top = await page.$$eval('#explorer-tree > [role="treeitem"] > ul > [role="treeitem"]', (items) => items.map((li) => li.dataset.key));
      assert.deepEqual(top, ['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3']);
      assert.match(await row(page, 'a1').textContent(), /X\s*a1\s*draw\s*27,732 games · 1,870 positions/);
      assert.match(await row(page, 'b1').textContent(), /29,592 games/);
      assert.match(await row(page, 'b2').textContent(), /25,872 games/);

      // Open the centre: O's answers, best first: a corner holds the draw, an edge loses.
      await row(page, 'b2').locator('.twisty').click();
      await openedItem(page, 'b2');
      const replies = await page.$$eval('[data-key="b2"] > ul > [role="treeitem"]', (items) => items.map((li) => li.dataset.key));
      assert.deepEqual(replies, ['b2 a1', 'b2 c1', 'b2 a3', 'b2 c3', 'b2 b1', 'b2 a2', 'b2 c2', 'b2 b3']);
      assert.match(await row(page, 'b2 a1').textContent(), /draw/);
      assert.match(await row(page, 'b2 b1').textContent(), /X wins in \d+/);

      // A corner, then O in the centre: X's opposite corner, after which O's corner replies lose.
      await row(page, 'a1').locator('.twisty').click();
      await openedItem(page, 'a1');
      await row(page, 'a1 b2').locator('.twisty').click();
      await openedItem(page, 'a1 b2');
      await shot(page, `${vp.name}-explorer-3x3`);

      // A node clicked is shown on the board, as a variation of this empty game.
      await row(page, 'a1 b2 c3').click();
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '3', null, { timeout: 30000 });
      assert.equal(await page.getAttribute('[data-key="a1 b2 c3"]', 'aria-current'), 'true');
      assert.equal((await board(page)).toMove, 'O');
      await row(page, 'a1 b2 c3').locator('.twisty').click();
      await openedItem(page, 'a1 b2 c3');
      // O's corner loses (X wins, in X's colour); an edge holds the draw.
      assert.match(await row(page, 'a1 b2 c3 c1').textContent(), /X wins in \d+/);
      assert.equal(await row(page, 'a1 b2 c3 c1').locator('.xvalue').getAttribute('class'), 'xvalue v-x');
      assert.match(await row(page, 'a1 b2 c3 b1').textContent(), /draw/);

      // The keyboard: Home to the root, ↓ to a1, ← closes it, → opens it again and then goes
      // into it (O's best answer, the centre, comes first), Enter shows that position.
      await page.focus('#explorer-tree [tabindex="0"]');
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.key), 'a1');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await page.getAttribute('[data-key="a1"]', 'aria-expanded'), 'false');
      await page.keyboard.press('ArrowRight');
      await openedItem(page, 'a1');
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.key), 'a1 b2');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '2', null, { timeout: 30000 });
      // The arrows walk the tree, not the game: ← closes a1 b2 (opened above), ← again goes up.
      await page.keyboard.press('ArrowLeft');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.key), 'a1 b2');
      assert.equal(await page.getAttribute('[data-key="a1 b2"]', 'aria-expanded'), 'false');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.key), 'a1');
      assert.equal((await board(page)).ply, '2');
      await page.done();
    });

    test('a finished game is a leaf; a board too large says so', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&m=a1.a2.b1.b2&o=human');
      await page.keyboard.press('g');
      await openedItem(page, 'a1 a2 b1 b2');
      // c1 wins at once: no arrow to open.
      const c1 = page.locator('[data-key="a1 a2 b1 b2 c1"]');
      assert.equal(await c1.getAttribute('aria-expanded'), null);
      assert.match(await row(page, 'a1 a2 b1 b2 c1').textContent(), /X wins in 1\b/);
      await page.done();

      const large = await open(browser, vp, '/?r=15x15x5&m=h8&o=human');
      await large.keyboard.press('g');
      await large.waitForFunction(() => document.getElementById('explorer-note').dataset.state === 'too_large', null, { timeout: 30000 });
      assert.match(await large.textContent('#explorer-note'), /needs a board the solver can decide/);
      await large.done();
    });
  });
}
