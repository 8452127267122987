// Languages: English, Polish and Russian are complete, chosen from the browser's language, and
// switched with the selector; the choice is remembered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import en from '../../web/i18n/en.js';
import pl from '../../web/i18n/pl.js';
import ru from '../../web/i18n/ru.js';
import { idle, LANGUAGES, launch, open, play, say, shot, VIEWPORTS } from '../lib.mjs';

/** A plural form of a key (`valueWinFor_few`): each language has the forms its grammar needs. */
const PLURAL = /_(zero|one|two|few|many|other)$/;

test('Polish and Russian translate every English string', () => {
  for (const [name, dict] of [['pl', pl], ['ru', ru]]) {
    const missing = Object.keys(en).filter((k) => !PLURAL.test(k) && !(k in dict));
    assert.deepEqual(missing, [], `${name} misses keys`);
    for (const [k, v] of Object.entries(en)) {
      if (PLURAL.test(k)) continue;
      const params = (v.match(/\{\w+\}/g) || []).sort();
      assert.deepEqual((dict[k].match(/\{\w+\}/g) || []).sort(), params, `${name}.${k} keeps the placeholders`);
    }
    // A plural form is of a key the language has, with the same placeholders.
    for (const [k, v] of Object.entries(dict).filter(([key]) => PLURAL.test(key))) {
      const base = k.replace(PLURAL, '');
      assert.ok(base in en, `${name}.${k}: no ${base}`);
      assert.deepEqual((v.match(/\{\w+\}/g) || []).sort(), (en[base].match(/\{\w+\}/g) || []).sort(), `${name}.${k}`);
    }
  }
});

test('counts take the plural form of each language', async () => {
  // The page's t() in node: Intl.PluralRules picks the form, as in the browser.
  const forms = (dict, code, n) => {
    const category = new Intl.PluralRules(code).select(n);
    return (dict[`valueWinFor_${category}`] ?? dict.valueWinFor).replace('{p}', 'X').replace('{n}', String(n));
  };
  assert.equal(forms(en, 'en', 1), 'X wins in 1 ply');
  assert.equal(forms(en, 'en', 3), 'X wins in 3 plies');
  assert.equal(forms(pl, 'pl', 1), 'X wygrywa w 1 półruchu');
  assert.equal(forms(pl, 'pl', 3), 'X wygrywa w 3 półruchach');
  assert.equal(forms(pl, 'pl', 5), 'X wygrywa w 5 półruchach');
  assert.equal(forms(ru, 'ru', 1), 'X выигрывает за 1 полуход');
  assert.equal(forms(ru, 'ru', 3), 'X выигрывает за 3 полухода');
  assert.equal(forms(ru, 'ru', 5), 'X выигрывает за 5 полуходов');
  assert.equal(forms(ru, 'ru', 21), 'X выигрывает за 21 полуход');
});

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const vp of VIEWPORTS) {
  describe(`languages (${vp.name})`, () => {
    test('switch to Polish, then Russian; remembered on reload', async () => {
      const page = await open(browser, vp, '/?r=9x9x5&o=level2&s=X');
      assert.equal(await page.textContent('#btn-new'), 'New game');
      await play(page, 'e5', vp);

      await page.selectOption('#sel-lang', 'pl');
      await page.waitForFunction(() => document.documentElement.lang === 'pl');
      assert.equal(await page.textContent('#btn-new'), 'Nowa gra');
      assert.equal(await page.textContent('#btn-undo'), 'Cofnij');
      assert.match(await page.textContent('#status'), /Twój ruch/);
      assert.equal(await page.getAttribute('#grid [data-cell="a1"]', 'aria-label'), 'a1, puste');
      assert.match(await page.textContent('#game-title'), /9×9, pięć w rzędzie/);
      await shot(page, `${vp.name}-light-polish`);

      await page.selectOption('#sel-lang', 'ru');
      await page.waitForFunction(() => document.documentElement.lang === 'ru');
      assert.equal(await page.textContent('#btn-new'), 'Новая игра');
      assert.match(await page.textContent('#status'), /Ваш ход/);
      assert.match(await page.textContent('#info'), /^Компьютер сходил /);
      assert.equal(await page.getAttribute('#grid [data-cell="a1"]', 'aria-label'), 'a1, пусто');
      await page.click('#btn-new');
      await page.waitForSelector('#dlg-new[open]');
      assert.equal(await page.textContent('#f-start'), 'Играть');
      assert.match(await page.$eval('#f-preset', (s) => s.options[0].textContent), /Крестики-нолики/);
      await shot(page, `${vp.name}-light-russian-dialog`);
      await page.click('#f-cancel');

      await page.reload();
      await idle(page);
      assert.equal(await page.textContent('#btn-new'), 'Новая игра');
      await page.done();
    });

    test('the browser language chooses the first language', async () => {
      const page = await open(browser, vp, '/?r=3x3x3&o=human', { locale: 'pl-PL' });
      assert.equal(await page.textContent('#btn-new'), 'Nowa gra');
      assert.equal(await page.$eval('#sel-lang', (s) => s.value), 'pl');
      await page.done();
    });
  });
}

// The server's refusals reach each player in their language: the API gives a code, a reason and
// values (docs/api.md, "Refusals in words") and the page words them; so do the clock presets and
// the explorer's values, which fit their rows.
for (const vp of VIEWPORTS) {
  describe(`the server's words in each language (${vp.name})`, () => {
    for (const { lang, locale, dict } of LANGUAGES) {
      test(`refusals, clock presets and the explorer's values (${lang})`, async () => {
        // Rules that cannot be played: said from the reason and its values.
        const page = await open(browser, vp, '/?r=3x3x9&o=human', { locale });
        await page.waitForSelector('#link-error:not([hidden])');
        const rules = say(dict, 'refusal_bad_rules_k_does_not_fit', { k: 9, width: 3, height: 3 });
        assert.equal(await page.textContent('#link-error-text'), say(dict, 'errLinkRefused', { message: rules }));
        if (lang !== 'en') assert.doesNotMatch(await page.textContent('#link-error-text'), /line|fits|board/);

        // The clock presets of the room dialog.
        const clocks = await page.$$eval('#room-clock option', (options) => options.map((o) => o.textContent));
        assert.deepEqual(clocks, ['roomNoClock', 'clock60', 'clock180p2', 'clock300p3', 'clock600p5'].map((k) => say(dict, k)));

        // The tree's counts out of reach: why, in words, once ("not counted" said by the page).
        await page.goto(page.url().replace(/\?.*$/, '?r=5x5x4&o=human'));
        await idle(page);
        await page.keyboard.press('g');
        const note = page.locator('#explorer-tree .xnote[data-state="uncounted"]');
        await note.waitFor({ timeout: 30000 });
        const why = say(dict, 'refusal_uncounted_empties', { max: 16 });
        assert.equal(await note.textContent(), say(dict, 'treeUncounted', { why }));

        // 3×3's values (the longest, "X выигрывает за 5 полуходов") fit their rows.
        await page.goto(page.url().replace(/\?.*$/, '?r=3x3x3&o=human'));
        await idle(page);
        if ((await page.getAttribute('#btn-tree', 'aria-pressed')) !== 'true') await page.keyboard.press('g');
        const open3 = page.locator('#explorer-tree [data-key="b2"] > .xrow .twisty');
        await open3.waitFor({ timeout: 30000 });
        await open3.click();
        await page.locator('#explorer-tree [data-key="b2 b1"]').waitFor({ timeout: 30000 });
        const cut = await page.$$eval('#explorer-tree .xvalue', (values) =>
          values
            .filter((v) => {
              const row = v.closest('.xrow').getBoundingClientRect();
              const box = v.getBoundingClientRect();
              return v.scrollWidth > v.clientWidth + 1 || box.right > row.right + 1 || box.right > document.documentElement.clientWidth;
            })
            .map((v) => v.textContent),
        );
        assert.deepEqual(cut, [], 'values cut or past their row');
        await shot(page, `${vp.name}-explorer-values-${lang}`);
        await page.done();
      });
    }
  });
}
