// Import and export (I): paste a move record, x,y pairs, a board diagram or a Piskvork .psq file
// (or open the file), and the game opens as a study board; export the record, a diagram or a
// .psq (copied or downloaded), the link, and a PNG of the board. The server reads and writes
// every format (POST /api/import and /api/export), so the page holds no parser of its own. Only
// the link holds a game's variations; the dialog says so when there are some.

import { call } from './api.js';
import { describeError } from './errors.js';
import { t } from './i18n.js';
import { gameLink } from './link.js';
import { apiRules, rulesToString } from './notation.js';
import { startGame } from './play.js';
import { store } from './store.js';
import { MoveTree } from './tree.js';
import { board } from './view.js';

const $ = (id) => document.getElementById(id);

function say(text, isError = false) {
  $('share-status').textContent = text;
  $('share-status').dataset.error = String(isError);
}

export function openShare() {
  const dlg = $('dlg-share');
  if (dlg.open) return;
  say('');
  // A record, a .psq file and a picture hold one line: say so when the game has more.
  $('export-note').hidden = !store.tree.hasVariations();
  $('import-text').value = '';
  dlg.showModal();
  $('import-text').focus();
}

/** Imports the pasted text: the game opens for study (two people, so nothing moves by itself). */
async function importText(text) {
  if (!text.trim()) {
    say(t('importEmpty'), true);
    return;
  }
  $('btn-import').disabled = true;
  try {
    const r = await call('import', { text });
    await new Promise((resolve, reject) => {
      startGame(
        { rules: r.rules, opponent: { human: true }, side: 'X', tree: MoveTree.fromMoves(r.moves) },
        { onStarted: resolve, onFailed: reject },
      );
    });
    $('dlg-share').close();
  } catch (err) {
    say(describeError(err), true);
  } finally {
    $('btn-import').disabled = false;
  }
}

async function exported(format) {
  const r = await call('export', { rules: apiRules(store.rules), moves: store.tree.lineMoves(), format });
  return r.text;
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    say(t('copied', { what }));
  } catch {
    // No clipboard (an insecure origin, a refusal): show the text to copy by hand.
    $('import-text').value = text;
    $('import-text').select();
    say(t('copyByHand', { what }));
  }
}

function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

const fileName = (ext) => `mnk-${rulesToString(store.rules).replace(/[^a-z0-9]+/gi, '-')}-${store.tree.lineMoves().length}.${ext}`;

async function run(action) {
  try {
    await action();
  } catch (err) {
    say(describeError(err), true);
  }
}

export function bindShare() {
  $('btn-import').addEventListener('click', () => importText($('import-text').value));
  $('import-file').addEventListener('change', async (e) => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    if (file.size > 60 * 1024) {
      say(t('importTooBig'), true);
      return;
    }
    $('import-text').value = await file.text();
    e.target.value = '';
    importText($('import-text').value);
  });
  $('btn-copy-record').addEventListener('click', () => run(async () => copy(await exported('record'), t('record'))));
  $('btn-copy-link').addEventListener('click', () => run(() => copy(new URL(gameLink(), location.href).href, t('link'))));
  $('btn-save-psq').addEventListener('click', () =>
    run(async () => {
      download(fileName('psq'), new Blob([await exported('psq')], { type: 'text/plain' }));
      say(t('saved', { what: '.psq' }));
    }),
  );
  $('btn-save-png').addEventListener('click', () =>
    run(async () => {
      board.draw();
      const blob = await new Promise((resolve) => board.canvas.toBlob(resolve, 'image/png'));
      download(fileName('png'), blob);
      say(t('saved', { what: 'PNG' }));
    }),
  );
  $('share-close').addEventListener('click', () => $('dlg-share').close());
}
