// The page's start: wires the views, the game flow, the tools and the dialog together, then
// opens the game of the link (or the last settings) once the server's catalogue is known.
//
// Modules: store.js holds the one state object and the move tree (tree.js); play.js the game
// flow; view.js what is drawn; tools.js the heat map; dialog.js the new game; link.js the
// address; opening.js the swap openings' choice; errors.js the error box; exact.js, analysis.js,
// review.js, explorer.js and share.js the study tools; room.js games with a friend on another
// device; keys.js the shortcuts; settings.js what the browser keeps; engine.js where the
// computer thinks (on this device by default, in a Web Worker).

import { call } from './api.js';
import { chooseThinking, engine, onEngineChange, startEngine } from './engine.js';
import { bindDialog, openNewGame, relabelDialog } from './dialog.js';
import { refreshAnalysis, toggleAnalysis, toggleRawScores } from './analysis.js';
import { refreshExact, toggleExact } from './exact.js';
import { bindExplorer, resetExplorer, toggleExplorer } from './explorer.js';
import { bindShare, openShare } from './share.js';
import { bindExplain, explainLast } from './explain.js';
import { judgeTrial, revealTrial, startTrial, toggleReview } from './review.js';
import { describeError, hideError, hideLinkError, isRefusal, refusalText, retryError, showError, showLinkError, showRequestFailure } from './errors.js';
import { detectLanguage, LANGUAGES, lang, setLanguage, t, translatePage } from './i18n.js';
import { bindKeys } from './keys.js';
import { gameFromUrl, rulesFrom, savedGame } from './link.js';
import { relabelOpening, renderOpening } from './opening.js';
import { parseOpponent, rulesToString } from './notation.js';
import { autoMove, askHint, back, forward, goto, humanMove, onSettled, startGame, toEnd, toStart, undo } from './play.js';
import { applyTheme, onSystemSchemeChange, saveSettings, settings } from './settings.js';
import { FALLBACK_PRESETS, store } from './store.js';
import { bindRecord, gameInUrl, inRecord, openRecord, recordMove, renderRecord } from './record.js';
import { bindRoom, inRoom, openRoom, renderRoom, roomInUrl, roomMove } from './room.js';
import { hideTip, refreshHeat, showWeightUnderPointer, toggleHeat } from './tools.js';
import { MoveTree } from './tree.js';
import { board, grid, hooks, onRender, render } from './view.js';

const $ = (id) => document.getElementById(id);

function toggleNumbers() {
  settings.numbers = !settings.numbers;
  saveSettings();
  render();
}

/** The indicator beside the title: where the computer thinks, and whether its engine loads. */
function renderEngineWhere() {
  const where = $('engine-where');
  const state = engine.state;
  where.dataset.state = state;
  where.textContent = t({ ready: 'engineDevice', loading: 'engineLoading', server: 'engineServer', failed: 'engineServer' }[state]);
  where.title = t({ ready: 'engineDeviceTitle', loading: 'engineDeviceTitle', server: 'engineServerTitle', failed: 'engineFailedTitle' }[state]);
  $('sel-thinking').value = settings.thinking === 'server' ? 'server' : 'device';
}

/**
 * Opens the shortcut list at its top: a modal dialog focuses its first control, here the Close
 * button at the bottom, and a phone's screen would open the list scrolled down to it.
 */
function openHelp() {
  const dlg = $('dlg-help');
  if (dlg.open) return;
  dlg.showModal();
  $('dlg-help-title').focus();
  dlg.scrollTop = 0;
}

function setTheme(theme) {
  applyTheme(theme, () => board.readColors());
}

function bind() {
  // A move chosen while trying to find a better move is judged, not played.
  hooks.activate = (cell) => {
    if (inRoom()) return roomMove(cell);
    if (inRecord()) return recordMove();
    const trial = store.review.trial;
    if (trial && store.tree.cursor === trial.node.parent && !store.step) judgeTrial(cell).catch((e) => showRequestFailure(e, null));
    else humanMove(cell);
  };
  hooks.goto = goto;
  onSettled(refreshHeat);
  onSettled(refreshExact);
  onSettled(refreshAnalysis);
  onSettled(resetExplorer);
  onRender(renderOpening);

  const buttons = {
    'btn-new': openNewGame,
    'banner-new': openNewGame,
    'btn-undo': undo,
    'btn-hint': askHint,
    'btn-auto': autoMove,
    'btn-heat': toggleHeat,
    'btn-numbers': toggleNumbers,
    'btn-exact': toggleExact,
    'btn-analysis': toggleAnalysis,
    'btn-raw': toggleRawScores,
    'btn-review': toggleReview,
    'btn-share': openShare,
    'btn-trial': () => {
      if (!startTrial(goto)) {
        store.review.lastVerdict = t('trialNone');
        render();
      }
    },
    'btn-reveal': revealTrial,
    'btn-centre': () => board.recentre(),
    'btn-help': openHelp,
    'btn-retry': retryError,
    'btn-dismiss': hideError,
    'link-error-dismiss': hideLinkError,
    'nav-start': toStart,
    'nav-back': back,
    'nav-forward': forward,
    'nav-end': toEnd,
  };
  for (const [id, action] of Object.entries(buttons)) $(id).addEventListener('click', action);

  bindKeys(
    {
      d: autoMove,
      e: toggleExact,
      g: toggleExplorer,
      a: toggleAnalysis,
      r: toggleReview,
      i: openShare,
      t: showWeightUnderPointer,
      w: toggleHeat,
      h: askHint,
      u: undo,
      n: openNewGame,
      m: toggleNumbers,
      c: () => board.recentre(),
      x: explainLast,
      '?': openHelp,
      ArrowLeft: back,
      ArrowRight: forward,
      Home: toStart,
      End: toEnd,
      Escape: () => {
        hideError();
        hideLinkError();
        hideTip();
      },
    },
    // In a room the game is the server's: no undo, hint or new game from the keyboard. A finished
    // game's record is stepped through, and nothing else.
    {
      blocked: (key) =>
        $('dlg-new').open ||
        $('dlg-help').open ||
        $('dlg-share').open ||
        $('dlg-explain').open ||
        $('dlg-room').open ||
        $('dlg-resign').open ||
        inRoom() ||
        (inRecord() && !RECORD_KEYS.has(key)),
    },
  );

  $('sel-lang').addEventListener('change', async (e) => {
    settings.lang = e.target.value;
    saveSettings();
    await setLanguage(settings.lang);
    afterLanguage();
  });
  $('sel-look').addEventListener('change', (e) => {
    settings.look = e.target.value;
    saveSettings();
    render();
  });
  $('sel-thinking').addEventListener('change', (e) => {
    chooseThinking(e.target.value);
    saveSettings();
  });
  onEngineChange(renderEngineWhere);
  $('sel-theme').addEventListener('change', (e) => {
    setTheme(e.target.value);
    saveSettings();
  });
  onSystemSchemeChange(() => setTheme(settings.theme));
  bindDialog();
  bindShare();
  bindExplain();
  bindRoom();
  bindRecord();
  bindExplorer(goto);
}

/** The shortcuts a finished game's record takes: steps through it, and what only shows. */
const RECORD_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'Home', 'End', 'm', 'c', '?', 'Escape']);

function afterLanguage() {
  $('sel-lang').value = lang();
  renderEngineWhere();
  grid.relabel();
  render();
  relabelDialog();
  relabelOpening();
  renderRoom();
  renderRecord();
}

async function loadCatalogue() {
  const [presets, bots] = await Promise.allSettled([call('presets'), call('bots')]);
  const { catalogue } = store;
  if (presets.status === 'fulfilled' && Array.isArray(presets.value.presets) && presets.value.presets.length) {
    catalogue.presets = presets.value.presets;
  }
  if (bots.status === 'fulfilled') {
    catalogue.bots = Array.isArray(bots.value.bots) ? bots.value.bots : [];
    catalogue.levels = Array.isArray(bots.value.levels) ? bots.value.levels : [];
  }
  const failed = [presets, bots].find((x) => x.status === 'rejected');
  if (failed) showRequestFailure(failed.reason, null);
}

/**
 * Opens the game of the link, or a fresh game from the last settings. A link that cannot be
 * opened is said so (the notice stays while the computer answers), and the last game this
 * browser showed opens instead: a fresh one only when there is none or it cannot open either.
 */
function openFirstGame() {
  const linked = gameFromUrl();
  const fallback = {
    rules: rulesFrom(settings.rules) || { ...FALLBACK_PRESETS[2].rules },
    opponent: parseOpponent(settings.opponent) || { level: 2 },
    side: settings.side === 'O' ? 'O' : 'X',
    tree: new MoveTree(),
  };
  // A room's or a finished game's link that leads nowhere: said above the board (where a phone
  // shows it), and a fresh game opens.
  const record = gameInUrl();
  if (record && !record.room) {
    startGame(fallback);
    showLinkError(t('recordUnknown', { id: record.text }), { code: 'unknown_room' });
    return;
  }
  if (record) {
    const id = `${record.room}-${record.number}`;
    openRecord(record, startGame, (err) => {
      startGame(fallback);
      const known = { unknown_room: 'recordUnknown', game_not_over: 'recordNotOver' }[err.code];
      showLinkError(known ? t(known, { id }) : describeError(err), err);
    });
    return;
  }
  const roomId = roomInUrl();
  if (roomId) {
    openRoom(roomId, (err) => {
      startGame(fallback);
      const id = roomId.length > 32 ? `${roomId.slice(0, 32)}…` : roomId;
      showLinkError(err.code === 'unknown_room' ? t('roomUnknown', { id }) : describeError(err), err);
    });
    return;
  }
  // Said above the board, where a phone shows it, like a room link's error.
  const notice = (text) => showLinkError(text);
  // The link cannot be opened (`why`): the last game instead, else a fresh one.
  const openInstead = (why) => {
    const saved = savedGame();
    if (!saved) {
      startGame(fallback);
      notice(why);
      return;
    }
    startGame(saved, {
      onFailed: () => {
        startGame(fallback);
        notice(why);
      },
    });
    notice([why, t('linkKeptGame'), saved.warning].filter(Boolean).join(' '));
  };
  if (!linked) {
    startGame(fallback);
    return;
  }
  if (linked.error) {
    openInstead(linked.error);
    return;
  }
  const restore = () =>
    startGame(linked, {
      // An opponent that does not play these rules: say why, and let two people study it.
      check: async () => {
        const r = await call(`bots?rules=${encodeURIComponent(rulesToString(linked.rules))}`);
        const o = linked.opponent;
        const entry = o.human ? null : o.level ? r.levels.find((l) => l.level === o.level) : r.bots.find((b) => b.id === o.bot);
        if (entry && entry.plays === false) {
          const why = refusalText({ code: 'unsupported', message: entry.why, reason: entry.reason, params: entry.params });
          linked.warning = [linked.warning, t('errLinkOpponentRules', { why })].filter(Boolean).join(' ');
          linked.opponent = { human: true };
        }
      },
      onStarted: () => {
        if (linked.warning) notice(linked.warning);
      },
      onFailed: (err) => {
        // The link is wrong (bad rules, an illegal move): say so and open the last game instead.
        if (isRefusal(err)) openInstead(t('errLinkRefused', { message: refusalText(err) }));
        else showError(err, restore);
      },
    });
  restore();
}

async function main() {
  const canvasOk = Boolean(document.createElement('canvas').getContext && $('canvas').getContext('2d'));
  if (!canvasOk || typeof fetch !== 'function' || typeof AbortController !== 'function') {
    $('unsupported').hidden = false;
    document.body.classList.add('fatal-mode');
    return;
  }
  setTheme(settings.theme in { auto: 1, light: 1, dark: 1 } ? settings.theme : 'auto');
  $('sel-theme').value = settings.theme;
  $('sel-look').value = settings.look === 'stones' ? 'stones' : 'cells';
  await setLanguage(settings.lang && settings.lang in LANGUAGES ? settings.lang : detectLanguage());
  $('sel-lang').value = lang();
  bind();
  // The board is drawn and playable first; the engine loads beside it (the server answers until
  // it is ready).
  startEngine();
  renderEngineWhere();
  registerServiceWorker();
  await loadCatalogue();
  openFirstGame();
}

/** The service worker keeps the page and its engine for offline visits (sw.js). */
function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('sw.js').catch(() => {
    /* no offline copy: the page still works online */
  });
}

translatePage();
main();
