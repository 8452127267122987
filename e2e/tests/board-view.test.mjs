// Fixes from the study review, on the board itself: stones far apart on the board without
// borders are found again (Recentre, the minimap); the keyboard focus does not look like the
// last-move marker; the last-move marker has 3:1 contrast; without JavaScript no dead toolbar;
// the computer's scores are told from X's side and its old message goes when the player moves.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BASE, board, idle, launch, open, play, shot, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** WCAG contrast of two #rrggbb colours. */
function contrast(a, b) {
  const lum = (hex) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

for (const vp of VIEWPORTS) {
  describe(`board view (${vp.name})`, () => {
    test('stones far apart: the last move is in view, the minimap shows the rest and goes there', async () => {
      const page = await open(browser, vp, '/?r=infx5&m=0,0.1000,0.1,1&o=human');
      const inView = (x, y) => page.$eval('#grid', (g, [x, y]) => Boolean(g.querySelector(`[data-x="${x}"][data-y="${y}"]`)), [x, y]);
      assert.ok(await inView(1, 1), 'the last move is in view');
      assert.ok(!(await inView(1000, 0)), 'the far stone is not');
      assert.equal(await page.isVisible('#minimap'), true);
      await shot(page, `${vp.name}-unbounded-minimap`);
      // A click on the minimap's far stone brings it into view.
      const far = await page.$eval('#minimap', (m) => {
        const r = m.getBoundingClientRect();
        return { x: r.left + r.width - 8, y: r.top + r.height / 2 };
      });
      await page.mouse.click(far.x, far.y);
      await page.waitForFunction(() => Boolean(document.querySelector('#grid [data-x="1000"][data-y="0"]')));
      // Recentre comes back to the last move.
      await page.click('#btn-centre');
      await page.waitForFunction(() => Boolean(document.querySelector('#grid [data-x="1"][data-y="1"]')));
      await page.done();
    });

    test('focus and last move look different; the marker has 3:1 contrast', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8&o=human');
      const colours = await page.evaluate(() => {
        const cs = getComputedStyle(document.documentElement);
        return { last: cs.getPropertyValue('--c-last').trim(), board: cs.getPropertyValue('--c-board').trim() };
      });
      assert.ok(contrast(colours.last, colours.board) >= 3, `${colours.last} on ${colours.board}`);
      await page.focus('#grid [data-cell="h8"]');
      await page.keyboard.press('ArrowRight');
      const outline = await page.$eval('#grid [data-cell="i8"]', (b) => getComputedStyle(b).outlineStyle);
      assert.equal(outline, 'dashed');
      await page.done();
    });

    test('scores are told from X\'s side; the old message goes when the player moves', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8.i9.h9&o=level4&s=X');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '4', null, { timeout: 30000 });
      await idle(page);
      const info = await page.textContent('#info');
      assert.match(info, /^The computer played \w+\d+ \(/);
      assert.match(info, /X \d+%|[XO] wins in \d+ pl(y|ies)|draw/);
      const free = await page.$eval('#grid', (g) => g.querySelector('[data-stone=""]').dataset.cell);
      await page.click(`#grid [data-cell="${free}"]`);
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '5');
      assert.doesNotMatch(await page.textContent('#info'), /The computer played/);
      await idle(page);
      await page.done();
    });
  });
}

describe('without JavaScript', () => {
  test('only the message shows, no dead toolbar', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${BASE}/`);
    assert.equal(await page.isVisible('noscript, .fatal'), true);
    assert.equal(await page.isVisible('#btn-new'), false);
    assert.equal(await page.isVisible('#board'), false);
    await context.close();
  });
});
