// The board on a canvas. It draws what the page knows (stones, last move, winning line, hint,
// heat map) and maps screen points to cells; it knows no rules. A bounded board is fitted to its
// box; the unbounded board has a view (centre cell and cell size) that the player pans and zooms.
// Coordinates: cell (x, y) has x from the left and y from the bottom, as in the API.

import { columnName as columnLabel } from './notation.js';

const MIN_CELL = 16;
const MAX_CELL = 90;
const DEFAULT_CELL = 36;
const DRAG_THRESHOLD = 6;
/** The smallest text written on the board (a candidate's label shrunk to fit its cell). */
const MIN_LABEL_PX = 7;

/** Where the star points go on a side of n lines: 4th from each edge and the middle. */
function starLines(n) {
  if (n < 9) return [];
  const edge = n >= 13 ? 3 : 2;
  const lines = [edge, n - 1 - edge];
  if (n % 2 === 1) lines.push((n - 1) / 2);
  return lines;
}

/** The view ({cx, cy, cs}) that shows every stone with a margin in a w × h box. */
function fitting(stones, w, h) {
  const xs = stones.map((s) => s.x);
  const ys = stones.map((s) => s.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, cs: Math.min(DEFAULT_CELL, w / (x1 - x0 + 5), h / (y1 - y0 + 5)) };
}

export class BoardView {
  /**
   * @param {HTMLElement} host the positioned box holding the canvas and the grid layer
   * @param {HTMLCanvasElement} canvas
   */
  constructor(host, canvas) {
    this.host = host;
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.w = 0;
    this.h = 0;
    this.rules = null;
    this.stones = []; // [{x, y, p, n}] in move order
    this.last = null;
    this.line = null; // winning line [{x, y}]
    this.ghost = null; // {x, y, p}
    this.pending = null; // {x, y, p} a move waiting for the server's answer
    this.heat = null; // [{x, y, weight}]
    this.exact = null; // [{x, y, kind: 'win'|'draw'|'loss', plies}] for the side to move
    this.forbidden = null; // [{x, y, kind}] renju: the cells the side to move may not play
    this.pv = null; // [{x, y, p, n}] the engine's principal variation, drawn as numbered ghosts
    this.candidates = null; // [{x, y, text}] the engine's candidate moves with their scores
    this.numbers = false;
    /** 'cells' (X and O in the cells) or 'stones' (black and white on the intersections) */
    this.look = 'cells';
    this.hover = null;
    this.view = { cx: 0, cy: 0, cs: DEFAULT_CELL };
    this.colors = {};
    this.onView = () => {}; // called after the geometry changes (grid mirror follows)
    this.onHover = () => {};
    this.suppressClick = false;
    this.frame = 0;
    this.pointers = new Map();
    this.gesture = null;
    this.readColors();
    new ResizeObserver(() => this.resize()).observe(host);
    this.bindPointer();
  }

  get unbounded() {
    return Boolean(this.rules && this.rules.unbounded);
  }

  readColors() {
    const cs = getComputedStyle(document.documentElement);
    for (const name of ['board', 'grid', 'label', 'x', 'o', 'black', 'white', 'exact-win', 'exact-draw', 'exact-loss', 'last', 'win', 'ghost', 'heat', 'hover', 'number', 'strip']) {
      this.colors[name] = cs.getPropertyValue(`--c-${name}`).trim() || '#888';
    }
    this.schedule();
  }

  resize() {
    const r = this.host.getBoundingClientRect();
    this.w = Math.max(1, r.width);
    this.h = Math.max(1, r.height);
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(this.w * dpr);
    this.canvas.height = Math.round(this.h * dpr);
    this.canvas.style.width = `${this.w}px`;
    this.canvas.style.height = `${this.h}px`;
    this.draw();
  }

  setRules(rules) {
    this.rules = rules;
    this.host.classList.toggle('unbounded', Boolean(rules.unbounded));
    this.view = { cx: 0, cy: 0, cs: DEFAULT_CELL };
    this.schedule();
  }

  /** Geometry: cell size `cs`, left edge of column 0 `ax`, bottom edge of row 0 `ay`, gutter `g`. */
  geometry() {
    if (!this.rules) return null;
    if (this.unbounded) {
      const { cx, cy, cs } = this.view;
      return { cs, ax: this.w / 2 - (cx + 0.5) * cs, ay: this.h / 2 + (cy + 0.5) * cs, g: 0 };
    }
    const { width, height } = this.rules;
    const pad = 6;
    // One gutter on the left (row numbers) and one below (column letters), ~0.9 of a cell.
    let cs = Math.min((this.w - 2 * pad) / (width + 0.9), (this.h - 2 * pad) / (height + 0.9));
    cs = Math.max(4, Math.min(cs, 120));
    const g = Math.min(cs * 0.9, 28);
    const bw = width * cs + g;
    const bh = height * cs + g;
    const ax = Math.round((this.w - bw) / 2 + g);
    const ay = Math.round((this.h - bh) / 2 + height * cs);
    return { cs, ax, ay, g };
  }

  /** The cells in view: {x0, x1, y0, y1} inclusive. */
  range() {
    const geo = this.geometry();
    if (!geo) return null;
    if (!this.unbounded) return { x0: 0, x1: this.rules.width - 1, y0: 0, y1: this.rules.height - 1 };
    const { cs, ax, ay } = geo;
    return {
      x0: Math.floor(-ax / cs),
      x1: Math.floor((this.w - ax - 0.001) / cs),
      y0: Math.floor((ay - this.h) / cs),
      y1: Math.floor((ay - 0.001) / cs),
    };
  }

  cellAtPoint(px, py) {
    const geo = this.geometry();
    if (!geo) return null;
    const x = Math.floor((px - geo.ax) / geo.cs);
    const y = Math.floor((geo.ay - py) / geo.cs);
    if (!this.unbounded && (x < 0 || y < 0 || x >= this.rules.width || y >= this.rules.height)) return null;
    return { x, y };
  }

  cellAtClient(clientX, clientY) {
    const r = this.host.getBoundingClientRect();
    return this.cellAtPoint(clientX - r.left, clientY - r.top);
  }

  // ---- the unbounded view -------------------------------------------------------------------

  zoomAt(factor, px = this.w / 2, py = this.h / 2) {
    if (!this.unbounded) return;
    const v = this.view;
    const cs = Math.max(MIN_CELL, Math.min(MAX_CELL, v.cs * factor));
    // Keep the board point under (px, py) fixed.
    const bx = v.cx + (px - this.w / 2) / v.cs;
    const by = v.cy - (py - this.h / 2) / v.cs;
    v.cx = bx - (px - this.w / 2) / cs;
    v.cy = by + (py - this.h / 2) / cs;
    v.cs = cs;
    this.schedule();
  }

  panBy(dx, dy) {
    if (!this.unbounded) return;
    this.view.cx -= dx / this.view.cs;
    this.view.cy += dy / this.view.cs;
    this.schedule();
  }

  /**
   * Centres the view on the stones at a comfortable size: all of them when they fit at the
   * smallest cell size, else the last move (the minimap shows the rest); 0,0 on an empty board.
   */
  recentre() {
    if (!this.unbounded) return;
    const fit = this.stones.length ? fitting(this.stones, this.w, this.h) : { cx: 0, cy: 0, cs: DEFAULT_CELL };
    if (fit.cs >= MIN_CELL) {
      this.view = { cx: fit.cx, cy: fit.cy, cs: Math.min(MAX_CELL, fit.cs) };
    } else {
      const last = this.last || this.stones[this.stones.length - 1];
      this.view = { cx: last.x, cy: last.y, cs: DEFAULT_CELL };
    }
    this.schedule();
  }

  /** Centres the view on a point of the plane, keeping the zoom. */
  centreOn(x, y) {
    if (!this.unbounded) return;
    this.view.cx = x;
    this.view.cy = y;
    this.schedule();
  }

  /** Brings a cell into view (with a margin of two cells) when play leaves the visible area. */
  follow(cell) {
    if (!this.unbounded || !cell || !this.w) return;
    const v = this.view;
    const mx = Math.max(0, this.w / (2 * v.cs) - 2);
    const my = Math.max(0, this.h / (2 * v.cs) - 2);
    if (Math.abs(cell.x - v.cx) > mx) v.cx = cell.x - Math.sign(cell.x - v.cx) * mx;
    if (Math.abs(cell.y - v.cy) > my) v.cy = cell.y - Math.sign(cell.y - v.cy) * my;
    this.schedule();
  }

  bindPointer() {
    const host = this.host;
    host.addEventListener('pointerdown', (e) => {
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, sx: e.clientX, sy: e.clientY });
      if (this.pointers.size === 2) this.gesture = { pinch: this.pinchState() };
      else if (this.pointers.size === 1) this.gesture = { drag: false };
    });
    host.addEventListener('pointermove', (e) => {
      const p = this.pointers.get(e.pointerId);
      if (!p) {
        if (e.pointerType === 'mouse') this.setHover(this.cellAtClient(e.clientX, e.clientY), e);
        return;
      }
      const dx = e.clientX - p.x;
      const dy = e.clientY - p.y;
      p.x = e.clientX;
      p.y = e.clientY;
      if (!this.unbounded || !this.gesture) {
        if (e.pointerType === 'mouse') this.setHover(this.cellAtClient(e.clientX, e.clientY), e);
        return;
      }
      if (this.pointers.size >= 2 && this.gesture.pinch) {
        const now = this.pinchState();
        const before = this.gesture.pinch;
        const r = host.getBoundingClientRect();
        if (before.d > 0) this.zoomAt(now.d / before.d, now.mx - r.left, now.my - r.top);
        this.panBy(now.mx - before.mx, now.my - before.my);
        this.gesture.pinch = now;
        this.suppressClick = true;
        return;
      }
      if (!this.gesture.drag && Math.hypot(e.clientX - p.sx, e.clientY - p.sy) > DRAG_THRESHOLD) {
        this.gesture.drag = true;
        this.suppressClick = true;
        host.classList.add('dragging');
        try {
          host.setPointerCapture(e.pointerId);
        } catch {
          /* the pointer may already be gone */
        }
      }
      if (this.gesture.drag) this.panBy(dx, dy);
    });
    const end = (e) => {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size === 0) {
        this.gesture = null;
        host.classList.remove('dragging');
        // The click that follows a drag must not play a stone; let it pass first.
        if (this.suppressClick) setTimeout(() => (this.suppressClick = false), 0);
      } else if (this.pointers.size === 1 && this.gesture) {
        this.gesture = { drag: true };
      }
    };
    host.addEventListener('pointerup', end);
    host.addEventListener('pointercancel', end);
    host.addEventListener('pointerleave', (e) => {
      if (e.pointerType === 'mouse') this.setHover(null, e);
    });
    host.addEventListener(
      'wheel',
      (e) => {
        if (!this.unbounded) return;
        e.preventDefault();
        const r = host.getBoundingClientRect();
        const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
        this.zoomAt(Math.exp(-delta * 0.0015), e.clientX - r.left, e.clientY - r.top);
      },
      { passive: false },
    );
  }

  pinchState() {
    const [a, b] = [...this.pointers.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
  }

  setHover(cell, e) {
    const same = cell && this.hover && cell.x === this.hover.x && cell.y === this.hover.y;
    if (!same && (cell || this.hover)) {
      this.hover = cell;
      this.schedule();
    }
    this.onHover(cell, e);
  }

  // ---- drawing --------------------------------------------------------------------------------

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  draw() {
    const ctx = this.ctx;
    if (!ctx || !this.w) return;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.w, this.h);
    const geo = this.geometry();
    if (!geo) return;
    const range = this.range();
    const { cs, ax, ay } = geo;
    const c = this.colors;
    const left = (x) => ax + x * cs;
    const top = (y) => ay - (y + 1) * cs;
    const inRange = (p) => p.x >= range.x0 && p.x <= range.x1 && p.y >= range.y0 && p.y <= range.y1;

    // Board and grid lines.
    ctx.fillStyle = c.board;
    const bx0 = this.unbounded ? 0 : left(0);
    const by0 = this.unbounded ? 0 : top(this.rules.height - 1);
    const bx1 = this.unbounded ? this.w : left(this.rules.width);
    const by1 = this.unbounded ? this.h : ay;
    ctx.fillRect(bx0, by0, bx1 - bx0, by1 - by0);

    if (this.line) {
      ctx.fillStyle = c.win;
      for (const p of this.line) ctx.fillRect(left(p.x), top(p.y), cs, cs);
    }
    if (this.heat && this.heat.length) {
      const max = Math.max(...this.heat.map((h) => h.weight), 1e-9);
      const min = Math.min(...this.heat.map((h) => h.weight), 0);
      for (const h of this.heat) {
        if (!inRange(h)) continue;
        const f = max > min ? (h.weight - min) / (max - min) : 1;
        ctx.globalAlpha = 0.12 + 0.68 * f;
        ctx.fillStyle = c.heat;
        ctx.fillRect(left(h.x), top(h.y), cs, cs);
      }
      ctx.globalAlpha = 1;
    }
    if (this.exact) this.drawExact(geo, inRange);
    if (this.hover && inRange(this.hover)) {
      ctx.fillStyle = c.hover;
      ctx.fillRect(left(this.hover.x), top(this.hover.y), cs, cs);
    }

    if (this.look === 'stones') this.drawIntersections(geo, range);
    else this.drawCellLines(geo, range, { bx0, by0, bx1, by1 });

    // Heat map numbers go under the stones but over the lines.
    if (this.heat && cs >= 26) {
      ctx.fillStyle = c.label;
      ctx.font = `${Math.round(cs * 0.3)}px system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (const h of this.heat) {
        if (!inRange(h)) continue;
        const txt = Math.abs(h.weight) >= 100 ? String(Math.round(h.weight)) : String(Math.round(h.weight * 10) / 10);
        ctx.fillText(txt, left(h.x) + cs / 2, top(h.y) + cs / 2);
      }
    }

    const stonesLook = this.look === 'stones';
    const mark = (p, player, alpha = 1) => {
      const x = left(p.x) + cs / 2;
      const y = top(p.y) + cs / 2;
      if (stonesLook) {
        this.drawStone(x, y, player, alpha, cs);
        return;
      }
      const r = cs * 0.32;
      ctx.globalAlpha = alpha;
      ctx.lineWidth = Math.max(1.5, cs * 0.1);
      ctx.lineCap = 'round';
      ctx.beginPath();
      if (player === 'X') {
        ctx.strokeStyle = c.x;
        ctx.moveTo(x - r, y - r);
        ctx.lineTo(x + r, y + r);
        ctx.moveTo(x + r, y - r);
        ctx.lineTo(x - r, y + r);
      } else {
        ctx.strokeStyle = c.o;
        ctx.arc(x, y, r, 0, Math.PI * 2);
      }
      ctx.stroke();
      ctx.globalAlpha = 1;
    };
    // Move numbers on small cells go in the middle over a faded mark, where they fit.
    // (Stones keep their colour: the number is written on them in the opposite one.)
    const smallNumbers = this.numbers && (cs < 30 || stonesLook);
    for (const s of this.stones) if (inRange(s)) mark(s, s.p, smallNumbers && !stonesLook ? 0.35 : 1);
    if (this.pending && inRange(this.pending)) mark(this.pending, this.pending.p, 0.5);
    if (this.ghost && inRange(this.ghost)) {
      ctx.fillStyle = c.ghost;
      ctx.fillRect(left(this.ghost.x) + 1, top(this.ghost.y) + 1, cs - 1, cs - 1);
      mark(this.ghost, this.ghost.p, 0.45);
    }
    if (this.forbidden) this.drawForbidden(geo, inRange);
    if (this.pv) this.drawLine(this.pv, geo, inRange, mark);
    if (this.candidates) this.drawCandidates(geo, inRange);
    // The winning line goes over the marks but under the last move's box and the move numbers,
    // which stay readable on it.
    if (this.line && this.line.length) {
      const a = this.line[0];
      const b = this.line[this.line.length - 1];
      ctx.strokeStyle = c.last;
      ctx.globalAlpha = 0.75;
      ctx.lineWidth = Math.max(3, cs * 0.12);
      ctx.lineCap = 'round';
      ctx.beginPath();
      ctx.moveTo(left(a.x) + cs / 2, top(a.y) + cs / 2);
      ctx.lineTo(left(b.x) + cs / 2, top(b.y) + cs / 2);
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
    if (this.last && stonesLook && !this.numbers) {
      // On a stone: a square in the last-move colour at its centre.
      const d = Math.max(4, cs * 0.26);
      ctx.fillStyle = c.last;
      ctx.fillRect(left(this.last.x) + (cs - d) / 2, top(this.last.y) + (cs - d) / 2, d, d);
    } else if (this.last) {
      ctx.strokeStyle = c.last;
      ctx.lineWidth = Math.max(2, cs * 0.07);
      const inset = ctx.lineWidth / 2 + 1;
      ctx.strokeRect(left(this.last.x) + inset, top(this.last.y) + inset, cs - 2 * inset, cs - 2 * inset);
    }
    if (smallNumbers) {
      ctx.fillStyle = c.number;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (const s of this.stones) {
        if (!inRange(s)) continue;
        if (stonesLook) ctx.fillStyle = s.p === 'X' ? c.white : c.black;
        const digits = String(s.n).length;
        ctx.font = `700 ${Math.max(7, Math.round(cs * (digits > 2 ? 0.34 : 0.44)))}px system-ui, sans-serif`;
        ctx.fillText(String(s.n), left(s.x) + cs / 2, top(s.y) + cs / 2 + 0.5);
      }
    } else if (this.numbers) {
      ctx.fillStyle = c.number;
      ctx.font = `600 ${Math.round(cs * 0.26)}px system-ui, sans-serif`;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      for (const s of this.stones) if (inRange(s)) ctx.fillText(String(s.n), left(s.x) + cs * 0.06, top(s.y) + cs * 0.04);
    }
    this.drawLabels(geo, range);
    if (this.unbounded) {
      const v = this.view;
      this.host.dataset.view = `${v.cx.toFixed(2)},${v.cy.toFixed(2)},${v.cs.toFixed(1)}`;
    }
    this.onView();
  }

  /**
   * Exact mode: each cell in the colour of its value for the side to move, stronger for a
   * quicker win or a slower loss, with the plies to the end written where they fit.
   */
  drawExact(geo, inRange) {
    const ctx = this.ctx;
    const { cs, ax, ay } = geo;
    const c = this.colors;
    const longest = Math.max(1, ...this.exact.map((e) => e.plies || 0));
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.font = `700 ${Math.round(Math.min(22, cs * 0.34))}px system-ui, sans-serif`;
    for (const e of this.exact) {
      if (!inRange(e)) continue;
      const x = ax + e.x * cs;
      const y = ay - (e.y + 1) * cs;
      const urgency = e.kind === 'draw' ? 0.5 : e.kind === 'win' ? 1 - (e.plies - 1) / (longest + 1) : (e.plies - 1) / (longest + 1);
      ctx.globalAlpha = 0.25 + 0.45 * urgency;
      ctx.fillStyle = c[`exact-${e.kind}`];
      ctx.fillRect(x + 1, y + 1, cs - 1, cs - 1);
      ctx.globalAlpha = 1;
      if (cs >= 22) {
        ctx.fillStyle = c.label;
        ctx.fillText(e.kind === 'draw' ? '=' : String(e.plies), x + cs / 2, y + cs / 2);
      }
    }
  }

  /** Renju's forbidden points for black: a small red cross in each, as renju boards mark them. */
  drawForbidden(geo, inRange) {
    const ctx = this.ctx;
    const { cs, ax, ay } = geo;
    const r = cs * 0.16;
    ctx.strokeStyle = this.colors['exact-loss'];
    ctx.lineWidth = Math.max(1.5, cs * 0.07);
    ctx.lineCap = 'round';
    for (const f of this.forbidden) {
      if (!inRange(f)) continue;
      const x = ax + (f.x + 0.5) * cs;
      const y = ay - (f.y + 0.5) * cs;
      ctx.beginPath();
      ctx.moveTo(x - r, y - r);
      ctx.lineTo(x + r, y + r);
      ctx.moveTo(x + r, y - r);
      ctx.lineTo(x - r, y + r);
      ctx.stroke();
    }
    ctx.lineCap = 'butt';
  }

  /** The engine's line as faded stones numbered in the order they would be played. */
  drawLine(line, geo, inRange, mark) {
    const ctx = this.ctx;
    const { cs, ax, ay } = geo;
    const taken = new Set(this.stones.map((s) => `${s.x},${s.y}`));
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.font = `700 ${Math.round(Math.min(18, cs * 0.4))}px system-ui, sans-serif`;
    for (const s of line) {
      if (!inRange(s) || taken.has(`${s.x},${s.y}`)) continue;
      mark(s, s.p, 0.3);
      ctx.fillStyle = this.colors.number;
      ctx.fillText(String(s.n), ax + (s.x + 0.5) * cs, ay - (s.y + 0.5) * cs);
    }
  }

  /**
   * The candidate moves: a frame and the score under each, within the cell: a label wider than
   * the frame is written smaller, and not at all when it would be too small to read.
   */
  drawCandidates(geo, inRange) {
    const ctx = this.ctx;
    const { cs, ax, ay } = geo;
    ctx.strokeStyle = this.colors['exact-win'];
    ctx.lineWidth = Math.max(1.5, cs * 0.05);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    const size = Math.round(Math.max(8, Math.min(12, cs * 0.28)));
    const room = cs - 6;
    for (const c of this.candidates) {
      if (!inRange(c)) continue;
      const x = ax + c.x * cs;
      const y = ay - (c.y + 1) * cs;
      ctx.setLineDash([3, 2]);
      ctx.strokeRect(x + 2, y + 2, cs - 4, cs - 4);
      ctx.setLineDash([]);
      if (cs < 24) continue;
      ctx.font = `600 ${size}px system-ui, sans-serif`;
      const width = ctx.measureText(c.text).width;
      const fitted = width > room ? Math.floor((size * room) / width) : size;
      if (fitted < MIN_LABEL_PX) continue;
      ctx.font = `600 ${fitted}px system-ui, sans-serif`;
      ctx.fillStyle = this.colors.label;
      ctx.fillText(c.text, x + cs / 2, y + cs - 3);
    }
  }

  /** The cells look: lines between cells, a mark (X or O) in each cell. */
  drawCellLines(geo, range, { bx0, by0, bx1, by1 }) {
    const ctx = this.ctx;
    const { cs, ax, ay } = geo;
    ctx.strokeStyle = this.colors.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let x = range.x0; x <= range.x1 + 1; x++) {
      const px = Math.round(ax + x * cs) + 0.5;
      ctx.moveTo(px, by0);
      ctx.lineTo(px, by1);
    }
    for (let y = range.y0 - 1; y <= range.y1; y++) {
      const py = Math.round(ay - (y + 1) * cs) + 0.5;
      ctx.moveTo(bx0, py);
      ctx.lineTo(bx1, py);
    }
    ctx.stroke();
  }

  /**
   * The gomoku look: lines through the cells' centres (the intersections are the points played)
   * and star points on a bounded board.
   */
  drawIntersections(geo, range) {
    const ctx = this.ctx;
    const { cs, ax, ay } = geo;
    const cx = (x) => Math.round(ax + (x + 0.5) * cs) + 0.5;
    const cy = (y) => Math.round(ay - (y + 0.5) * cs) + 0.5;
    const [x0, x1, y0, y1] = this.unbounded ? [0, this.w, 0, this.h] : [cx(0), cx(this.rules.width - 1), cy(this.rules.height - 1), cy(0)];
    ctx.strokeStyle = this.colors.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let x = range.x0; x <= range.x1; x++) {
      ctx.moveTo(cx(x), y0);
      ctx.lineTo(cx(x), y1);
    }
    for (let y = range.y0; y <= range.y1; y++) {
      ctx.moveTo(x0, cy(y));
      ctx.lineTo(x1, cy(y));
    }
    ctx.stroke();
    if (this.unbounded) return;
    ctx.fillStyle = this.colors.label;
    const r = Math.max(1.5, cs * 0.09);
    for (const x of starLines(this.rules.width)) {
      for (const y of starLines(this.rules.height)) {
        ctx.beginPath();
        ctx.arc(cx(x), cy(y), r, 0, Math.PI * 2);
        ctx.fill();
      }
    }
  }

  /** A stone of the gomoku look: X plays black, O white. */
  drawStone(x, y, player, alpha, cs) {
    const ctx = this.ctx;
    const c = this.colors;
    ctx.globalAlpha = alpha;
    ctx.beginPath();
    ctx.arc(x, y, cs * 0.43, 0, Math.PI * 2);
    ctx.fillStyle = player === 'X' ? c.black : c.white;
    ctx.fill();
    ctx.lineWidth = 1;
    ctx.strokeStyle = c.black;
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  drawLabels(geo, range) {
    const ctx = this.ctx;
    const { cs, ax, ay } = geo;
    const c = this.colors;
    const step = cs >= 14 ? 1 : cs >= 7 ? 2 : 5;
    const size = Math.max(9, Math.min(14, cs * 0.42));
    ctx.font = `${size}px system-ui, sans-serif`;
    ctx.fillStyle = c.label;
    if (!this.unbounded) {
      const { width, height } = this.rules;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const g = geo.g;
      for (let x = 0; x < width; x += step) ctx.fillText(columnLabel(x), ax + (x + 0.5) * cs, ay + g / 2 + 1);
      ctx.textAlign = 'right';
      for (let y = 0; y < height; y += step) ctx.fillText(String(y + 1), ax - 4, ay - (y + 0.5) * cs);
      return;
    }
    // Unbounded: strips along the bottom and left edges with 0-based x and y (the "x,y" notation).
    const strip = 18;
    ctx.fillStyle = c.strip;
    ctx.fillRect(0, this.h - strip, this.w, strip);
    ctx.fillRect(0, 0, 30, this.h - strip);
    ctx.fillStyle = c.label;
    ctx.font = `11px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const lstep = cs >= 28 ? 1 : cs >= 18 ? 2 : 5;
    for (let x = range.x0; x <= range.x1; x++) {
      if (x % lstep !== 0) continue;
      const px = ax + (x + 0.5) * cs;
      // Labels too near an edge would be cut off.
      if (px > 34 && px < this.w - 16) ctx.fillText(String(x), px, this.h - strip / 2);
    }
    for (let y = range.y0; y <= range.y1; y++) {
      if (y % lstep !== 0) continue;
      const py = ay - (y + 0.5) * cs;
      if (py < this.h - strip - 4) ctx.fillText(String(y), 15, py);
    }
  }
}

