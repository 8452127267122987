// The moves of a game as a tree. Playing from an earlier point adds a variation instead of
// throwing the old future away; every node remembers which child its line continues with, so
// "forward" and "end" follow the line last looked at. Moves are cell names as the API writes
// them ("h8", or "-3,5" on the board without borders). Pure data: no DOM, no server.
//
// Text form (for links): moves joined by ".", each variation in parentheses right after the move
// it replaces, as in chess notation: "h8.i9(j10.k11).j11" is the line h8 i9 j11 with j10 k11
// tried instead of i9.

/** One position of the tree: the move that led to it and the moves tried from it. */
class MoveNode {
  constructor(move, parent) {
    this.move = move;
    this.parent = parent;
    /** @type {MoveNode[]} the first is the main line */
    this.children = [];
    /** the child the current line continues with */
    this.next = 0;
    /** the server's state of this position, once known (see store.js) */
    this.state = null;
  }

  /** Plies from the start of the game. */
  get ply() {
    let n = 0;
    for (let node = this; node.parent; node = node.parent) n++;
    return n;
  }

  /** The moves from the start to here. */
  get moves() {
    const out = [];
    for (let node = this; node.parent; node = node.parent) out.push(node.move);
    return out.reverse();
  }

  /** The child the line continues with, if any. */
  get continuation() {
    return this.children[this.next] || null;
  }
}

export class MoveTree {
  constructor() {
    this.root = new MoveNode(null, null);
    this.cursor = this.root;
  }

  /** A tree holding one line of moves, with the cursor at its end. */
  static fromMoves(moves) {
    const tree = new MoveTree();
    for (const m of moves) tree.play(m);
    return tree;
  }

  /** The moves from the start to the cursor. */
  get moves() {
    return this.cursor.moves;
  }

  get ply() {
    return this.cursor.ply;
  }

  /** Every node of the current line, start excluded: from the first move to the line's end. */
  line() {
    const out = [];
    for (let node = this.root.continuation; node; node = node.continuation) out.push(node);
    return out;
  }

  /** The moves of the whole current line (past the cursor too). */
  lineMoves() {
    return this.line().map((n) => n.move);
  }

  /** The last node of the current line. */
  end() {
    let node = this.cursor;
    while (node.continuation) node = node.continuation;
    return node;
  }

  atEnd() {
    return !this.cursor.continuation;
  }

  /**
   * Plays `move` at the cursor: the existing child if this move was tried before, else a new
   * child (a variation when the position already had one). The line continues with it.
   */
  play(move) {
    const from = this.cursor;
    let index = from.children.findIndex((c) => c.move === move);
    if (index < 0) {
      from.children.push(new MoveNode(move, from));
      index = from.children.length - 1;
    }
    from.next = index;
    this.cursor = from.children[index];
    return this.cursor;
  }

  /** Moves the cursor to `node` and makes the line pass through it. */
  goto(node) {
    for (let n = node; n.parent; n = n.parent) n.parent.next = n.parent.children.indexOf(n);
    this.cursor = node;
  }

  /** The node `ply` plies into the current line (0 is the start), or null. */
  nodeAt(ply) {
    if (ply === 0) return this.root;
    return this.line()[ply - 1] || null;
  }

  /**
   * Removes `node` and everything after it (a taken-back move). The parent's line continues
   * with its first remaining child.
   */
  remove(node) {
    const parent = node.parent;
    if (!parent) return;
    const i = parent.children.indexOf(node);
    if (i < 0) return;
    parent.children.splice(i, 1);
    if (parent.next >= i) parent.next = Math.max(0, parent.next - 1);
    if (parent.next >= parent.children.length) parent.next = 0;
    for (let n = this.cursor; n; n = n.parent) {
      if (n === node) {
        this.cursor = parent;
        break;
      }
    }
  }

  /** True when some position has more than one move tried. */
  hasVariations() {
    const stack = [this.root];
    while (stack.length) {
      const n = stack.pop();
      if (n.children.length > 1) return true;
      stack.push(...n.children);
    }
    return false;
  }

  /** The whole tree as text (see the file's comment), main lines first. */
  toText() {
    const parts = [];
    // Writes the line that starts with `first` and continues by main children, with each
    // position's other children as variations after the main move.
    const writeLine = (first, out) => {
      let node = first;
      let sep = '';
      while (node) {
        out.push(sep, node.move);
        sep = '.';
        const siblings = node.parent.children;
        if (siblings[0] === node) {
          for (const alt of siblings.slice(1)) {
            const sub = [];
            writeLine(alt, sub);
            out.push('(', sub.join(''), ')');
          }
        }
        node = node.children[0] || null;
      }
    };
    if (this.root.children.length) writeLine(this.root.children[0], parts);
    return parts.join('');
  }

  /** Parses the text form; null if it is malformed. Moves are not checked here. */
  static fromText(text) {
    return MoveTree.readText(text).tree || null;
  }

  /**
   * Parses the text form: `{tree}`, or `{error}` saying what is malformed: `open` (a variation
   * not closed), `close` (a ")" with no variation open), `empty` (a move missing: two dots, a dot
   * at an end, an empty variation), `start` (a variation before any move), `dot` (a move right
   * after a ")"). Moves are not checked here.
   */
  static readText(text) {
    const tree = new MoveTree();
    const tokens = String(text).match(/[().]|[^().]+/g) || [];
    // `stack` holds the node each open variation started from.
    const stack = [];
    let at = tree.root;
    let last = null; // the node of the last move read: a variation replaces it
    let expectMove = true;
    let closed = false; // the last token was a ")"
    for (const tok of tokens) {
      if (tok === '.') {
        if (expectMove) return { error: 'empty' };
        expectMove = true;
      } else if (tok === '(') {
        if (!last && !stack.length && at === tree.root) return { error: 'start' };
        if (!last || expectMove) return { error: 'empty' };
        stack.push({ at, last });
        at = last.parent;
        last = null;
        expectMove = true;
      } else if (tok === ')') {
        if (!stack.length) return { error: 'close' };
        if (expectMove) return { error: 'empty' };
        ({ at, last } = stack.pop());
        expectMove = false;
      } else {
        if (!expectMove) return { error: closed ? 'dot' : 'empty' };
        const move = tok.trim();
        if (!move) return { error: 'empty' };
        let child = at.children.find((c) => c.move === move);
        if (!child) {
          child = new MoveNode(move, at);
          at.children.push(child);
        }
        at = child;
        last = child;
        expectMove = false;
      }
      closed = tok === ')';
    }
    if (stack.length) return { error: 'open' };
    if (expectMove && tokens.length) return { error: 'empty' };
    tree.cursor = tree.root;
    return { tree };
  }
}
