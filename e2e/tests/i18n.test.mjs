// Languages: English, Polish and Russian are complete, chosen from the browser's language, and
// switched with the selector; the choice is remembered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import en from '../../web/i18n/en.js';
import pl from '../../web/i18n/pl.js';
import ru from '../../web/i18n/ru.js';
import { idle, launch, open, play, shot, VIEWPORTS } from '../lib.mjs';

test('Polish and Russian translate every English string', () => {
  for (const [name, dict] of [['pl', pl], ['ru', ru]]) {
    const missing = Object.keys(en).filter((k) => !(k in dict));
    assert.deepEqual(missing, [], `${name} misses keys`);
    for (const [k, v] of Object.entries(en)) {
      const params = (v.match(/\{\w+\}/g) || []).sort();
      assert.deepEqual((dict[k].match(/\{\w+\}/g) || []).sort(), params, `${name}.${k} keeps the placeholders`);
    }
  }
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
