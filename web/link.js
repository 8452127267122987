// The game in the address: a link opens the same rules, opponent, moves (with their variations)
// and position, on any device. `?r=15x15x5&m=h8.i9.j10&o=level2&s=X`, plus `t=` the whole move
// tree when it has variations (see tree.js) and `p=` the ply shown when it is not the line's end;
// a swap opening adds `w=swap2`, its decisions `d=place-two.white` and the player's seat
// `e=opener|chooser`. The browser keeps the last game's link too, so that a bad link opened later
// does not cost it.

import { opponentToString, parseOpponent, parseRules, rulesToString } from './notation.js';
import { saveSettings, settings } from './settings.js';
import { store } from './store.js';
import { t } from './i18n.js';
import { MoveTree } from './tree.js';

const part = (text) => encodeURIComponent(text).replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%28/g, '(').replace(/%29/g, ')');

/** The link of the game shown, relative to this page. */
export function gameLink() {
  return `${location.pathname}?${gameQuery()}`;
}

/** The query of the game shown's link. */
function gameQuery() {
  const { tree } = store;
  const line = tree.lineMoves();
  const parts = [
    `r=${part(rulesToString(store.rules))}`,
    `m=${line.map(part).join('.')}`,
    `o=${part(opponentToString(store.opponent))}`,
    `s=${store.side}`,
  ];
  if (store.opening.kind !== 'free') {
    parts.push(`w=${store.opening.kind}`, `e=${store.opening.seat || 'opener'}`);
    if (store.opening.decisions.length) parts.push(`d=${store.opening.decisions.join('.')}`);
  }
  if (tree.hasVariations()) parts.push(`t=${part(tree.toText())}`);
  if (tree.ply < line.length) parts.push(`p=${tree.ply}`);
  return parts.join('&');
}

/** Puts the game in the address bar and remembers it, with its rules, opponent and side (not
 * for a finished game's record, whose address stays its permanent one). */
export function saveUrl() {
  if (!store.rules || store.record) return;
  settings.game = gameQuery();
  try {
    history.replaceState(null, '', gameLink());
  } catch {
    /* some embedded browsers refuse; the game still works */
  }
  settings.rules = rulesToString(store.rules);
  settings.opponent = opponentToString(store.opponent);
  settings.side = store.side;
  saveSettings();
}

/** Whether the server offers this opponent (when its list is known). */
function knownOpponent(o) {
  const { bots, levels } = store.catalogue;
  if (o.human) return true;
  if (o.level) return !levels.length || levels.some((l) => l.level === o.level);
  return !bots.length || bots.some((b) => b.id === o.bot);
}

/** Rules from their text or a preset's id. */
export function rulesFrom(text) {
  const r = parseRules(text);
  if (r) return r;
  const p = store.catalogue.presets.find((x) => x.id === text);
  return p ? { ...p.rules } : null;
}

/**
 * The game a link describes: {rules, opponent, side, tree, warning}, {error} when it cannot be
 * read (a warning says what was replaced: an opponent the server does not have, variations that
 * cannot be read), or null when the address holds no game. Hash (#r=…) works as well as the
 * query.
 */
export function gameFromUrl() {
  return gameFromQuery(new URLSearchParams(location.search.length > 1 ? location.search : location.hash.replace(/^#/, '')));
}

/** The last game this browser showed (its link, kept by `saveUrl`), if it can be read. */
export function savedGame() {
  const game = settings.game ? gameFromQuery(new URLSearchParams(settings.game)) : null;
  return game && !game.error ? game : null;
}

function gameFromQuery(q) {
  if (!q.has('r')) return null;
  const rules = rulesFrom(q.get('r'));
  if (!rules) return { error: t('errLink', { what: q.get('r') }) };
  const opponentText = q.get('o') || 'human';
  let opponent = parseOpponent(opponentText);
  let warning = '';
  if (!opponent || !knownOpponent(opponent)) {
    // The game itself is good: open it for two people, and say what was wrong.
    warning = t('errLinkOpponent', { what: opponentText });
    opponent = { human: true };
  }
  const moveText = q.get('m') || '';
  const moves = moveText ? moveText.split(/[.\s]+/).filter(Boolean) : [];
  let tree = MoveTree.fromMoves([]);
  if (q.has('t')) {
    // Variations that cannot be read: the game's line (`m`) is still good, so it opens without
    // them, and the warning says what is wrong.
    const read = MoveTree.readText(q.get('t'));
    if (read.tree) tree = read.tree;
    else warning = [warning, t('errLinkTree', { why: t(`treeText_${read.error}`) })].filter(Boolean).join(' ');
  }
  // The line of `m` is played into the tree: it selects the line shown (and is the whole game
  // in a link without `t`).
  tree.goto(tree.root);
  for (const m of moves) tree.play(m);
  const ply = q.has('p') ? Number(q.get('p')) : moves.length;
  const node = Number.isInteger(ply) && ply >= 0 ? tree.nodeAt(ply) : null;
  tree.goto(node || tree.end());
  const side = q.get('s') === 'O' ? 'O' : 'X';
  return { rules, opponent, side, tree, warning, opening: openingFrom(q) };
}

const OPENINGS = ['free', 'swap', 'swap2'];
const DECISIONS = ['black', 'white', 'place-two'];

/** A link's swap opening (the server checks that its decisions fit the stones). */
function openingFrom(q) {
  const kind = OPENINGS.includes(q.get('w')) ? q.get('w') : 'free';
  const decisions = (q.get('d') || '').split('.').filter((d) => DECISIONS.includes(d));
  const seat = q.get('e') === 'chooser' ? 'chooser' : 'opener';
  return { kind, decisions, seat };
}
