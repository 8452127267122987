// The game-tree explorer (G): on boards the solver can decide, a position's moves with their
// exact values and the number of games and positions below each, from POST /api/tree, expandable
// level by level (the whole of tic-tac-toe from the empty board); values the server took from a
// solved opening book are marked so. Choosing a node shows its position on the board, as a
// variation of the game when the game did not go that way.
//
// The explorer is rooted at the position shown when it was opened ("Explore from here" moves the
// root). Answers are kept by position, so collapsing and opening again asks nothing. The tree
// follows the ARIA tree pattern: one focusable item; ↑/↓ move, →/← open and close, Enter shows.

import { call, RequestError } from './api.js';
import { refusalText, showRequestFailure } from './errors.js';
import { lang, t } from './i18n.js';
import { apiRules } from './notation.js';
import { playerOf, store } from './store.js';
import { onRender, render, valueText } from './view.js';

const $ = (id) => document.getElementById(id);

/** How long the server may take for one position's values and counts, in ms. */
const TREE_MS = 8000;

/** The explorer's own state: on or off, the root's moves, every position asked for. */
const explorer = {
  on: false,
  root: [],
  /** key (moves joined by spaces) → {data, loading, error, open} */
  nodes: new Map(),
  /** the key of the item that takes the focus (roving tabindex) */
  focus: '',
  /** `goto(node)` of the game flow, set by `bindExplorer` */
  goto: null,
  /** what the tree was last drawn from: drawn again only when it changes */
  drawn: '',
  /** counts changes to the explorer's own state */
  version: 0,
  /** the rules its answers are for */
  rules: '',
};

/** Something the explorer shows changed: draw it again. */
function changed() {
  explorer.version += 1;
  renderExplorer();
}

const keyOf = (moves) => moves.join(' ');

function entry(moves) {
  const key = keyOf(moves);
  if (!explorer.nodes.has(key)) explorer.nodes.set(key, { moves, data: null, loading: false, error: null, open: false });
  return explorer.nodes.get(key);
}

/** Asks the server for a position's moves, once. */
async function load(node) {
  if (node.data || node.loading) return;
  node.loading = true;
  node.error = null;
  changed();
  try {
    node.data = await call('tree', { rules: apiRules(store.rules), moves: node.moves, time_ms: TREE_MS });
  } catch (err) {
    if (err instanceof RequestError && err.kind === 'http' && ['too_large', 'out_of_time', 'game_over'].includes(err.code)) {
      node.error = err.code;
    } else {
      node.error = 'failed';
      showRequestFailure(err, () => load(node));
    }
  } finally {
    node.loading = false;
  }
  changed();
}

function open(node) {
  node.open = true;
  changed();
  load(node);
}

/** Whether a child is a finished game: a winning move, or one after which nothing is left. */
function isLeaf(child) {
  return (child.value && child.value.kind === 'win' && child.value.plies === 1) || child.positions === 1;
}

/** Shows the position after `moves` on the board: the game's own node, or a new variation. */
function showOnBoard(moves) {
  let node = store.tree.root;
  for (const move of moves) {
    let child = node.children.find((c) => c.move === move);
    if (!child) {
      const tree = store.tree;
      const cursor = tree.cursor;
      tree.cursor = node;
      child = tree.play(move);
      tree.cursor = cursor;
    }
    node = child;
  }
  explorer.focus = keyOf(moves);
  if (explorer.goto) explorer.goto(node);
}

const number = (n) => (n === undefined || n === null ? '' : Number(n).toLocaleString(lang()));

/**
 * The words of a row: its exact value told from one fixed point of view (`side` is the side the
 * server's value is for), and the counts.
 */
function rowParts(value, side, counts) {
  const parts = { value: '', kind: '', counts: '' };
  if (value) {
    parts.value = valueText(value, side);
    parts.kind = value.kind === 'draw' ? 'draw' : (value.kind === 'win') === (side === 'X') ? 'x' : 'o';
  }
  if (counts && counts.games !== undefined) {
    parts.counts = t('treeCounts', { games: number(counts.games), positions: number(counts.positions) });
  }
  return parts;
}

/**
 * One tree item: the move (or the root), its value for `side` and its counts, and its children
 * when open.
 */
function item(moves, value, side, counts, level, leaf) {
  const key = keyOf(moves);
  const node = explorer.nodes.get(key);
  const li = document.createElement('li');
  li.setAttribute('role', 'treeitem');
  li.setAttribute('aria-level', String(level));
  li.dataset.key = key;
  li.tabIndex = key === explorer.focus ? 0 : -1;
  const expandable = !leaf;
  if (expandable) li.setAttribute('aria-expanded', String(Boolean(node && node.open)));
  if (keyOf(store.tree.moves) === key) li.setAttribute('aria-current', 'true');

  const row = document.createElement('div');
  row.className = 'xrow';
  const twisty = document.createElement('span');
  twisty.className = 'twisty';
  twisty.setAttribute('aria-hidden', 'true');
  twisty.textContent = expandable ? (node && node.open ? '▾' : '▸') : '·';
  twisty.addEventListener('click', (e) => {
    e.stopPropagation();
    if (!expandable) return;
    explorer.focus = key;
    toggle(key);
  });
  const name = document.createElement('span');
  name.className = 'xmove';
  if (moves.length) {
    const mover = playerOf(moves.length - 1);
    name.innerHTML = `<span class="p p-${mover}">${mover}</span> `;
    name.append(moves[moves.length - 1]);
  } else {
    name.textContent = t('treeStart');
  }
  const parts = rowParts(value, side, counts);
  const val = document.createElement('span');
  val.className = `xvalue v-${parts.kind}`;
  val.textContent = parts.value;
  const cnt = document.createElement('span');
  cnt.className = 'xcounts';
  cnt.textContent = parts.counts;
  row.append(twisty, name, val, cnt);
  row.addEventListener('click', () => {
    explorer.focus = key;
    showOnBoard(moves);
  });
  li.appendChild(row);

  if (expandable && node && node.open) li.appendChild(childrenOf(node, level));
  return li;
}

/** The group under an open item: its moves, or why there are none. */
function childrenOf(node, level) {
  const ul = document.createElement('ul');
  ul.setAttribute('role', 'group');
  const note = (text, state) => {
    const li = document.createElement('li');
    li.className = 'xnote';
    li.dataset.state = state;
    li.textContent = text;
    ul.appendChild(li);
    return ul;
  };
  if (node.loading) return note(t('treeLoading'), 'loading');
  if (node.error === 'out_of_time') return note(t('treeOutOfTime'), 'out_of_time');
  if (node.error === 'too_large') return note(t('treeTooLarge'), 'too_large');
  if (node.error) return note(t('treeFailed'), 'failed');
  if (!node.data) return ul;
  const { data } = node;
  if (data.outcome.status !== 'ongoing') {
    const text = data.outcome.status === 'win' ? t('treeWon', { p: data.outcome.winner }) : data.outcome.reason === 'no_line_left' ? t('treeDeadDraw') : t('treeDrawn');
    return note(text, 'over');
  }
  if (data.uncounted) note(t('treeUncounted', { why: refusalText({ ...data.uncounted, code: 'uncounted' }) }), 'uncounted');
  if (data.source === 'book') note(t('treeFromBook'), 'book');
  for (const child of data.children) {
    const moves = [...node.moves, child.cell];
    // A move's value is for the side that played it.
    ul.appendChild(item(moves, child.value, playerOf(node.moves.length), child, level + 1, isLeaf(child)));
  }
  return ul;
}

function toggle(key) {
  const node = explorer.nodes.get(key) || entry(key ? key.split(' ') : []);
  if (node.open) {
    node.open = false;
    changed();
  } else {
    open(node);
  }
}

/** Draws the explorer (kept out of the way when it is off); the focus stays where it was. */
export function renderExplorer() {
  const el = $('explorer');
  el.hidden = !explorer.on;
  $('btn-tree').setAttribute('aria-pressed', String(explorer.on));
  if (!explorer.on) return;
  // The page draws often (the analysis streams): rebuilding rows under the pointer would lose
  // clicks, so the tree is drawn again only when what it shows changed.
  const drawn = `${explorer.version}|${keyOf(store.tree.moves)}|${lang()}`;
  if (drawn === explorer.drawn) return;
  explorer.drawn = drawn;
  const hadFocus = el.contains(document.activeElement);
  const root = entry(explorer.root);
  const tree = $('explorer-tree');
  const note = $('explorer-note');
  note.textContent = '';
  note.dataset.state = '';
  if (root.error === 'too_large') {
    note.textContent = t('treeTooLarge');
    note.dataset.state = 'too_large';
    tree.replaceChildren();
    tree.dataset.ready = 'false';
    return;
  }
  $('explorer-root').textContent = explorer.root.length ? t('treeFrom', { moves: explorer.root.join(' ') }) : t('treeFromStart');
  const data = root.data;
  const counts = data && data.games !== undefined ? data : null;
  // The root's value is for the side to move there.
  const top = item(explorer.root, data ? data.value : null, playerOf(explorer.root.length), counts, 1, false);
  const scroll = tree.scrollTop;
  tree.replaceChildren(top);
  tree.scrollTop = scroll;
  tree.dataset.ready = String(Boolean(data));
  if (!tree.querySelector('[tabindex="0"]')) {
    explorer.focus = keyOf(explorer.root);
    top.tabIndex = 0;
  }
  if (hadFocus) {
    const focused = tree.querySelector('[tabindex="0"]');
    if (focused) focused.focus();
  }
}

/** Roots the explorer at the position shown, with it open. */
function rootHere() {
  explorer.root = [...store.tree.moves];
  explorer.focus = keyOf(explorer.root);
  open(entry(explorer.root));
}

/** Opens the explorer rooted at the position after `moves` (the perfect player's view links here). */
export function exploreFrom(moves) {
  explorer.on = true;
  explorer.root = [...moves];
  explorer.focus = keyOf(explorer.root);
  open(entry(explorer.root));
}

export function toggleExplorer() {
  explorer.on = !explorer.on;
  if (explorer.on) rootHere();
  else changed();
}

/** After a new game: what was explored belongs to the old one (its rules may differ). */
export function resetExplorer() {
  const rules = JSON.stringify(apiRules(store.rules));
  if (rules === explorer.rules) return;
  explorer.rules = rules;
  explorer.nodes.clear();
  if (explorer.on) rootHere();
}

/** The visible items, in order, for the arrow keys. */
function visibleItems() {
  return [...$('explorer-tree').querySelectorAll('[role="treeitem"]')].filter((li) => !li.closest('[aria-expanded="false"] > ul'));
}

function focusItem(li) {
  if (!li) return;
  for (const other of $('explorer-tree').querySelectorAll('[role="treeitem"][tabindex="0"]')) other.tabIndex = -1;
  li.tabIndex = 0;
  explorer.focus = li.dataset.key;
  li.focus();
}

function onKey(e) {
  const li = e.target.closest('[role="treeitem"]');
  if (!li || e.ctrlKey || e.metaKey || e.altKey) return;
  const items = visibleItems();
  const i = items.indexOf(li);
  const expanded = li.getAttribute('aria-expanded');
  const parent = li.parentElement.closest('[role="treeitem"]');
  const moves = li.dataset.key ? li.dataset.key.split(' ') : [];
  const actions = {
    ArrowDown: () => focusItem(items[i + 1]),
    ArrowUp: () => focusItem(items[i - 1]),
    Home: () => focusItem(items[0]),
    End: () => focusItem(items[items.length - 1]),
    ArrowRight: () => {
      if (expanded === 'false') toggle(li.dataset.key);
      else if (expanded === 'true') focusItem(li.querySelector('[role="treeitem"]'));
    },
    ArrowLeft: () => {
      if (expanded === 'true') toggle(li.dataset.key);
      else focusItem(parent);
    },
    Enter: () => showOnBoard(moves),
    ' ': () => showOnBoard(moves),
  };
  const action = actions[e.key];
  if (!action) return;
  // The page's own arrows step through the game: not while the tree has the focus.
  e.preventDefault();
  e.stopPropagation();
  action();
}

/** Wires the explorer's controls; `goto` shows a node of the move tree. */
export function bindExplorer(goto) {
  explorer.goto = goto;
  $('btn-tree').addEventListener('click', toggleExplorer);
  $('btn-tree-here').addEventListener('click', rootHere);
  $('explorer-tree').addEventListener('keydown', onKey);
  onRender(renderExplorer);
}
