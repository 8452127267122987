// The board without borders: dragging pans, the wheel zooms, play goes on anywhere, C recentres
// and the view follows play.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, idle, launch, open, play, shot, VIEWPORTS } from '../lib.mjs';

const view = async (page) => (await board(page)).view.split(',').map(Number);
/**
 * Waits until C's recentring is drawn: the view near the stones (each centre coordinate within
 * 4 cells of 0,0), its cell smaller than `below` where given. The view is redrawn on the next
 * frame: on a loaded machine that can take more than 50 ms. Answers whether it came.
 */
const recentred = (page, below = Infinity) =>
  page
    .waitForFunction(
      (below) => {
        const [cx, cy, cs] = document.getElementById('board').dataset.view.split(',').map(Number);
        return Math.abs(cx) < 4 && Math.abs(cy) < 4 && cs < below;
      },
      below,
      { timeout: 15000 },
    )
    .then(
      () => true,
      () => false,
    );

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const vp of VIEWPORTS) {
  describe(`the board without borders (${vp.name})`, () => {
    test('pan, zoom, play, recentre', async () => {
      const theme = vp.name === 'phone' ? 'dark' : 'light';
      const page = await open(browser, vp, '/?r=infx5&o=level2&s=X', { colorScheme: theme });
      await play(page, 'a1', vp);
      assert.equal((await board(page)).ply, '2');
      const [cx0, cy0, cs0] = await view(page);

      // Drag: the view moves with the pointer and no stone is played.
      const box = await page.$eval('#board', (el) => {
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
      });
      const mx = box.x + box.w / 2;
      const my = box.y + box.h / 2;
      await page.mouse.move(mx, my);
      await page.mouse.down();
      await page.mouse.move(mx - 60, my + 30, { steps: 5 });
      await page.mouse.move(mx - 120, my + 60, { steps: 5 });
      await page.mouse.up();
      const [cx1, cy1] = await view(page);
      assert.ok(cx1 > cx0 + 2, `panned right: ${cx0} -> ${cx1}`);
      assert.ok(cy1 > cy0 + 1, `panned up: ${cy0} -> ${cy1}`);
      assert.equal((await board(page)).ply, '2', 'a drag plays nothing');

      // Wheel: zoom in around the pointer.
      await page.mouse.move(mx, my);
      await page.mouse.wheel(0, -400);
      await page.waitForFunction((cs) => Number(document.getElementById('board').dataset.view.split(',')[2]) > cs, cs0);
      const [, , cs1] = await view(page);
      assert.ok(cs1 > cs0, `zoomed in: ${cs0} -> ${cs1}`);

      // Play on, in a cell far from the first stones: negative coordinates are fine. C recentres
      // (at a cell no larger than the default, smaller than the zoom's), then the wheel zooms out.
      await page.keyboard.press('c');
      assert.ok(await recentred(page, cs1), `C recentres: ${await view(page)}`);
      await page.mouse.move(mx, my);
      await page.mouse.wheel(0, 600);
      await page.waitForSelector('#grid [data-cell="-3,-2"]', { state: 'attached', timeout: 15000 }).catch(() => {});
      const visible = await page.$$eval('#grid [data-cell]', (els) =>
        els.map((e) => ({ cell: e.dataset.cell, x: Number(e.dataset.x), y: Number(e.dataset.y), stone: e.dataset.stone })),
      );
      const far = visible.find((c) => c.x === -3 && c.y === -2);
      assert.ok(far, 'cell -3,-2 is in view after zooming out');
      await play(page, '-3,-2', vp);
      const b = await board(page);
      assert.equal(b.ply, '4');
      assert.match(await page.textContent('#moves'), /-3,-2/);

      // C recentres on the stones.
      await page.mouse.move(mx, my);
      await page.mouse.down();
      await page.mouse.move(mx + 200, my - 150, { steps: 6 });
      await page.mouse.up();
      await page.keyboard.press('c');
      await recentred(page);
      const [cx2, cy2] = await view(page);
      assert.ok(Math.abs(cx2) < 4 && Math.abs(cy2) < 4, `recentred near the stones: ${cx2},${cy2}`);
      await shot(page, `${vp.name}-${theme}-unbounded`);
      await page.done();
    });
  });
}
