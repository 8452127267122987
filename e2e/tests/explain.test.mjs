// "How did it choose?": after the computer's move, the bot's explanation of that very move (the
// same request and seed), one view per bot: the rule player's rule and numbered squares, the
// line counter's alpha-beta trace stepped through, the perfect player's line, the attack weights'
// sums, the engine's iterations, threat sequence, root moves and principal path (for its moves
// and for the hint). Screenshots of each view land in out/e2e.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, idle, launch, open, shot, stones as stonesOn, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Opens the view for the computer's last move and waits for its explanation (or refusal). */
async function explain(page) {
  await page.waitForSelector('#btn-explain:not([hidden])');
  await page.click('#btn-explain');
  await page.waitForSelector('#dlg-explain[open]');
  await page.waitForFunction(() => document.getElementById('dlg-explain').dataset.kind !== '');
  return page.$eval('#dlg-explain', (d) => d.dataset.kind);
}

const text = (page, sel) => page.textContent(sel);

for (const vp of VIEWPORTS) {
  describe(`explain (${vp.name})`, () => {
    test('the line counter: its alpha-beta tree step by step, to the chosen move', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&m=a1.b2&o=alphabeta:2&s=O');
      const b = await board(page);
      assert.equal(b.ply, '3', 'the computer played');
      assert.equal(await explain(page), 'alphabeta');
      assert.match(await text(page, '.explain-counts'), /Depth 2: \d+ positions searched/);
      assert.equal(await page.$eval('#ex-panel', (p) => p.dataset.step), '0');
      assert.equal(await text(page, '#ex-alpha'), '−∞');
      assert.equal(await text(page, '#ex-beta'), '+∞');
      assert.equal(await text(page, '#ex-value'), '…');
      // Into the tree: the first child's window, then its first leaf's value and terms.
      await page.click('#ex-forward');
      await page.click('#ex-forward');
      assert.equal(await page.$eval('#ex-panel', (p) => p.dataset.kind), 'leaf');
      assert.match(await text(page, '#ex-value'), /^-?\d+$/);
      assert.ok((await page.$$('#ex-terms tbody tr')).length >= 2, 'a leaf shows its terms');
      const alphas = new Set();
      const values = new Set();
      for (let i = 0; i < 12; i++) {
        await page.click('#ex-forward');
        alphas.add(await text(page, '#ex-alpha'));
        values.add(await text(page, '#ex-value'));
      }
      assert.ok(alphas.size > 1 || (await page.$('#ex-cut')), 'alpha changes as the search goes');
      assert.ok(values.size > 1, 'the values change');
      const at = Number(await page.$eval('#ex-panel', (p) => p.dataset.step));
      await page.click('#ex-back');
      assert.equal(await page.$eval('#ex-panel', (p) => p.dataset.step), String(at - 1));
      await shot(page, `explain-alphabeta-${vp.name}`);
      await page.click('#ex-last');
      const chosen = await text(page, '#ex-chosen');
      assert.match(chosen, /The bot chose [a-c][1-3]/);
      const stones = await page.$$eval('#grid [data-stone]:not([data-stone=""])', (els) => els.map((e) => e.dataset.cell));
      const cell = /chose ([a-c][1-3])/.exec(chosen)[1];
      assert.ok(stones.includes(cell) && !['a1', 'b2'].includes(cell), `the chosen move ${cell} is the move played`);
      assert.equal(await page.$('.explain-body .warn'), null, 'the explained move is the move played');
      // Played back from the start, the trace moves on by itself.
      await page.click('#ex-first');
      await page.selectOption('#ex-speed', '100');
      await page.click('#ex-play');
      await page.waitForFunction(() => Number(document.getElementById('ex-panel').dataset.step) > 5);
      assert.ok((await page.$$('#ex-panel *')).length < 200, 'only the step shown is drawn');
      await page.click('#explain-close');
      await page.done();
    });

    test('the rule player: the rule that fired and the nine numbered squares', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&m=a1.b2.c3&o=rules&s=X');
      assert.equal(await explain(page), 'rules');
      assert.match(await text(page, '.explain-rule strong'), /^(Win|Block|Fork reply|Centre|Corner|Side)\.$/);
      const marks = await page.$$eval('.mini-board.squares .mini-mark', (els) => els.map((e) => Number(e.textContent)));
      assert.deepEqual([...marks].sort((a, b) => a - b), [1, 2, 4, 8, 16, 32, 64, 128, 256]);
      assert.equal((await page.$$('.explain-table.ex-rows tbody tr')).length, 8, 'the eight lines with their sums');
      await shot(page, `explain-rules-${vp.name}`);
      await page.done();
    });

    test('the perfect player: the line of best play and every move', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&m=a1.b2.c3&o=perfect&s=X');
      assert.equal(await explain(page), 'perfect');
      assert.match(await text(page, '.explain-rule'), /draw — no move wins/);
      assert.ok((await page.$$('#ex-line li')).length >= 5, 'the line plays to the end');
      assert.equal((await page.$$('.explain-table.ex-moves tbody tr')).length, 6);
      await shot(page, `explain-perfect-${vp.name}`);
      // Into the explorer: the position the computer chose in, its moves with the same values.
      const values = await page.$$eval('.explain-table.ex-moves tbody tr', (rows) => rows.map((r) => r.cells[0].textContent));
      await page.click('#ex-explore');
      await page.waitForSelector('#dlg-explain', { state: 'hidden' });
      await page.waitForSelector('#explorer:not([hidden]) #explorer-tree[data-ready="true"]', { timeout: 30000 });
      assert.equal(await page.textContent('#explorer-root'), 'From the position after a1 b2 c3');
      const root = await page.$$eval('#explorer-tree > [role="treeitem"] > ul > [role="treeitem"]', (items) => items.map((li) => li.dataset.key.split(' ').pop()));
      assert.deepEqual([...root].sort(), [...values].sort());
      await page.done();
    });

    test('the hint: explained by its bot (the perfect player on 3×3)', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&m=a1.b2&o=rules&s=X');
      await page.keyboard.press('h');
      await page.waitForFunction(() => document.getElementById('board').dataset.hint !== '');
      const hint = (await board(page)).hint;
      assert.equal(await explain(page), 'perfect');
      assert.equal(await text(page, '#dlg-explain-title'), `Why the hint ${hint}?`);
      assert.match(await text(page, '#ex-line li'), new RegExp(`X ${hint} — `));
      await page.done();
    });

    test('a move the computer made for the player (D) is explained too', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&m=a1.b2&o=human');
      await page.keyboard.press('d');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '3');
      await idle(page);
      assert.equal(await explain(page), 'perfect');
      await page.done();
    });

    test('the attack weights: the chosen cell and the runners-up, summed', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8.i9.h9&o=level2&s=X');
      assert.equal(await explain(page), 'weights');
      const cells = await page.$$('.explain-cell');
      assert.ok(cells.length >= 2, 'the chosen cell and runners-up');
      assert.match(await text(page, '.explain-cell[open]'), /power \d, potential \d, ÷\d/);
      assert.match(await text(page, '.explain-cell[open]'), /The cell’s weight: [\d.]+ \+ [\d.]+ = [\d.]+/);
      await shot(page, `explain-weights-${vp.name}`);
      await page.done();
    });

    test('the engine (level 5): iterations, the moves compared, the principal path', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8&o=level5&s=X');
      assert.equal(await explain(page), 'engine');
      const played = Object.entries(await stonesOn(page)).find(([, p]) => p === 'O')[0];
      assert.match(await text(page, '#ex-ended'), new RegExp(`The engine chose ${played}: `));
      const ended = await page.$eval('#ex-ended', (p) => p.dataset.ended);
      assert.ok(['depth', 'nodes', 'proven', 'forced'].includes(ended), ended);
      // One row an iteration, depths 1, 2, …; the last is the answer.
      const depths = await page.$$eval('#ex-iterations tbody tr td:first-child', (tds) => tds.map((d) => Number(d.textContent)));
      assert.ok(depths.length >= 2, `${depths}`);
      assert.deepEqual(depths, depths.map((_, i) => i + 1));
      // Its time says how long the search took (its caps, not the clock, ended it): thousands
      // of positions take some milliseconds.
      const ms = await page.$eval('#ex-iterations tbody tr:last-child td:last-child', (td) => Number(td.textContent));
      assert.ok(ms > 0, `${ms} ms`);
      assert.match(await text(page, '#ex-iterations tbody tr.fired'), /X\s\d+%|wins/);
      // The moves compared: the one played highlighted, in the table and ringed on the board.
      assert.equal(await text(page, '#ex-candidates tr.fired td:nth-child(2)'), played);
      assert.ok((await page.$$('#ex-candidates tbody tr')).length >= 3);
      assert.equal(await page.$$eval('#ex-candidates-board .mini-mark', (m) => m.length) >= 3, true);
      assert.equal(await page.$$eval('#ex-candidates-board .focus', (f) => f.length), 1);
      // The principal path: the first position after the move, with the moves searched there.
      assert.ok((await page.$$('#ex-path details')).length >= 1);
      assert.match(await text(page, '#ex-path details[open] summary'), new RegExp(`After O ${played}: X to move`));
      assert.equal(await page.$('.explain-body .warn'), null, 'the explained move is the move played');
      // Nothing wider than the screen.
      const overflow = await page.$eval('#dlg-explain', (d) => d.scrollWidth - d.clientWidth);
      assert.ok(overflow <= 1, `${overflow} px too wide`);
      await shot(page, `explain-engine-${vp.name}`);
      await page.click('#explain-close');
      // X opens it from the keyboard.
      await page.keyboard.press('x');
      await page.waitForSelector('#dlg-explain[open]');
      await page.waitForFunction(() => document.getElementById('dlg-explain').dataset.kind !== '');
      assert.equal(await page.$eval('#dlg-explain', (d) => d.dataset.kind), 'engine', await text(page, '#explain-body'));
      await page.done();
    });

    test('the engine at level 6 on 15×15: a timed move explained, the view light and quick', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8.i9.h9.i8.i10&o=level6&s=X');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '6', null, { timeout: 30000 });
      await idle(page);
      assert.equal(await explain(page), 'engine');
      const ended = await page.$eval('#ex-ended', (p) => p.dataset.ended);
      assert.ok(['time', 'time_plan', 'proven', 'forced', 'threat'].includes(ended), ended);
      // The move's own limit: the time left when its search began, of the second a move gets.
      assert.match(await text(page, '.explain-engine'), /Searched within: \d{3,4} ms\./);
      // Bounded: a few hundred elements, drawn at once; the page still answers at once.
      assert.ok((await page.$$('#dlg-explain *')).length < 1500, 'the trace is bounded');
      const ms = await page.evaluate(() => {
        const t0 = performance.now();
        document.querySelector('#ex-path details:last-of-type')?.setAttribute('open', '');
        document.body.offsetHeight;
        return performance.now() - t0;
      });
      // Generous for a loaded machine: a trace too large to be bounded takes seconds.
      assert.ok(ms < 1000, `${ms} ms to open a node`);
      const overflow = await page.$eval('#dlg-explain', (d) => d.scrollWidth - d.clientWidth);
      assert.ok(overflow <= 1, `${overflow} px too wide`);
      await shot(page, `explain-engine-level6-${vp.name}`);
      await page.done();
    });
  });
}

test('level 3 on 15×15: a large tree, drawn one step at a time', async () => {
  const page = await open(browser, VIEWPORTS[0], '/?r=15x15x5&m=h8.i9.h9&o=level3&s=X');
  assert.equal(await explain(page), 'alphabeta');
  assert.match(await text(page, '.explain-body'), /Only the 12 cells/);
  const steps = Number(await page.$eval('#ex-range', (r) => r.max)) + 1;
  assert.ok(steps > 100, `${steps} steps`);
  await page.click('#ex-last');
  const chosen = await text(page, '#ex-chosen');
  const cell = /chose ([a-o]\d+)/.exec(chosen)[1];
  assert.equal((await stonesOn(page))[cell], 'O', `the chosen ${cell} is O's move`);
  assert.ok((await page.$$('#dlg-explain *')).length < 1500, 'the trace is not drawn whole');
  await shot(page, 'explain-alphabeta-level3');
  await page.done();
});

test('in Polish and Russian', async () => {
  const vp = VIEWPORTS[1];
  const page = await open(browser, vp, '/?r=3x3x3&m=a1.b2.c3&o=rules&s=X', { locale: 'pl-PL' });
  assert.equal((await text(page, '#btn-explain')).trim(), 'Jak wybrał?');
  await explain(page);
  assert.match(await text(page, '.explain-rule strong'), /^(Wygrana|Blokada|Odpowiedź na widełki|Środek|Róg|Bok)\.$/);
  await shot(page, 'explain-rules-pl');
  await page.done();
  const ru = await open(browser, vp, '/?r=15x15x5&m=h8&o=level5&s=X', { locale: 'ru-RU' });
  assert.equal(await explain(ru), 'engine');
  assert.match(await text(ru, '#ex-ended'), /Движок выбрал [a-o]\d+: /);
  assert.match(await text(ru, '.explain-engine h3'), /Итерации/);
  await shot(ru, 'explain-engine-ru');
  await ru.done();
});

test('the engine: a threat sequence drawn and listed', async () => {
  // X, the computer, has an open three: a win by continuous fours, found before any tree search.
  const page = await open(browser, VIEWPORTS[0], '/?r=15x15x5&m=h8.a1.i8.a2.j8.a3&o=level5&s=O');
  await page.waitForFunction(() => document.getElementById('board').dataset.ply === '7');
  assert.equal(await explain(page), 'engine');
  assert.equal(await page.$eval('#ex-ended', (p) => p.dataset.ended), 'threat');
  assert.match(await text(page, '.explain-engine h3'), /continuous fours \(VCF\) for X/);
  const steps = await page.$$eval('#ex-threat li', (li) => li.map((l) => l.textContent));
  assert.ok(steps.length >= 1, `${steps}`);
  assert.match(steps[0], /^X [a-o]\d+$/);
  if (steps.length > 1) assert.match(steps[1], /^O [a-o]\d+ — forced reply$/);
  await shot(page, 'explain-engine-threat');
  await page.done();
});

test('the engine: the opponent’s threat and the only moves that stop it', async () => {
  const page = await open(browser, VIEWPORTS[1], '/?r=15x15x5&m=i8.f11.j5.g9.j8.g5.e7.f5.k5.f6.h9.i10.h5.k11.i9.k8.g7&o=level4&s=X');
  await page.waitForFunction(() => document.getElementById('board').dataset.ply === '18');
  assert.equal(await explain(page), 'engine');
  assert.match(await text(page, '.explain-defences'), /^Given a free move, X would win by continuous fours \(X i5 · O .*\): only i5, l5 stop it/);
  assert.equal((await page.$$('#ex-candidates tbody tr')).length, 2);
  await shot(page, 'explain-engine-defences-phone');
  await page.done();
});

test('the hint on 15×15 is the engine: its button explains it', async () => {
  const page = await open(browser, VIEWPORTS[1], '/?r=15x15x5&m=h8.i9&o=level2&s=X');
  await page.keyboard.press('h');
  await page.waitForFunction(() => document.getElementById('board').dataset.hint !== '', null, { timeout: 30000 });
  const hint = (await board(page)).hint;
  assert.equal(await explain(page), 'engine');
  assert.equal(await text(page, '#dlg-explain-title'), `Why the hint ${hint}?`);
  assert.ok((await page.$$('#ex-iterations tbody tr')).length >= 1);
  await page.done();
});
