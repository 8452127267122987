// The minimap of the board without borders: when some stones are out of view, a small map in the
// corner shows every stone and the part in view; a click or tap there moves the view to that
// point (to a stone, when one is near the click). Stones far apart are never lost.

const SIZE = { w: 132, h: 100 };
const PAD = 6;

export class Minimap {
  /**
   * @param {HTMLCanvasElement} canvas the map's own canvas, inside the board's box
   * @param {import('./board.js').BoardView} board
   */
  constructor(canvas, board) {
    this.canvas = canvas;
    this.board = board;
    this.scale = null; // how map pixels relate to cells, from the last draw
    canvas.addEventListener('pointerdown', (e) => e.stopPropagation());
    canvas.addEventListener('click', (e) => {
      e.stopPropagation();
      const r = canvas.getBoundingClientRect();
      const cell = this.nearestStone(e.clientX - r.left, e.clientY - r.top) || this.cellAt(e.clientX - r.left, e.clientY - r.top);
      if (cell) this.board.centreOn(cell.x, cell.y);
    });
  }

  /** Shows the map when some stone is out of view, and draws it. */
  draw() {
    const { board, canvas } = this;
    const range = board.unbounded && board.stones.length ? board.range() : null;
    const outside = range && board.stones.some((s) => s.x < range.x0 || s.x > range.x1 || s.y < range.y0 || s.y > range.y1);
    canvas.hidden = !outside;
    canvas.dataset.shown = String(Boolean(outside));
    if (!outside) return;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== SIZE.w * dpr) {
      canvas.width = SIZE.w * dpr;
      canvas.height = SIZE.h * dpr;
      canvas.style.width = `${SIZE.w}px`;
      canvas.style.height = `${SIZE.h}px`;
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, SIZE.w, SIZE.h);
    const c = board.colors;
    ctx.fillStyle = c.strip;
    ctx.fillRect(0, 0, SIZE.w, SIZE.h);
    // The extent: every stone and the view.
    const xs = [...board.stones.map((s) => s.x), range.x0, range.x1];
    const ys = [...board.stones.map((s) => s.y), range.y0, range.y1];
    const x0 = Math.min(...xs);
    const y0 = Math.min(...ys);
    const spanX = Math.max(...xs) - x0 + 1;
    const spanY = Math.max(...ys) - y0 + 1;
    const k = Math.min((SIZE.w - 2 * PAD) / spanX, (SIZE.h - 2 * PAD) / spanY);
    const ox = (SIZE.w - spanX * k) / 2;
    const oy = (SIZE.h - spanY * k) / 2;
    this.scale = { x0, y0, spanY, k, ox, oy };
    const px = (x) => ox + (x - x0) * k;
    const py = (y) => oy + (spanY - (y - y0) - 1) * k;
    ctx.strokeStyle = c.label;
    ctx.lineWidth = 1;
    ctx.strokeRect(px(range.x0), py(range.y1), (range.x1 - range.x0 + 1) * k, (range.y1 - range.y0 + 1) * k);
    const dot = Math.max(2.5, k);
    for (const s of board.stones) {
      ctx.fillStyle = s.p === 'X' ? c.x : c.o;
      ctx.fillRect(px(s.x) + k / 2 - dot / 2, py(s.y) + k / 2 - dot / 2, dot, dot);
    }
    if (board.last) {
      ctx.strokeStyle = c.last;
      ctx.lineWidth = 1.5;
      ctx.strokeRect(px(board.last.x) + k / 2 - dot, py(board.last.y) + k / 2 - dot, 2 * dot, 2 * dot);
    }
  }

  /** The stone drawn nearest a point of the map, within a finger's reach; else null. */
  nearestStone(mx, my) {
    const s = this.scale;
    if (!s) return null;
    let best = null;
    let bestDistance = 14;
    for (const stone of this.board.stones) {
      const px = s.ox + (stone.x - s.x0 + 0.5) * s.k;
      const py = s.oy + (s.spanY - (stone.y - s.y0) - 0.5) * s.k;
      const d = Math.hypot(px - mx, py - my);
      if (d < bestDistance) {
        best = stone;
        bestDistance = d;
      }
    }
    return best;
  }

  /** The cell under a point of the map, or null. */
  cellAt(mx, my) {
    const s = this.scale;
    if (!s) return null;
    return {
      x: Math.round(s.x0 + (mx - s.ox) / s.k - 0.5),
      y: Math.round(s.y0 + s.spanY - 1 - (my - s.oy) / s.k + 0.5),
    };
  }
}
