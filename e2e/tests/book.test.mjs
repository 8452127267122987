// Study: the solved opening books shipped in the server. On 7×7×5 after X's book move d4 the
// book holds every reply of O, so exact mode colours all 48 free cells at once without the
// solver and says the values came from the book (7×7×5 is a draw: books/7x7x5.book, written by
// `mnk solve 7 7 5 --book`); the explorer marks the same values as the book's. The book also
// holds every first move, so the empty board is coloured at once, not after the solver's 4 s;
// where the solver does run out of time the legend says only that the book's part is shown.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, LANGUAGES, launch, open, say, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const vp of VIEWPORTS) {
  describe(`solved opening book (${vp.name})`, () => {
    test('7×7×5 after d4: every free cell from the shipped book, said in words', async () => {
      const page = await open(browser, vp, '/?r=7x7x5&m=d4&o=human');
      await page.keyboard.press('e');
      await page.waitForFunction(() => document.getElementById('legend').dataset.state === 'solved', null, { timeout: 30000 });
      assert.equal(await page.getAttribute('#legend', 'data-source'), 'book');
      assert.equal((await board(page)).exactCells, '48');
      const legend = await page.textContent('#legend');
      assert.match(legend, /The position: draw\./);
      assert.match(legend, /From the solved opening book/);
      // O's replies next to X's stone hold the draw (every line of the book is a draw for O).
      const values = Object.fromEntries((await board(page)).exact.split(' ').map((e) => e.split(':')));
      assert.equal(values.c3, 'draw');

      await page.keyboard.press('g');
      await page.waitForSelector('#explorer-tree .xnote[data-state="book"]', { timeout: 30000 });
      assert.match(await page.textContent('#explorer-tree .xnote[data-state="book"]'), /solved opening book/);
      await page.done();
    });

    for (const { lang, locale, dict } of LANGUAGES) {
      test(`7×7×5's empty board: every first move from the book at once (${lang})`, async () => {
        const page = await open(browser, vp, '/?r=7x7x5&o=human', { locale });
        await page.keyboard.press('e');
        await page.waitForFunction(() => document.getElementById('legend').dataset.state === 'solved', null, { timeout: 30000 });
        // The solver alone is given 4 s and does not prove this board in them: solved, every
        // cell, from the book (not how long it took, which a loaded machine stretches).
        assert.equal(await page.getAttribute('#legend', 'data-source'), 'book');
        const b = await board(page);
        assert.equal(b.exactCells, '49');
        assert.ok(b.exact.split(' ').every((e) => e.endsWith(':draw')), b.exact);
        const legend = await page.textContent('#legend');
        assert.ok(legend.includes(say(dict, 'exactFromBook')), legend);
        assert.ok(legend.includes(say(dict, 'exactLegend', { p: 'X' })), legend);
        assert.ok(!legend.includes(say(dict, 'exactPartial', { p: 'X' })), legend);
        await page.done();
      });

      test(`the book's part after the solver ran out of time is not "without searching" (${lang})`, async () => {
        // The server's answer when its solver ran out of time on a book position: the book's move.
        // Routed before the page loads, so that no request of the page can pass the route.
        const setup = (p) =>
          p.route('**/api/solve', (route) =>
            route.fulfill({
              contentType: 'application/json',
              body: JSON.stringify({
                value: { kind: 'draw', text: 'draw', expect: 0.5 },
                best: 'd3',
                nodes: 0,
                time_ms: 4001,
                moves: [{ cell: 'd3', x: 3, y: 2, value: { kind: 'draw', text: 'draw', expect: 0.5 } }],
                source: 'book',
                partial: true,
              }),
            }),
          );
        const page = await open(browser, vp, '/?r=7x7x5&m=d4.c3&o=human', { locale, thinking: 'server', setup, routed: true });
        await page.keyboard.press('e');
        await page.waitForFunction(() => document.getElementById('legend').dataset.state === 'solved', null, { timeout: 30000 });
        assert.equal((await board(page)).exact, 'd3:draw');
        const legend = await page.textContent('#legend');
        assert.ok(legend.startsWith(say(dict, 'exactPartial', { p: 'X' })), legend);
        assert.ok(!legend.includes(say(dict, 'exactFromBook')), legend);
        await page.done();
      });
    }
  });
}
