// Notation only: how cells, rules and opponents are written in the API, the URL and the move
// list. Nothing here decides legality or outcomes; the server does that (POST /api/state).

/** Column letters of column x (0 → a, 25 → z, 26 → aa), as the API writes them. */
export function columnName(x) {
  let n = x + 1;
  let s = '';
  while (n > 0) {
    n -= 1;
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  }
  return s;
}

/** The API name of a cell: "h8" where both coordinates are >= 0, else "x,y". */
export function cellName(x, y) {
  return x >= 0 && y >= 0 ? `${columnName(x)}${y + 1}` : `${x},${y}`;
}

/** How the board shows a cell to people: "h8" on a bounded board, always "x,y" on the unbounded one. */
export function displayName(x, y, unbounded) {
  return unbounded ? `${x},${y}` : cellName(x, y);
}

/** Reads "h8" or "x,y" into {x, y}, or null. */
export function parseCell(text) {
  if (typeof text !== 'string') return null;
  let m = /^(-?\d{1,9}),(-?\d{1,9})$/.exec(text.trim());
  if (m) return { x: Number(m[1]), y: Number(m[2]) };
  m = /^([a-z]{1,6})(\d{1,9})$/i.exec(text.trim());
  if (!m || Number(m[2]) < 1) return null;
  let n = 0;
  for (const ch of m[1].toLowerCase()) n = n * 26 + (ch.charCodeAt(0) - 96);
  return { x: n - 1, y: Number(m[2]) - 1 };
}

/** The win rules besides freestyle, as the compact form writes them. */
const WIN_FLAGS = ['exact', 'renju', 'caro'];

/** Rules in the compact form the CLI and the URL use: 15x15x5, infx5, 15x15x5,exact,o-first. */
export function rulesToString(r) {
  let s = r.unbounded ? `infx${r.k}` : `${r.width}x${r.height}x${r.k}`;
  if (WIN_FLAGS.includes(r.win)) s += `,${r.win}`;
  if (r.first === 'O') s += ',o-first';
  return s;
}

/** Parses the compact rules form (shape only; the server validates the numbers). */
export function parseRules(text) {
  if (typeof text !== 'string') return null;
  const [board, ...flags] = text.toLowerCase().split(',');
  let rules;
  let m = /^inf(?:inite)?x(\d{1,3})$/.exec(board);
  if (m) rules = { unbounded: true, k: Number(m[1]) };
  else {
    m = /^(\d{1,3})x(\d{1,3})x(\d{1,3})$/.exec(board);
    if (!m) return null;
    rules = { width: Number(m[1]), height: Number(m[2]), k: Number(m[3]) };
  }
  rules.win = 'freestyle';
  rules.first = 'X';
  for (const f of flags) {
    if (WIN_FLAGS.includes(f) || f === 'freestyle') rules.win = f;
    else if (f === 'o-first') rules.first = 'O';
    else if (f === 'x-first') rules.first = 'X';
    else return null;
  }
  return rules;
}

/** Rules exactly as the API takes them (no unknown fields). */
export function apiRules(r) {
  const base = r.unbounded ? { unbounded: true } : { width: r.width, height: r.height };
  return { ...base, k: r.k, win: r.win || 'freestyle', first: r.first || 'X' };
}

/** Opponent in the URL: "human", "level3", "perfect", "alphabeta:4". */
export function opponentToString(o) {
  if (!o || o.human) return 'human';
  if (o.level) return `level${o.level}`;
  return o.depth ? `${o.bot}:${o.depth}` : o.bot;
}

export function parseOpponent(text) {
  if (typeof text !== 'string' || !text) return null;
  if (text === 'human') return { human: true };
  let m = /^level:?([1-9])$/.exec(text);
  if (m) return { level: Number(m[1]) };
  m = /^([a-z][a-z0-9_-]{0,31})(?::(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  return m[2] ? { bot: m[1], depth: Number(m[2]) } : { bot: m[1] };
}

/** Opponent exactly as the API takes it. */
export function apiOpponent(o) {
  if (o.level) return { level: o.level };
  return o.depth ? { bot: o.bot, depth: o.depth } : { bot: o.bot };
}

export function other(player) {
  return player === 'X' ? 'O' : 'X';
}
