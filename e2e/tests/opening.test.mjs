// Swap2 openings: against a bot from either seat, and between two people on one device. The
// stones are placed by clicks, the choice is made in the panel beside the board, the computer
// takes its part through POST /api/opening, and the colours that follow are the ones chosen;
// between two people the page says who took which colour, and names them in the status.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, idle, LANGUAGES, launch, open, play, say, shot, stones, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const status = (page) => page.textContent('#status');
const panelShown = (page) => page.isVisible('#swap');

/** Free cells of the board's corners, for stones whose place does not matter to the test. */
async function freeCorners(page) {
  const taken = await stones(page);
  return ['a1', 'o1', 'a15', 'o15', 'b2', 'n14'].filter((c) => !taken[c]);
}

for (const vp of VIEWPORTS) {
  describe(`swap2 openings (${vp.name})`, () => {
    test('against a bot, you open: three stones, the computer chooses, play goes on', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=level6&w=swap2&e=opener');
      assert.match(await status(page), /You: opening stones, 3 to place \(next: X\)/);
      await play(page, 'h8', vp);
      assert.match(await status(page), /You: opening stones, 2 to place \(next: O\)/);
      await play(page, 'j10', vp);
      await play(page, 'd12', vp);
      await idle(page);
      const info = await page.textContent('#info');
      assert.match(info, /The computer (took X|took O and played|placed two more stones)/);
      if (await panelShown(page)) {
        // It placed two: the choice is ours now, as the opener.
        assert.equal((await board(page)).ply, '5');
        assert.match(await page.textContent('#swap-title'), /You: choose a colour/);
        await page.click('#swap-black');
        await idle(page);
      }
      assert.match(await status(page), /Your move/);
      // The opening is not taken back.
      const ply = (await board(page)).ply;
      await page.click('#btn-undo');
      await idle(page);
      assert.equal((await board(page)).ply, ply);
      // The link keeps the opening, its decisions and the seat.
      assert.match(page.url(), /w=swap2/);
      assert.match(page.url(), /e=opener/);
      assert.match(page.url(), /d=(black|white|place-two)/);
      await page.done();
    });

    test('against a bot, you choose: the computer opens, you place two, it chooses', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=level6&w=swap2&e=chooser');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '3');
      await idle(page);
      assert.match(await page.textContent('#info'), /The computer placed the opening stones/);
      assert.ok(await panelShown(page));
      assert.match(await page.textContent('#swap-title'), /You: choose a colour/);
      const options = await page.$$eval('#swap-options button', (els) => els.map((e) => e.textContent));
      assert.deepEqual(options, ['Take X', 'Take O and play the next stone', 'Place two more stones']);
      await shot(page, `${vp.name}-swap2-choice`);
      await page.click('#swap-place-two');
      await idle(page);
      assert.ok(!(await panelShown(page)));
      assert.match(await status(page), /You: opening stones, 2 to place \(next: O\)/);
      const [first, second] = await freeCorners(page);
      await play(page, first, vp);
      await play(page, second, vp);
      await idle(page);
      assert.match(await page.textContent('#info'), /The computer (took X|took O and played)/);
      const b = await board(page);
      assert.ok(['5', '6'].includes(b.ply), b.ply);
      assert.match(await status(page), /Your move \((X|O)\)/);
      // The colour we play is the one the computer left us.
      const ours = (await status(page)).match(/Your move \((X|O)\)/)[1];
      assert.equal(b.toMove, ours);
      await page.done();
    });

    test('the new-game dialog starts a swap2 game with a seat, and refuses it for tic-tac-toe', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&o=human');
      await page.click('#btn-new');
      await page.selectOption('#f-opening', 'swap2');
      assert.ok(await page.isVisible('#f-seat') === false, 'no seat for two people');
      await page.selectOption('#f-opponent', 'level3');
      assert.ok(await page.isVisible('#f-seat'));
      assert.ok(!(await page.isVisible('#f-side')));
      await page.click('#f-start');
      assert.match(await page.textContent('#f-error'), /A swap opening needs lines of 4 or more/);
      await page.selectOption('#f-preset', 'gomoku15');
      await page.check('input[name="seat"][value="chooser"]');
      await page.click('#f-start');
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '3');
      await idle(page);
      assert.match(await page.textContent('#game-title'), /swap2/);
      assert.ok(await panelShown(page));
      assert.match(page.url(), /e=chooser/);
      await page.done();
    });

    test('a link whose choice comes before its stones is refused with the reason', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=human&w=swap2&d=white');
      assert.match(await page.textContent('#link-error-text'), /could not be restored: the decision comes after 3 stones, and there are 0/);
      assert.doesNotMatch(page.url(), /w=swap2/);
      await page.done();
    });

    for (const { lang, locale, dict } of LANGUAGES) {
      test(`two people: who took which colour is said, and the status names them (${lang})`, async () => {
        const page = await open(browser, vp, '/?r=15x15x5&o=human&w=swap2', { locale });
        for (const cell of ['h8', 'h9', 'j10']) await play(page, cell, vp);
        await page.click('#swap-white');
        await idle(page);
        const [one, two] = [say(dict, 'openingPlayer1'), say(dict, 'openingPlayer2')];
        assert.equal(await page.textContent('#info'), say(dict, 'openingTook', { who: two, p: 'O', other: one, q: 'X' }));
        assert.equal(await status(page), say(dict, 'playerToMoveSeat', { p: 'O', who: two }));
        await play(page, 'g7', vp);
        assert.equal(await status(page), say(dict, 'playerToMoveSeat', { p: 'X', who: one }));
        // Player 1 (X) makes five: the result names them too.
        await page.goto(page.url().replace(/&m=[^&]*/, '&m=h8.h9.j10.g7.i9.a1.k11.a2'));
        await idle(page);
        await play(page, 'l12', vp);
        assert.equal((await board(page)).status, 'win');
        assert.equal(await page.textContent('#banner-text'), say(dict, 'playerWinsSeat', { p: 'X', who: one }));
        await page.done();
      });
    }

    test('two people: player 2 takes O and plays on, and a reload keeps it', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=human&w=swap2');
      assert.match(await status(page), /Player 1: opening stones, 3 to place/);
      for (const cell of ['h8', 'h9', 'j10']) await play(page, cell, vp);
      assert.ok(await panelShown(page));
      assert.match(await page.textContent('#swap-title'), /Player 2: choose a colour/);
      assert.match(await status(page), /Player 2: choose a colour/);
      // No stone can be placed while the choice is open.
      await page.click('#grid [data-cell="a1"]');
      await idle(page);
      assert.equal((await board(page)).ply, '3');
      await page.click('#swap-white');
      await idle(page);
      assert.ok(!(await panelShown(page)));
      assert.match(await status(page), /O to move/);
      // No variation starts inside the opening: a stone played from ply 1 is refused.
      await page.click('#nav-back');
      await idle(page);
      await page.click('#nav-back');
      await idle(page);
      await page.click('#grid [data-cell="a1"]');
      await idle(page);
      assert.equal((await board(page)).ply, '1');
      await page.click('#nav-end');
      await idle(page);
      await play(page, 'g7', vp);
      assert.match(await status(page), /X to move/);
      assert.deepEqual(await stones(page), { h8: 'X', h9: 'O', j10: 'X', g7: 'O' });
      await page.reload();
      await idle(page);
      assert.equal((await board(page)).ply, '4');
      assert.ok(!(await panelShown(page)));
      assert.match(await status(page), /X to move/);
      await page.done();
    });
  });
}
