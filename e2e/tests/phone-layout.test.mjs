// What a phone's first screen must hold, in every language, checked on a desktop too: the shortcut
// list opens at its top; the swap opening's choice is in view, without scrolling, when the status
// asks for it; the dialogs' selects show their options whole (short names, what the chosen one
// means written under the select).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { idle, LANGUAGES, launch, open, say, shot, TALL_PHONE, VIEWPORTS } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Clicks, or taps on a touch screen. */
const press = (page, vp, selector) => (vp.hasTouch ? page.tap(selector) : page.click(selector));

/**
 * The options of `select` (a selector) whose text is wider than the select shows: the text is
 * measured in the select's font and compared with its inner width less room for the arrow.
 */
function clippedOptions(page, select) {
  return page.$eval(select, (sel) => {
    const ARROW = 24;
    const cs = getComputedStyle(sel);
    const probe = document.createElement('span');
    probe.style.position = 'absolute';
    probe.style.visibility = 'hidden';
    probe.style.whiteSpace = 'pre';
    probe.style.font = cs.font;
    probe.style.letterSpacing = cs.letterSpacing;
    document.body.append(probe);
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - ARROW;
    const clipped = [];
    for (const option of sel.options) {
      probe.textContent = option.textContent;
      const width = probe.getBoundingClientRect().width;
      if (width > room) clipped.push(`${option.textContent} (${Math.round(width)} px > ${Math.round(room)} px)`);
    }
    probe.remove();
    return { clipped, options: sel.options.length, room };
  });
}

for (const vp of [...VIEWPORTS, TALL_PHONE]) {
  describe(`a phone's first screen (${vp.name})`, () => {
    for (const { lang, locale, dict } of LANGUAGES) {
      test(`the shortcut list opens at its top (${lang})`, async () => {
        const page = await open(browser, vp, '/?r=15x15x5&o=human', { locale });
        if (vp.hasTouch) await press(page, vp, '#btn-help');
        else await page.keyboard.press('Shift+Slash');
        await page.waitForSelector('#dlg-help[open]');
        const at = await page.evaluate(() => {
          const dlg = document.getElementById('dlg-help');
          const title = document.getElementById('dlg-help-title').getBoundingClientRect();
          const first = dlg.querySelector('tbody tr').getBoundingClientRect();
          return { scrollTop: dlg.scrollTop, scrolls: dlg.scrollHeight > dlg.clientHeight, top: title.top, firstBottom: first.bottom, height: innerHeight };
        });
        // A phone's screen cannot show the whole list: it scrolls, and starts at the top.
        if (vp.hasTouch) assert.ok(at.scrolls, 'the list is longer than the screen');
        assert.equal(at.scrollTop, 0);
        assert.ok(at.top >= 0, `the title at ${at.top}`);
        assert.ok(at.firstBottom <= at.height, `the first shortcut at ${at.firstBottom} of ${at.height}`);
        assert.equal(await page.textContent('#dlg-help-title'), say(dict, 'shortcuts'));
        await shot(page, `${vp.name.replace(' ', '-')}-${lang}-shortcuts`);
        await page.keyboard.press('Escape');
        await page.done();
      });

      test(`the swap choice is in view when the status asks for it (${lang})`, async () => {
        // The computer opens; the player chooses.
        const page = await open(browser, vp, '/?r=15x15x5&o=level3&w=swap2&e=chooser', { locale });
        await page.waitForFunction(() => document.getElementById('board').dataset.ply === '3', null, { timeout: 30000 });
        await idle(page);
        await page.waitForSelector('#swap:not([hidden])');
        assert.equal(await page.textContent('#status'), say(dict, 'openingChooseStatus', { who: say(dict, 'openingYou') }));
        assert.equal(await page.evaluate(() => scrollY), 0, 'nothing scrolled');
        const seen = await page.evaluate(() => {
          const inView = (el) => {
            const r = el.getBoundingClientRect();
            const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
            // And nothing covers it: its centre is its own.
            const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
            return inside && (hit === el || el.contains(hit));
          };
          return {
            status: inView(document.getElementById('status')),
            options: [...document.querySelectorAll('#swap-options button')].map((b) => [b.id, inView(b)]),
          };
        });
        assert.ok(seen.status, 'the status is in view');
        assert.deepEqual(seen.options, [
          ['swap-black', true],
          ['swap-white', true],
          ['swap-place-two', true],
        ]);
        await shot(page, `${vp.name.replace(' ', '-')}-${lang}-swap-choice`);
        if (vp.hasTouch) {
          // The board's last row can be scrolled out from under the panel.
          await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
          const clear = await page.evaluate(() => document.querySelector('#grid [data-cell="a1"]').getBoundingClientRect().bottom <= document.getElementById('swap').getBoundingClientRect().top);
          assert.ok(clear, 'a1 clear of the panel');
        }
        await press(page, vp, '#swap-black');
        await idle(page);
        assert.equal(await page.isVisible('#swap'), false);
        assert.equal(await page.evaluate(() => document.body.style.paddingBottom), '');
        await page.done();
      });

      test(`the dialogs' selects show their options whole (${lang})`, async () => {
        const page = await open(browser, vp, '/?r=15x15x5&o=human', { locale });
        await press(page, vp, '#btn-new');
        await page.waitForSelector('#dlg-new[open]');
        for (const select of ['#f-preset', '#f-opening', '#f-opponent']) {
          const { clipped, options } = await clippedOptions(page, select);
          assert.ok(options >= 3, `${select} has its options`);
          assert.deepEqual(clipped, [], `${select} (${lang})`);
        }
        // What the chosen preset and opening are is said under them, whole.
        await page.selectOption('#f-preset', 'caro');
        const presets = await page.$eval('#f-preset', (s) => [...s.options].map((o) => o.value));
        assert.ok(presets.includes('renju'));
        // (English titles of presets are the server's.)
        assert.equal(await page.textContent('#f-preset-desc'), dict.preset_caro || 'Caro 15×15, exactly five not closed at both ends');
        await page.selectOption('#f-opening', 'swap2');
        assert.equal(await page.textContent('#f-opening-desc'), say(dict, 'openingSwap2'));
        await page.selectOption('#f-opening', 'free');
        assert.equal(await page.textContent('#f-opening-desc'), say(dict, 'openingFree'));
        await shot(page, `${vp.name.replace(' ', '-')}-${lang}-new-game`);
        await press(page, vp, '#f-cancel');

        await press(page, vp, '#btn-room');
        await page.waitForSelector('#dlg-room[open]');
        for (const select of ['#room-colour', '#room-clock', '#room-opening']) {
          const { clipped, options } = await clippedOptions(page, select);
          assert.ok(options >= 3, `${select} has its options`);
          assert.deepEqual(clipped, [], `${select} (${lang})`);
        }
        assert.equal(await page.textContent('#room-opening-desc'), say(dict, 'openingFree'));
        await page.selectOption('#room-opening', 'swap');
        assert.equal(await page.textContent('#room-opening-desc'), say(dict, 'openingSwap'));
        await press(page, vp, '#room-cancel');
        await page.done();
      });
    }
  });
}
