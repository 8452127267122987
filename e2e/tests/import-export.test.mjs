// Study, item 6: import and export. A .psq file written by hand from the format's description
// (crates/mnk-core/tests/data/) opens as a game; a record and a diagram paste in; the game
// exports as a .psq that imports back to the same moves, and as a PNG of the board. A record
// naming a cell beyond the largest board is refused; a game with variations is exported with a
// word that only the link keeps them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { board, idle, LANGUAGES, launch, open, say, stones, VIEWPORTS } from '../lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const handWritten = fs.readFileSync(path.resolve(here, '../../crates/mnk-core/tests/data/vertical-five-20x20.psq'), 'utf8');

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function importText(page, text) {
  await page.keyboard.press('i');
  await page.waitForSelector('#dlg-share[open]');
  await page.fill('#import-text', text);
  await page.click('#btn-import');
  await page.waitForSelector('#dlg-share[open]', { state: 'detached', timeout: 30000 }).catch(() => {});
  await page.waitForFunction(() => !document.getElementById('dlg-share').open, null, { timeout: 30000 });
  await idle(page);
}

async function downloaded(page, button) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return fs.readFileSync(await download.path());
}

for (const vp of VIEWPORTS) {
  describe(`import and export (${vp.name})`, () => {
    test('a hand-written .psq opens; a record and a diagram paste in', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=level2');
      await importText(page, handWritten);
      const b = await board(page);
      assert.equal(b.status, 'win');
      assert.match(await page.textContent('#game-title'), /20×20/);
      assert.match(await page.textContent('#game-title'), /second person/, 'an imported game is a study board');

      await importText(page, 'h8 i9 h9');
      assert.equal((await board(page)).ply, '3');
      await importText(page, '. . .\n. X .\nO . .');
      assert.equal((await board(page)).ply, '2');
      assert.match(await page.textContent('#game-title'), /3×3/);

      // Garbage: a clear message, the game unchanged.
      await page.keyboard.press('i');
      await page.fill('#import-text', 'this is not a game');
      await page.click('#btn-import');
      await page.waitForFunction(() => document.getElementById('share-status').dataset.error === 'true');
      assert.notEqual(await page.textContent('#share-status'), '');
      await page.click('#share-close');
      assert.equal((await board(page)).ply, '2');
      await page.done();
    });

    for (const { lang, locale, dict } of LANGUAGES) {
      test(`a cell beyond the largest board is refused, the game unchanged (${lang})`, async () => {
        const page = await open(browser, vp, '/?r=9x9x5&m=e5&o=human', { locale });
        await page.keyboard.press('i');
        await page.waitForSelector('#dlg-share[open]');
        await page.fill('#import-text', 'h8 z99');
        await page.click('#btn-import');
        await page.waitForFunction(() => document.getElementById('share-status').dataset.error === 'true', null, { timeout: 30000 });
        const status = await page.textContent('#share-status');
        // In the player's language, from the refusal's reason and values.
        const beyond = say(dict, 'refusal_bad_cell_beyond_largest_board', { move: 2, cell: 'z99', side: 32 });
        assert.equal(status, say(dict, 'errRefused', { message: beyond }));
        await page.click('#share-close');
        assert.equal((await board(page)).ply, '1');
        assert.deepEqual(await stones(page), { e5: 'X' });
        assert.match(new URL(page.url()).searchParams.get('r'), /^9x9x5/);
        await page.done();
      });

      test(`exporting a game with variations says only the link keeps them (${lang})`, async () => {
        const page = await open(browser, vp, '/?r=15x15x5&m=h8.i9.j10&t=h8.i9(h9.g7).j10&o=human', { locale });
        await page.keyboard.press('i');
        await page.waitForSelector('#dlg-share[open]');
        assert.equal(await page.isVisible('#export-note'), true);
        assert.equal(await page.textContent('#export-note'), say(dict, 'exportVariations'));
        // The .psq file holds the line shown, as the note says.
        const psq = (await downloaded(page, '#btn-save-psq')).toString('utf8');
        assert.equal(psq.split('\r\n').filter((l) => /^\d+,\d+,\d+$/.test(l)).length, 3);
        assert.equal(await page.isVisible('#export-note'), true);
        await page.click('#share-close');
        // A game of one line has nothing left out.
        await page.goto(page.url().replace(/&t=[^&]*/, ''));
        await idle(page);
        await page.keyboard.press('i');
        await page.waitForSelector('#dlg-share[open]');
        assert.equal(await page.isVisible('#export-note'), false);
        await page.done();
      });
    }

    test('.psq export imports back to the same game; the PNG is a picture', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&m=h8.i9.j10.a1.o15&o=human');
      await page.keyboard.press('i');
      await page.waitForSelector('#dlg-share[open]');
      const psq = (await downloaded(page, '#btn-save-psq')).toString('utf8');
      assert.match(psq, /^Piskvorky 15x15, /);
      assert.equal(psq.split('\r\n').filter((l) => /^\d+,\d+,\d+$/.test(l)).length, 5);
      const png = await downloaded(page, '#btn-save-png');
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      await page.click('#share-close');
      const url = new URL(page.url());
      await importText(page, psq);
      assert.equal(new URL(page.url()).searchParams.get('m'), url.searchParams.get('m'));
      await page.done();
    });
  });
}
