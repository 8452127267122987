// Study, item 2: analysis mode. The engine's report streams in (at least one update a second on
// 15×15), its lines are on the board and in the panel with scores for X, moving to another
// position restarts it there, and leaving analysis mode stops the stream.
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

const events = async (page) => Number((await board(page)).analysisEvents);

for (const vp of VIEWPORTS) {
  describe(`analysis (${vp.name})`, () => {
    test('streams, shows its lines, follows the position, stops when left', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8.i9.h10.h9.j9.i8&o=human');
      await page.keyboard.press('a');
      await page.waitForFunction(() => Number(document.getElementById('board').dataset.analysisDepth) >= 3, null, { timeout: 30000 });
      // Updates keep coming: three more, waited for (the wait fails without them), not counted
      // over a fixed time, which a loaded machine stretches.
      const start = await events(page);
      await page.waitForFunction((n) => Number(document.getElementById('board').dataset.analysisEvents) >= n, start + 3, { timeout: 15000 });
      const b = await board(page);
      const lines = b.analysisLines.split(' ');
      assert.ok(lines.length >= 1 && lines.length <= 3, b.analysisLines);
      assert.equal(new Set(lines).size, lines.length, 'distinct candidate moves');
      assert.match(await page.textContent('#analysis-lines li'), /^(X \d+%|[XO] wins in \d+ pl(y|ies))/);
      assert.match(await page.textContent('#analysis-summary'), /Thinking: depth \d+/);
      await shot(page, `${vp.name}-analysis`);

      // Another position: the analysis starts again there.
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '5');
      await page.waitForFunction(() => Number(document.getElementById('board').dataset.analysisDepth) >= 2, null, { timeout: 30000 });

      // Leaving analysis mode: no more updates.
      await page.keyboard.press('a');
      assert.equal((await board(page)).analysis, 'off');
      const stopped = await events(page);
      await page.waitForTimeout(800);
      assert.equal(await events(page), stopped);
      await page.done();
    });
  });
}
