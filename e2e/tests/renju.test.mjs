// Renju in the page: black's forbidden points are marked while black is to move, explained when
// tapped, and never played; white has none. Black is named by the mark the board shows. Under
// caro a five closed at both ends, and under exactly five an overline, are said not to win.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { board, idle, LANGUAGES, launch, open, play, say, shot, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// Black (X) to move, with an open two across (f8 g8) and one down (h9 h10) meeting at h8.
const DOUBLE_THREE_AT_H8 = 'f8.a1.g8.c1.h9.e1.h10.g1';

for (const vp of VIEWPORTS) {
  describe(`renju (${vp.name})`, () => {
    test("black's forbidden point is shown, explained when tapped, and refused", async () => {
      const page = await open(browser, vp, `/?r=15x15x5,renju&o=human&m=${DOUBLE_THREE_AT_H8}`);
      let b = await board(page);
      assert.equal(b.ply, '8');
      assert.match(b.forbidden, /(^| )h8:double-three( |$)/);
      assert.match(await page.getAttribute('#grid [data-cell="h8"]', 'aria-label'), /h8, empty, forbidden for X \(black\): a double-three/);
      assert.match(await page.textContent('#game-title'), /Renju/);
      await shot(page, `${vp.name}-renju-forbidden`);
      if (vp.hasTouch) await page.tap('#grid [data-cell="h8"]');
      else await page.click('#grid [data-cell="h8"]');
      await idle(page);
      assert.equal((await board(page)).ply, '8');
      assert.match(await page.textContent('#info'), /h8 is forbidden for X \(black\) under renju: a double-three/);
      // Black plays elsewhere; white, to move, has no forbidden points.
      await play(page, 'o15', vp);
      b = await board(page);
      assert.equal(b.ply, '9');
      assert.equal(b.forbidden, '');
      assert.match(await page.getAttribute('#grid [data-cell="h8"]', 'aria-label'), /^h8, empty$/);
      // White may take the point black could not.
      await play(page, 'h8', vp);
      assert.equal((await board(page)).ply, '10');
      await page.done();
    });

    for (const { lang, locale, dict } of LANGUAGES) {
      test(`renju's texts name black by its mark (${lang})`, async () => {
        // With O first, O is black: the same shape is O's double-three.
        for (const [rules, p] of [['15x15x5,renju', 'X'], ['15x15x5,renju,o-first', 'O']]) {
          const page = await open(browser, vp, `/?r=${rules}&o=human&m=${DOUBLE_THREE_AT_H8}`, { locale });
          assert.equal((await board(page)).toMove, p);
          const kind = say(dict, 'forbidden_double-three');
          const label = await page.getAttribute('#grid [data-cell="h8"]', 'aria-label');
          assert.ok(label.endsWith(say(dict, 'forbiddenLabel', { p, kind })), label);
          await page.click('#grid [data-cell="h8"]');
          await idle(page);
          assert.equal(await page.textContent('#info'), say(dict, 'forbiddenMoveFor', { cell: 'h8', p, kind }));
          await page.done();
        }
        const page = await open(browser, vp, '/?r=15x15x5,renju&o=human', { locale });
        await page.click('#btn-new');
        await page.waitForSelector('#dlg-new[open]');
        assert.equal(await page.textContent('input[name="win"][value="renju"] + span'), say(dict, 'renju'));
        assert.equal(await page.textContent('#f-preset-desc'), say(dict, 'preset_renju'));
        await page.done();
      });

      test(`a five closed at both ends under caro, and an overline under exactly five, are said not to win (${lang})`, async () => {
        // X's b1..e1 with O on a1 and g1: f1 makes a five closed at both ends.
        const page = await open(browser, vp, '/?r=15x15x5,caro&o=human&m=b1.a1.c1.g1.d1.a3.e1.c3', { locale });
        await play(page, 'f1', vp);
        assert.equal((await board(page)).status, 'ongoing');
        assert.equal(await page.textContent('#info'), say(dict, 'unwonClosed', { p: 'X', cells: 'b1 c1 d1 e1 f1' }));
        // O's move: the note was about X's.
        await play(page, 'h8', vp);
        assert.equal(await page.textContent('#info'), '');
        // Exactly five: e1 joins a1..d1 and f1 into six.
        await page.goto(page.url().replace(/\?.*$/, '?r=15x15x5,exact&o=human&m=a1.a3.b1.c3.c1.e3.d1.g3.f1.i3'));
        await idle(page);
        await play(page, 'e1', vp);
        assert.equal((await board(page)).status, 'ongoing');
        assert.equal(await page.textContent('#info'), say(dict, 'unwonOverline', { p: 'X', n: 6, cells: 'a1 b1 c1 d1 e1 f1', k: 5 }));
        await page.done();
      });
    }

    test('the renju preset against the computer: it answers as white, and a forbidden point is never played', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=human');
      await page.click('#btn-new');
      await page.selectOption('#f-preset', 'renju');
      assert.equal(await page.isChecked('input[name="win"][value="renju"]'), true);
      await page.selectOption('#f-opponent', 'level6');
      await page.check('input[name="side"][value="X"]');
      await page.click('#f-start');
      await idle(page);
      assert.match(await page.textContent('#game-title'), /Renju 15×15/);
      await play(page, 'h8', vp);
      await idle(page);
      const b = await board(page);
      assert.equal(b.ply, '2');
      assert.match(await page.textContent('#info'), /The computer played/);
      assert.match(await page.textContent('#status'), /Your move \(X\)/);
      await page.done();
    });

    test('the new-game dialog offers renju and caro for five in a row only', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=human');
      await page.click('#btn-new');
      await page.check('input[name="win"][value="renju"]');
      await page.fill('#f-k', '4');
      await page.click('#f-start');
      assert.match(await page.textContent('#f-error'), /Renju and caro are five in a row/);
      await page.fill('#f-k', '5');
      await page.check('input[name="win"][value="caro"]');
      await page.click('#f-start');
      await idle(page);
      assert.match(page.url(), /r=15x15x5,caro/);
      assert.match(await page.textContent('#game-title'), /Caro/);
      await page.done();
    });
  });
}
