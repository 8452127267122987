// What the server says each bot plays drives the page: the dialog disables opponents that do not
// play the chosen rules (with the reason), and a link naming an unknown opponent or one that
// cannot play its rules opens the game for two people with a clear message, never a stalled game.
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
  describe(`opponents (${vp.name})`, () => {
    test('the dialog offers only opponents that play the rules', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=level2');
      await page.keyboard.press('n');
      await page.waitForSelector('#dlg-new[open]');
      await page.waitForFunction(() => document.querySelector('#f-opponent option[value="perfect"]').disabled);
      assert.equal(await page.$eval('#f-opponent option[value="rules"]', (o) => o.disabled), true);
      assert.match(await page.$eval('#f-opponent option[value="perfect"]', (o) => o.title), /36 cells/);
      assert.equal(await page.$eval('#f-opponent option[value="engine"]', (o) => o.disabled), false);
      // Tic-tac-toe: every opponent plays.
      await page.selectOption('#f-preset', 'tictactoe');
      await page.waitForFunction(() => !document.querySelector('#f-opponent option[value="rules"]').disabled);
      await page.selectOption('#f-opponent', 'rules');
      await page.click('#f-start');
      await page.waitForSelector('#dlg-new[open]', { state: 'detached' });
      assert.match(await page.textContent('#game-title'), /Tic-tac-toe/);
      await page.done();
    });

    for (const [link, message] of [
      ['/?r=15x15x5&m=h8&o=perfect&s=O', /cannot play here .*36 cells/],
      ['/?r=15x15x5&m=h8&o=rules&s=O', /cannot play here .*3×3/],
      ['/?r=15x15x5&m=h8&o=level9&s=O', /unknown opponent \(level9\)/],
      ['/?r=15x15x5&m=h8&o=bogus&s=O', /unknown opponent \(bogus\)/],
    ]) {
      test(`a link with ${new URL(link, 'http://x').searchParams.get('o')} opens for two people, with a message`, async () => {
        const page = await open(browser, vp, link);
        await page.waitForSelector('#link-error:not([hidden])');
        assert.match(await page.textContent('#link-error-text'), message);
        const b = await board(page);
        assert.equal(b.ply, '1', 'the game of the link is kept');
        assert.match(await page.textContent('#game-title'), /second person/);
        assert.match(await page.textContent('#status'), /O to move/);
        await page.done();
      });
    }

    test('why an opponent cannot play is said in the player\'s language', async () => {
      const link = '/?r=15x15x5&m=h8&o=perfect&s=O';
      for (const { lang, locale, dict } of LANGUAGES) {
        const page = await open(browser, vp, link, { locale });
        await page.waitForSelector('#link-error:not([hidden])');
        const why = say(dict, 'refusal_unsupported_too_many_cells', { max: 36 });
        assert.equal(await page.textContent('#link-error-text'), say(dict, 'errLinkOpponentRules', { why }), lang);
        // The new-game dialog says the same under its select, for the rule player on 15×15.
        await page.click('#btn-new');
        await page.waitForFunction(() => document.querySelector('#f-opponent option[value="rules"]').disabled);
        const title = await page.$eval('#f-opponent option[value="rules"]', (o) => o.title);
        assert.equal(title, say(dict, 'refusal_unsupported_only_tictactoe'), lang);
        await page.done();
      }
    });
  });
}
