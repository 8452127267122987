// Languages: English, Polish and Russian are complete, chosen from the browser's language, and
// switched with the selector; the choice is remembered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import en from '../../web/i18n/en.js';
import pl from '../../web/i18n/pl.js';
import ru from '../../web/i18n/ru.js';
import { idle, launch, open, play, shot, VIEWPORTS } from '../lib.mjs';

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
