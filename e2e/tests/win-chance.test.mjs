// Scores people can read (issue #27, items 1 and 2): every score the analysis shows is X's win
// chance (the engine's own score one click away), the bar shows the same chance, the graph
// covers the whole game, and the review marks the same game the same way twice (in one worker,
// then in two), with an accuracy per player and the better move at each marked one. The bar
// and graph of a won, a lost and a balanced game are kept as screenshots
// (out/e2e/*-chance-*.png).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, idle, launch, open, shot, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// Level 6 against itself (mnk match --record): O wins at move 32, X at move 27; and a balanced start.
const GAMES = {
  lost: 'i6.h8.k10.i9.j11.j8.h10.k9.l9.i12.i11.l10.m11.g9.i7.g10.k11.l11.h11.g11.g8.h9.j9.h12.m8.n7.g12.e9.f9.f10.d8.i13',
  won: 'g9.i11.j9.k11.i10.j10.h11.g12.k9.j12.k7.k8.i9.h9.m9.l9.j6.l8.i7.h8.i6.i8.j8.l10.l6.h10.m5',
  balanced: 'h8.i9.i8.g8.h9.h7.j7.g10',
};

const plies = (game) => game.split('.').length;

/** Makes the page report eight cores, so that it starts a third engine worker (web/engine.js). */
const eightCores = (page) => page.addInitScript(() => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 8 }));

/** Waits for the device's engine: until it is ready, the server answers (and no worker works). */
async function deviceReady(page) {
  await page.waitForFunction(() => globalThis.mnkEngine && globalThis.mnkEngine.engine.state === 'ready', null, { timeout: 60000 });
}

async function analysed(page) {
  await page.keyboard.press('a');
  await page.waitForFunction(() => Number(document.getElementById('board').dataset.analysisDepth) >= 3, null, { timeout: 60000 });
}

async function graphFilled(page, points) {
  await page.waitForFunction((n) => document.getElementById('eval-graph').dataset.points === String(n), points, { timeout: 120000 });
}

/**
 * The graph's image once every position has the review's value (not the analysis's): the
 * review's requests answered, a pair of positions each, and the graph drawn again.
 */
async function reviewedGraph(page, positions) {
  await graphFilled(page, positions);
  const asks = Math.ceil(positions / 2);
  await page.waitForFunction((n) => {
    const lanes = globalThis.mnkEngine.answeredByLane();
    return lanes.background + lanes.ahead >= n;
  }, asks, { timeout: 120000 });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.$eval('#eval-graph', (g) => g.toDataURL());
}

async function reviewed(page) {
  await page.keyboard.press('r');
  await page.waitForSelector('#review[data-done="true"]', { timeout: 120000 });
  const marks = await page.$$eval('#moves li', (lis) => lis.map((li) => li.querySelector('.mark')?.dataset.mark));
  const accuracy = await page.$$eval('#review-summary td[data-accuracy]', (tds) => tds.map((td) => td.dataset.accuracy));
  return { marks, accuracy };
}

for (const vp of VIEWPORTS) {
  describe(`win chance (${vp.name})`, () => {
    test("the analysis shows X's chance, the bar the same, the engine's score one click away", async () => {
      const page = await open(browser, vp, `/?r=15x15x5&m=${GAMES.balanced}&o=human`);
      await analysed(page);
      // Both read at once: the analysis goes on, and the next iteration may change them.
      const [first, barText] = await page.evaluate(() => [
        document.querySelector('#analysis-lines li .score').textContent,
        document.getElementById('evalbar').dataset.chanceX,
      ]);
      assert.match(first, /^(X \d+%|[XO] wins in \d+ pl(y|ies))$/);
      const bar = Number(barText);
      assert.ok(bar >= 0 && bar <= 1, String(bar));
      const shown = /^X (\d+)%$/.exec(first);
      // The text rounds the bar's chance (kept off 0% and 100% while unproven).
      if (shown) assert.ok(Math.abs(Number(shown[1]) - Math.min(99, Math.max(1, Math.round(bar * 100)))) <= 1, `${first} against ${bar}`);
      assert.equal(await page.$$eval('#analysis-lines .raw', (els) => els.length), 0);
      await page.click('#btn-raw');
      await page.waitForSelector('#analysis-lines .raw');
      assert.match(await page.textContent('#analysis-lines li .raw'), /^([+-]?\d+|win in \d+|loss in \d+|draw)/);
      assert.equal(await page.getAttribute('#btn-raw', 'aria-pressed'), 'true');
      await page.click('#btn-raw');
      await page.waitForFunction(() => !document.querySelector('#analysis-lines .raw'));
      // Candidates on the board carry chances, not raw scores.
      const labels = await page.$$eval('#analysis-lines li', (lis) => lis.length);
      assert.ok(labels >= 1);
      await page.done();
    });

    const twice = vp === VIEWPORTS[0];
    test(`the graph covers the whole game, not only the positions analysed${twice ? ', in one worker and in two' : ''}`, async () => {
      const positions = plies(GAMES.balanced) + 1;
      const page = await open(browser, vp, `/?r=15x15x5&m=${GAMES.balanced}&o=human`);
      await analysed(page);
      if (!twice) {
        await graphFilled(page, positions);
        await page.done();
        return;
      }
      const one = await reviewedGraph(page, positions);
      await page.done();
      // As on a device of eight cores, where a third worker fills the graph from its end: the
      // same graph. On the desktop only, as the second review below.
      const again = await open(browser, vp, `/?r=15x15x5&m=${GAMES.balanced}&o=human`, { setup: eightCores });
      await deviceReady(again);
      await analysed(again);
      assert.equal(await reviewedGraph(again, positions), one, 'the same graph');
      const lanes = await again.evaluate(() => globalThis.mnkEngine.answeredByLane());
      assert.ok(lanes.ahead >= 1 && lanes.background >= 1, JSON.stringify(lanes));
      await again.done();
    });

    test(`a review marks every move${twice ? ', the same way twice,' : ''} with accuracy and the better move`, async () => {
      const url = `/?r=15x15x5&m=${GAMES.lost}&o=human`;
      const page = await open(browser, vp, url);
      const first = await reviewed(page);
      assert.equal(first.marks.length, plies(GAMES.lost));
      assert.ok(first.marks.every(Boolean), first.marks.join(' '));
      for (const a of first.accuracy) assert.ok(Number(a) >= 0 && Number(a) <= 100, a);
      assert.match(await page.textContent('#review-summary tr[data-player="X"]'), /\d+\.\d%/);
      // The last move made five: the engine's own move.
      assert.equal(first.marks[first.marks.length - 1], 'best');
      // A marked move says what was better, and the line.
      const worse = first.marks.findIndex((m) => ['inaccuracy', 'mistake', 'blunder'].includes(m));
      if (worse >= 0) {
        await page.click(`#moves li[data-ply="${worse + 1}"] .go`);
        await page.waitForFunction((n) => document.getElementById('board').dataset.ply === String(n), worse + 1);
        const said = await page.textContent('#review-move');
        assert.match(said, new RegExp(`^${worse + 1}\\. [XO] \\w+\\d+: (inaccuracy|mistake|blunder)\\. Better was \\w+\\d+ \\(`), said);
      }
      await page.done();
      // The second review checks the engine's determinism, which no viewport changes: once is
      // enough. It is made as on a device of eight cores, where a third worker takes the game
      // from its last move back: the marks must be those of one worker.
      if (!twice) return;
      const again = await open(browser, vp, url, { setup: eightCores });
      await deviceReady(again);
      const second = await reviewed(again);
      assert.deepEqual(second, first, 'the same marks and accuracy on a second review, in two workers');
      const lanes = await again.evaluate(() => globalThis.mnkEngine.answeredByLane());
      assert.ok(lanes.ahead >= 1 && lanes.background >= 1, JSON.stringify(lanes));
      assert.equal(lanes.ahead + lanes.background, plies(GAMES.lost), JSON.stringify(lanes));
      await again.done();
    });

    test('the text of a trial matches its mark', async () => {
      // O's a1 ignores X's open three: a blunder, and the trial says so.
      const page = await open(browser, vp, '/?r=15x15x5&m=h8.h9.i9.g7.j10.a1.k11&o=human');
      const { marks } = await reviewed(page);
      assert.ok(['mistake', 'blunder'].includes(marks[5]), marks.join(' '));
      // The trial starts at the first mistake or blunder of the game.
      const first = marks.findIndex((m) => ['mistake', 'blunder'].includes(m));
      const cell = 'h8.h9.i9.g7.j10.a1.k11'.split('.')[first];
      await page.click('#btn-trial');
      await page.waitForFunction((n) => document.getElementById('board').dataset.ply === String(n), first);
      await idle(page);
      assert.match(await page.textContent('#review-verdict'), new RegExp(`${cell} was a ${marks[first]}\\.`));
      await page.done();
    });

    test('bar and graph of a won, a lost and a balanced game', async () => {
      for (const [name, game] of Object.entries(GAMES)) {
        const page = await open(browser, vp, `/?r=15x15x5&m=${game}&o=human`);
        await reviewed(page);
        await page.keyboard.press('a');
        await graphFilled(page, plies(game) + 1);
        // Step back from the end, so that the bar of an unfinished position shows too.
        await page.keyboard.press('ArrowLeft');
        await page.waitForFunction((n) => document.getElementById('board').dataset.ply === String(n), plies(game) - 1);
        await page.waitForFunction(() => document.getElementById('evalbar').dataset.chanceX !== undefined, null, { timeout: 60000 });
        const chance = Number(await page.$eval('#evalbar', (el) => el.dataset.chanceX));
        if (name === 'won') assert.ok(chance > 0.5, `won: ${chance}`);
        if (name === 'lost') assert.ok(chance < 0.5, `lost: ${chance}`);
        // The bar eases to its width; on a phone the panel is below the board.
        await page.$eval('#analysis', (el) => el.scrollIntoView({ block: 'center' }));
        await page.waitForTimeout(400);
        await shot(page, `${vp.name}-chance-${name}`);
        await page.done();
      }
    });

    // One language a viewport: the words are the same on either.
    const [language, locale, accuracy] = vp === VIEWPORTS[0] ? ['Polish', 'pl-PL', 'Dokładność'] : ['Russian', 'ru-RU', 'Точность'];
    test(`the words in ${language}`, async () => {
      const page = await open(browser, vp, `/?r=15x15x5&m=${GAMES.balanced}&o=human`, { locale });
      await reviewed(page);
      assert.match(await page.textContent('#review-summary'), new RegExp(accuracy));
      await analysed(page);
      assert.match(await page.textContent('#analysis-lines li .score'), /^(X \d+%|[XO] (wygrywa|выигрывает))/);
      assert.equal((await board(page)).analysis !== 'off', true);
      await page.done();
    });
  });
}
