// The game lives in the URL: reloading, or opening the link elsewhere, restores it. A link that
// cannot be opened says why and keeps the last game; variations that cannot be read are said
// and the game's line opens; a link too long for the server shows a page saying so.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BASE, board, idle, LANGUAGES, launch, open, play, say, stones, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const vp of VIEWPORTS) {
  describe(`the game in the URL (${vp.name})`, () => {
    test('reload and a shared link restore the game', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=level2&s=X');
      await play(page, 'h8', vp);
      const taken = await stones(page);
      const second = ['g7', 'c3', 'm12'].find((c) => !(c in taken));
      await play(page, second, vp);
      const before = await stones(page);
      const url = page.url();
      assert.match(url, /[?&]r=15x15x5(&|$)/);
      assert.match(url, new RegExp(`[?&]m=h8\\.[a-z]+\\d+\\.${second}\\.[a-z]+\\d+(&|$)`));
      assert.match(url, /[?&]o=level2(&|$)/);
      await page.reload();
      await page.waitForSelector('#board[data-busy="false"][data-ply="4"]');
      assert.deepEqual(await stones(page), before);
      assert.equal(await page.$$eval('#moves li', (els) => els.length), 4);
      await page.done();

      const other = await open(browser, vp, url.slice(BASE.length));
      assert.deepEqual(await stones(other), before);
      assert.match(await other.textContent('#status'), /Your move/);
      await other.done();
    });

    test('a link with an illegal move is refused with the server message, and a fresh game starts', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&m=a1.a1&o=human');
      await page.waitForSelector('#link-error:not([hidden])');
      assert.match(await page.textContent('#link-error-text'), /could not be restored/);
      const b = await board(page);
      assert.equal(b.ply, '0');
      await page.done(true);
    });

    for (const { lang, locale, dict } of LANGUAGES) {
      test(`a bad link after a game: said, and the last game kept (${lang})`, async () => {
        const page = await open(browser, vp, '/?r=9x9x5&o=level1&s=X', { locale });
        await play(page, 'e5', vp);
        const kept = await stones(page);
        const keptLink = new URL(page.url()).search;
        assert.equal(Object.keys(kept).length, 2);
        const showsKept = async (why) => {
          await idle(page);
          assert.equal(await page.isVisible('#link-error'), true, why);
          // Above the board, in view on a phone without scrolling.
          const box = await page.locator('#link-error').boundingBox();
          assert.ok(box && box.y >= 0 && box.y + box.height <= vp.viewport.height, `in view: ${JSON.stringify(box)}`);
          assert.equal(await page.textContent('#link-error-text'), `${why} ${say(dict, 'linkKeptGame')}`);
          assert.deepEqual(await stones(page), kept);
          assert.equal(new URL(page.url()).search, keptLink);
        };
        // Rules the page cannot read.
        await page.goto(`${BASE}/?r=bogus&m=a1&o=human`);
        await showsKept(say(dict, 'errLink', { what: 'bogus' }));
        // A game the server refuses.
        await page.goto(`${BASE}/?r=3x3x3&m=a1.a1&o=human`);
        await idle(page);
        // Said in the player's language from the refusal's reason and values.
        await showsKept(say(dict, 'errLinkRefused', { message: say(dict, 'refusal_illegal_move_occupied', { move: 2, cell: 'a1' }) }));
        await page.done();
      });

      test(`a bad link with no game kept: a fresh game, and the notice stays while the computer moves (${lang})`, async () => {
        const page = await open(browser, vp, '/?r=bogus&m=a1', { locale, settings: { rules: '9x9x5', opponent: 'level1', side: 'O' } });
        // The fresh game's first move is the computer's; the notice is still there after it.
        await page.waitForSelector('#board[data-busy="false"][data-ply="1"]', { timeout: 30000 });
        assert.equal(await page.isVisible('#link-error'), true);
        assert.equal(await page.textContent('#link-error-text'), say(dict, 'errLink', { what: 'bogus' }));
        assert.match(page.url(), /r=9x9x5/);
        // It goes when dismissed.
        await page.click('#link-error-dismiss');
        assert.equal(await page.isVisible('#link-error'), false);
        await page.done();
      });

      test(`variations that cannot be read are said, and the game's line opens (${lang})`, async () => {
        const page = await open(browser, vp, '/?r=9x9x5&m=e5.f6&t=e5.f6(d4.c3&o=human', { locale });
        await page.waitForSelector('#link-error:not([hidden])');
        assert.equal(await page.textContent('#link-error-text'), say(dict, 'errLinkTree', { why: say(dict, 'treeText_open') }));
        assert.equal((await board(page)).ply, '2');
        assert.deepEqual(await stones(page), { e5: 'X', f6: 'O' });
        const q = new URL(page.url()).searchParams;
        assert.equal(q.get('r'), '9x9x5');
        assert.equal(q.get('m'), 'e5.f6');
        assert.equal(q.get('t'), null);
        await page.done();
      });
    }

    test('a link too long to open shows a page saying so, in each language, not JSON', async () => {
      const context = await browser.newContext({ viewport: vp.viewport, deviceScaleFactor: vp.deviceScaleFactor, isMobile: vp.isMobile || false, hasTouch: vp.hasTouch || false });
      const page = await context.newPage();
      // Some 20 KB of moves: over the 16 KiB the server reads of an address.
      const response = await page.goto(`${BASE}/?r=15x15x5&o=human&m=${'h8.i9.'.repeat(3400)}`);
      assert.equal(response.status(), 414);
      assert.match(response.headers()['content-type'], /^text\/html/);
      const body = await page.textContent('body');
      assert.ok(!body.includes('"error"'), body);
      assert.match(await page.textContent('p[lang="en"]'), /This link is too long to open/);
      assert.match(await page.textContent('p[lang="pl"]'), /Tego linku nie da się otworzyć/);
      assert.match(await page.textContent('p[lang="ru"]'), /Эту ссылку не открыть/);
      for (const lang of ['en', 'pl', 'ru']) assert.ok(await page.isVisible(`p[lang="${lang}"] a`));
      // Its link opens the page itself.
      await page.click('p[lang="en"] a');
      await idle(page);
      assert.equal((await board(page)).ply, '0');
      await context.close();
    });

    test('a link played by the computer first: the computer moves on arrival', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&o=perfect&s=O');
      await page.waitForSelector('#board[data-busy="false"][data-ply="1"]');
      assert.equal((await board(page)).toMove, 'O');
      await page.done();
    });
  });
}
