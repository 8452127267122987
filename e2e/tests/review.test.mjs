// Study, item 5: review. On 3×3 the marks are exact: every move that changes the game's exact
// outcome is a blunder and no other move is, checked against an independent minimax written
// here over a set of recorded games. On 15×15 the engine marks every move and the summary
// counts them. "Find a better move" takes the player back to a mistake and judges the try.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { idle, launch, open, shot, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// ---- the referee: plain minimax over tic-tac-toe ------------------------------------------

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const index = (cell) => (Number(cell[1]) - 1) * 3 + (cell.charCodeAt(0) - 97);
const winner = (b) => LINES.find(([p, q, r]) => b[p] !== '.' && b[p] === b[q] && b[q] === b[r]);
const memo = new Map();
/** The exact outcome for the side to move: 1 win, 0 draw, -1 loss. */
function outcome(b, toMove) {
  const key = b + toMove;
  if (memo.has(key)) return memo.get(key);
  let best;
  if (winner(b)) best = -1;
  else if (!b.includes('.')) best = 0;
  else {
    best = -1;
    for (let i = 0; i < 9; i++) {
      if (b[i] !== '.') continue;
      const next = b.slice(0, i) + toMove + b.slice(i + 1);
      best = Math.max(best, -outcome(next, toMove === 'X' ? 'O' : 'X'));
    }
  }
  memo.set(key, best);
  return best;
}

/** The plies (1-based) of a game whose move changes the exact outcome for its player. */
function outcomeChanges(moves) {
  let b = '.........';
  let toMove = 'X';
  const changes = [];
  moves.forEach((m, i) => {
    const before = outcome(b, toMove);
    b = b.slice(0, index(m)) + toMove + b.slice(index(m) + 1);
    toMove = toMove === 'X' ? 'O' : 'X';
    const afterForMover = -outcome(b, toMove);
    if (afterForMover < before) changes.push(i + 1);
  });
  return changes;
}

const GAMES = [
  'a1.b2.c3.c1.a3.a2.b3',
  'b2.a1.c3.a3.a2.c2.b3.b1',
  'b1.a1.b2.b3.c1.a3.a2',
  'a1.a2.b2.c3.b1.c1.b3',
  'c1.b2.a3.b1.b3.a2.c2.c3',
  'b2.c1.a1.c3.c2.a2.b3.b1',
];

async function reviewed(page) {
  await page.keyboard.press('r');
  await page.waitForSelector('#review[data-done="true"]', { timeout: 60000 });
  return page.$$eval('#moves li', (lis) => lis.map((li) => li.querySelector('.mark') && li.querySelector('.mark').dataset.mark));
}

for (const vp of VIEWPORTS) {
  describe(`review (${vp.name})`, () => {
    test('3×3: blunders are exactly the moves that change the exact outcome', async () => {
      for (const game of GAMES) {
        const page = await open(browser, vp, `/?r=3x3x3&m=${game}&o=human`);
        const marks = await reviewed(page);
        const moves = game.split('.');
        assert.equal(marks.length, moves.length, game);
        assert.ok(marks.every(Boolean), `${game}: every move marked`);
        const blunders = marks.flatMap((m, i) => (m === 'blunder' ? [i + 1] : []));
        assert.deepEqual(blunders, outcomeChanges(moves), `${game}: ${marks.join(' ')}`);
        // On an exact board a move is best or good unless it is a blunder.
        assert.ok(marks.every((m) => ['best', 'good', 'blunder'].includes(m)), game);
        await page.done();
      }
    });

    test('find the better move: back to the mistake, a wrong try, then the right one', async () => {
      // O's c1 (ply 4) loses: only an edge holds the draw.
      const page = await open(browser, vp, '/?r=3x3x3&m=a1.b2.c3.c1.a3.a2.b3&o=human');
      await reviewed(page);
      const summary = await page.$eval('#review-summary tr[data-player="O"] td[data-mark="blunder"]', (td) => td.textContent);
      assert.equal(summary, '1');
      await page.click('#btn-trial');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '3');
      await idle(page);
      assert.match(await page.textContent('#review-verdict'), /c1 was a blunder/);
      await page.click('#grid [data-cell="a3"]');
      await page.waitForFunction(() => /no better/.test(document.getElementById('review-verdict').textContent));
      assert.equal((await page.$eval('#board', (b) => b.dataset.ply)), '3', 'a try is not played');
      await page.click('#grid [data-cell="b1"]');
      await page.waitForFunction(() => /^Yes: b1/.test(document.getElementById('review-verdict').textContent));
      await shot(page, `${vp.name}-review-3x3`);
      await page.done();
    });

    test('15×15: the engine marks every move, the summary counts them', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8.h9.i9.g7.j10.a1.k11&o=human');
      const marks = await reviewed(page);
      assert.equal(marks.length, 7);
      assert.ok(marks.every(Boolean));
      const counted = await page.$$eval('#review-summary td[data-mark]', (tds) => tds.reduce((n, td) => n + Number(td.textContent), 0));
      assert.equal(counted, 7);
      // O's a1 ignores X's open three at ply 6: the engine calls it at least a mistake.
      assert.ok(['mistake', 'blunder'].includes(marks[5]), marks.join(' '));
      await page.done();
    });
  });
}
