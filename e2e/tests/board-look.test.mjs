// Study, item 7: the board's look. Stones on the intersections with star points (the gomoku
// look) beside X and O in the cells; the last move and the winning line stay clear in both. The
// winning line goes under the move numbers, and a candidate's label stays within its cell.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, idle, launch, open, play, shot, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The colour the canvas shows at the centre of a cell: [r, g, b]. */
async function pixelAt(page, cell) {
  return page.$eval(
    '#canvas',
    (canvas, cell) => {
      const button = document.querySelector(`#grid [data-cell="${cell}"]`).getBoundingClientRect();
      const box = canvas.getBoundingClientRect();
      const k = canvas.width / box.width;
      const x = Math.round((button.left + button.width / 2 - box.left) * k);
      const y = Math.round((button.top + button.height / 2 - box.top) * k);
      return Array.from(canvas.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3));
    },
    cell,
  );
}

/** The board drawn as it stands: after the frames already asked for. */
const drawn = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/**
 * Counts the canvas pixels of a square around a cell's centre (`reach` of the cell's width either
 * way) that `kind` picks: 'light' (a white number on a black stone), 'dark' (ink on the board).
 */
function countPixels(page, cell, kind, reach) {
  return page.$eval(
    '#canvas',
    (canvas, [cell, kind, reach]) => {
      const button = document.querySelector(`#grid [data-cell="${cell}"]`).getBoundingClientRect();
      const box = canvas.getBoundingClientRect();
      const k = canvas.width / box.width;
      const half = Math.floor(button.width * reach * k);
      const x = Math.round((button.left + button.width / 2 - box.left) * k) - half;
      const y = Math.round((button.top + button.height / 2 - box.top) * k) - half;
      const data = canvas.getContext('2d').getImageData(x, y, 2 * half, 2 * half).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
        if (kind === 'light' ? r > 200 && g > 200 && b > 200 : r + g + b < 450) n += 1;
      }
      return n;
    },
    [cell, kind, reach],
  );
}

const near = (a, b, tolerance = 40) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);
const hex = (s) => [1, 3, 5].map((i) => parseInt(s.trim().slice(i, i + 2), 16));

for (const vp of VIEWPORTS) {
  describe(`board look (${vp.name})`, () => {
    test('stones on intersections, X black and O white; last move and win stay clear', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8.a1.i8.a2.j8.a3.k8.a4&o=human');
      const colours = await page.evaluate(() => {
        const cs = getComputedStyle(document.documentElement);
        return Object.fromEntries(['x', 'black', 'white', 'last'].map((n) => [n, cs.getPropertyValue(`--c-${n}`)]));
      });
      // Cells: the X's stroke crosses the cell's centre.
      await drawn(page);
      assert.ok(near(await pixelAt(page, 'h8'), hex(colours.x)), 'an X in the cells look');

      await page.selectOption('#sel-look', 'stones');
      await page.waitForFunction(() => document.getElementById('board').dataset.look === 'stones');
      await drawn(page);
      assert.ok(near(await pixelAt(page, 'h8'), hex(colours.black)), 'X is a black stone');
      assert.ok(near(await pixelAt(page, 'a1'), hex(colours.white)), 'O is a white stone');
      assert.ok(near(await pixelAt(page, 'a4'), hex(colours.last)), 'the last move is marked on its stone');

      // The win: its line is highlighted in the stones look too.
      await play(page, 'l8', vp);
      assert.equal((await board(page)).status, 'win');
      assert.equal((await board(page)).line, 'h8 i8 j8 k8 l8');
      await shot(page, `${vp.name}-stones-look-win`);
      // The choice is kept for the next visit.
      const again = await open(browser, vp, '/?r=15x15x5&m=h8&o=human');
      assert.equal(await again.inputValue('#sel-look'), 'cells', 'a new browser context starts from the default');
      await again.done();
      await page.reload();
      await page.waitForSelector('#board[data-look="stones"]');
      await page.done();
    });

    test('the winning line goes under the move numbers', async () => {
      // X's five a1..e1; c1 is X's third stone, move 5, a white 5 on a black stone.
      const page = await open(browser, vp, '/?r=9x9x5&m=a1.a9.b1.b9.c1.c9.d1.d9.e1&p=8&o=human', { settings: { look: 'stones', numbers: true } });
      assert.equal((await board(page)).status, 'ongoing');
      await drawn(page);
      // Within 0.3 of a cell of the centre: the stone and its number only.
      const before = await countPixels(page, 'c1', 'light', 0.3);
      assert.ok(before > 20, `the number is drawn (${before} pixels)`);
      await page.click('#nav-end');
      await idle(page);
      assert.equal((await board(page)).line, 'a1 b1 c1 d1 e1');
      await drawn(page);
      const after = await countPixels(page, 'c1', 'light', 0.3);
      // The line crosses the stone's centre: drawn over the number, it would hide a third of it.
      assert.ok(after >= 0.92 * before, `the number is whole on the line: ${after} of ${before} pixels`);
      await shot(page, `${vp.name}-win-line-numbers`);
      await page.done();
    });

    test("a candidate's label stays within its cell", async () => {
      const page = await open(browser, vp, '/?r=9x9x5&m=a1&o=human');
      await drawn(page);
      // The board's own drawing of candidates, given labels from short to longer than a cell.
      const draw = (text) =>
        page.evaluate(async (label) => {
          const { board: view } = await import('/view.js');
          view.candidates = [{ x: 4, y: 4, text: label }];
          view.draw();
        }, text);
      const neighbours = async () => (await countPixels(page, 'd5', 'dark', 0.42)) + (await countPixels(page, 'f5', 'dark', 0.42));
      assert.equal(await neighbours(), 0, 'nothing beside e5 before');
      for (const text of ['63%', 'X 1234', 'O wins in 23']) {
        await draw(text);
        assert.equal(await neighbours(), 0, `"${text}" stays in e5`);
      }
      // A label that fits, and one shrunk to fit, are written (the frame alone leaves the lower
      // middle of the cell empty).
      for (const text of ['63%', 'X 1234']) {
        await draw(text);
        const ink = await page.$eval('#canvas', (canvas) => {
          const button = document.querySelector('#grid [data-cell="e5"]').getBoundingClientRect();
          const box = canvas.getBoundingClientRect();
          const k = canvas.width / box.width;
          const x = Math.round((button.left + button.width * 0.25 - box.left) * k);
          const y = Math.round((button.top + button.height * 0.6 - box.top) * k);
          const data = canvas.getContext('2d').getImageData(x, y, Math.round(button.width * 0.5 * k), Math.round(button.height * 0.3 * k)).data;
          let n = 0;
          for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 450) n += 1;
          return n;
        });
        assert.ok(ink > 5, `"${text}" is written (${ink} pixels)`);
      }
      await page.done();
    });
  });
}
