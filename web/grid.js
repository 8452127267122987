// The accessible mirror of the board: an ARIA grid of buttons laid exactly over the canvas cells.
// Keyboard players move with the arrow keys and play with Enter or Space; screen readers hear
// "h8, empty"; tests find cells by `data-cell`. A click on a button is the only way a move is
// made, so mouse, touch, keyboard and tests all take the same path.

import { cellName } from './notation.js';

export class GridMirror {
  /**
   * @param {HTMLElement} layer the element with role="grid"
   * @param {import('./board.js').BoardView} board
   * @param {{onActivate: (cell: {x:number,y:number}) => void, label: (cell, stone) => string}} hooks
   */
  constructor(layer, board, hooks) {
    this.layer = layer;
    this.board = board;
    this.hooks = hooks;
    this.buttons = new Map(); // "x,y" -> button
    this.rangeKey = '';
    this.focus = null; // the roving focus cell {x, y}
    this.stoneOf = new Map(); // "x,y" -> "X" | "O"
    this.labelsDirty = true;
    layer.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-x]');
      if (!b) return;
      if (this.board.suppressClick) return;
      const cell = { x: Number(b.dataset.x), y: Number(b.dataset.y) };
      this.setFocus(cell, false);
      this.hooks.onActivate(cell);
    });
    layer.addEventListener('keydown', (e) => this.onKey(e));
    layer.addEventListener('focusin', (e) => {
      const b = e.target.closest('button[data-x]');
      if (b) this.setFocus({ x: Number(b.dataset.x), y: Number(b.dataset.y) }, false);
    });
  }

  /** The stones changed: labels must be rewritten. */
  setStones(stones) {
    this.stoneOf = new Map(stones.map((s) => [`${s.x},${s.y}`, s.p]));
    this.labelsDirty = true;
    this.sync();
  }

  relabel() {
    this.labelsDirty = true;
    this.sync();
  }

  /** Follows the board geometry: rebuilds when the visible cells change, else only moves. */
  sync() {
    const geo = this.board.geometry();
    const range = this.board.range();
    if (!geo || !range) return;
    const { cs, ax, ay } = geo;
    const key = `${range.x0},${range.x1},${range.y0},${range.y1}`;
    const hadFocus = this.layer.contains(document.activeElement);
    if (key !== this.rangeKey) {
      this.rangeKey = key;
      this.build(range);
      this.labelsDirty = true;
    }
    const cols = range.x1 - range.x0 + 1;
    const rows = range.y1 - range.y0 + 1;
    const st = this.layer.style;
    st.left = `${ax + range.x0 * cs}px`;
    st.top = `${ay - (range.y1 + 1) * cs}px`;
    st.gridTemplateColumns = `repeat(${cols}, ${cs}px)`;
    st.gridTemplateRows = `repeat(${rows}, ${cs}px)`;
    if (this.labelsDirty) {
      this.labelsDirty = false;
      for (const b of this.buttons.values()) {
        const p = this.stoneOf.get(`${b.dataset.x},${b.dataset.y}`) || null;
        b.setAttribute('aria-label', this.hooks.label({ x: Number(b.dataset.x), y: Number(b.dataset.y) }, p));
        b.dataset.stone = p || '';
      }
    }
    if (!this.focus || !this.buttons.has(`${this.focus.x},${this.focus.y}`)) {
      this.focus = { x: Math.round((range.x0 + range.x1) / 2), y: Math.round((range.y0 + range.y1) / 2) };
    }
    this.applyTabIndex();
    if (hadFocus && !this.layer.contains(document.activeElement)) this.focusButton();
  }

  build(range) {
    const frag = document.createDocumentFragment();
    this.buttons.clear();
    this.layer.setAttribute('aria-rowcount', String(range.y1 - range.y0 + 1));
    this.layer.setAttribute('aria-colcount', String(range.x1 - range.x0 + 1));
    for (let y = range.y1; y >= range.y0; y--) {
      const row = document.createElement('div');
      row.setAttribute('role', 'row');
      for (let x = range.x0; x <= range.x1; x++) {
        const b = document.createElement('button');
        b.type = 'button';
        b.setAttribute('role', 'gridcell');
        b.dataset.cell = cellName(x, y);
        b.dataset.x = String(x);
        b.dataset.y = String(y);
        b.tabIndex = -1;
        row.appendChild(b);
        this.buttons.set(`${x},${y}`, b);
      }
      frag.appendChild(row);
    }
    this.layer.replaceChildren(frag);
  }

  applyTabIndex() {
    const key = this.focus ? `${this.focus.x},${this.focus.y}` : '';
    for (const [k, b] of this.buttons) b.tabIndex = k === key ? 0 : -1;
  }

  setFocus(cell, move = true) {
    this.focus = cell;
    this.applyTabIndex();
    if (move) this.focusButton();
  }

  focusButton() {
    const b = this.focus && this.buttons.get(`${this.focus.x},${this.focus.y}`);
    if (b) b.focus({ preventScroll: true });
  }

  onKey(e) {
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
    if (!d || !this.focus) return;
    e.preventDefault();
    const rules = this.board.rules;
    let { x, y } = this.focus;
    x += d[0];
    y += d[1];
    if (!rules.unbounded) {
      x = Math.max(0, Math.min(rules.width - 1, x));
      y = Math.max(0, Math.min(rules.height - 1, y));
    } else {
      // Walking off the visible area pans the view; the grid rebuilds and focus follows.
      this.board.follow({ x, y });
      this.board.draw();
    }
    this.setFocus({ x, y });
  }
}
