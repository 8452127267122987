// Study, item 1: the moves as a tree. The move list is clickable; ←/→, Home/End and the buttons
// step through the game; playing from an earlier point makes a variation that is shown and can
// be switched to; the link keeps the whole tree and the position shown.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, idle, launch, open, play, shot, stones, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function waitPly(page, ply) {
  await page.waitForFunction((n) => document.getElementById('board').dataset.ply === String(n), ply);
  await idle(page);
}

for (const vp of VIEWPORTS) {
  describe(`moves as a tree (${vp.name})`, () => {
    test('step through, branch, switch, and keep it all in the link', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8.i9.h9.i10&o=human');
      assert.equal((await board(page)).ply, '4');

      // Keys: ← twice, Home, End, → at the end does nothing.
      await page.keyboard.press('ArrowLeft');
      await waitPly(page, 3);
      await page.keyboard.press('ArrowLeft');
      await waitPly(page, 2);
      assert.deepEqual(await stones(page), { h8: 'X', i9: 'O' });
      assert.match(await page.textContent('#viewing'), /Move 2 of 4/);
      await page.keyboard.press('Home');
      await waitPly(page, 0);
      await page.keyboard.press('End');
      await waitPly(page, 4);
      assert.equal(await page.textContent('#viewing'), '');

      // Buttons, then a click on a move in the list.
      await page.click('#nav-start');
      await waitPly(page, 0);
      await page.click('#nav-forward');
      await waitPly(page, 1);
      await page.click('#moves li[data-ply="3"] .go');
      await waitPly(page, 3);
      assert.equal(await page.getAttribute('#moves li[data-ply="3"] .go', 'aria-current'), 'step');

      // A different move from ply 2 starts a variation; the old line is still there.
      await page.click('#moves li[data-ply="2"] .go');
      await waitPly(page, 2);
      await play(page, 'j10', vp);
      const b = await board(page);
      assert.equal(b.ply, '3');
      assert.equal(b.lineLength, '3');
      assert.deepEqual(await stones(page), { h8: 'X', i9: 'O', j10: 'X' });
      assert.deepEqual(await page.$$eval('#moves li[data-ply="3"] .alt', (els) => els.map((e) => e.dataset.move)), ['h9']);
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('m'), 'h8.i9.j10');
      assert.equal(url.searchParams.get('t'), 'h8.i9.h9(j10).i10');
      await shot(page, `${vp.name}-variation`);

      // Switch back to the first line: its future comes back whole.
      await page.click('#moves li[data-ply="3"] .alt[data-move="h9"]');
      await waitPly(page, 3);
      assert.equal((await board(page)).lineLength, '4');
      assert.deepEqual(await stones(page), { h8: 'X', i9: 'O', h9: 'X' });
      assert.equal(new URL(page.url()).searchParams.get('p'), '3');

      // The link opens the same tree at the same position, on another page.
      const again = await open(browser, vp, new URL(page.url()).pathname + new URL(page.url()).search);
      const restored = await board(again);
      assert.equal(restored.ply, '3');
      assert.equal(restored.lineLength, '4');
      assert.deepEqual(await again.$$eval('#moves li[data-ply="3"] .alt', (els) => els.map((e) => e.dataset.move)), ['j10']);
      await again.done();
      await page.done();
    });

    test('against the computer: no move by itself while looking back, and undo while it thinks', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8.i9&o=level6&s=X');
      await page.keyboard.press('ArrowLeft');
      await waitPly(page, 1);
      // O (the computer) is to move here, but the player is only looking: it waits.
      await page.waitForTimeout(600);
      assert.equal((await board(page)).ply, '1');
      assert.equal((await board(page)).lineLength, '2');
      await page.keyboard.press('End');
      await waitPly(page, 2);

      // Undo while the computer thinks: the search is cancelled and the move taken back. The
      // key is pressed in the page, in the same turn that sees the computer thinking: pressed
      // from here, the computer (a second's thought, the indicator shown after 0.3 s) could
      // answer between the look and the key on a loaded machine, and the undo would take back
      // its answer instead.
      await page.click('#grid [data-cell="j10"]');
      const seen = await page.waitForFunction(() => {
        const thinking = !document.getElementById('thinking').hidden;
        const ply = document.getElementById('board').dataset.ply;
        // Until the stone is down and the indicator shows (then the key, at once).
        if (!thinking && (ply === '2' || ply === '3')) return false;
        const undoEnabled = !document.getElementById('btn-undo').disabled;
        if (thinking && undoEnabled) {
          document.dispatchEvent(new KeyboardEvent('keydown', { key: 'u', code: 'KeyU', bubbles: true }));
        }
        return { thinking, ply, undoEnabled };
      });
      assert.deepEqual(await seen.jsonValue(), { thinking: true, ply: '3', undoEnabled: true });
      await waitPly(page, 2);
      assert.equal((await board(page)).lineLength, '2');
      assert.deepEqual(await stones(page), { h8: 'X', i9: 'O' });
      await page.done();
    });
  });
}
