//! The line counter's search tree, as it searched it.
//!
//! The search is negamax: every value is from the side to move at its node. People read
//! alpha-beta the other way, as the textbook draws it: the bot maximises, its opponent
//! minimises, and every number is the bot's. The recorder turns each number round as it
//! records it, so a node's alpha and beta are those of its parent at the moment the node was
//! searched, and a cut-off is where they cross.

use mnk_core::{Cell, Player, Position};

use super::{TRACE_NODES, TRACE_WINDOWS};

/// How a node's search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Its moves were searched (or some of them, up to a cut-off).
    Inner,
    /// The depth ran out: the evaluation of its k-windows.
    Leaf,
    /// The game was won by the move that led here.
    Won,
    /// The board was full.
    Drawn,
    /// The limits stopped the search here; its value means nothing.
    Stopped,
}

/// What the search hands its recorder. Every method has a default that does nothing, and the
/// bot's ordinary path passes [`NoRecord`], so the calls compile to nothing there.
pub trait Recorder {
    /// A node is entered: `pos` after the move that led here (`ply` plies below the root), and
    /// its window from the side to move.
    #[inline(always)]
    fn enter(&mut self, pos: &Position, ply: u32, alpha: i64, beta: i64) {
        let _ = (pos, ply, alpha, beta);
    }

    /// One k-window of a leaf's evaluation: where it starts and its direction, the stones of the
    /// leaf's side to move and of the other side in it, and its points for the side to move.
    #[inline(always)]
    fn window(&mut self, start: Cell, direction: (i32, i32), mine: u32, theirs: u32, points: i64) {
        let _ = (start, direction, mine, theirs, points);
    }

    /// The node's window closed (alpha reached beta): `saved` are the moves left unsearched.
    #[inline(always)]
    fn cut(&mut self, saved: &[Cell]) {
        let _ = saved;
    }

    /// The node returns `value` (from its side to move).
    #[inline(always)]
    fn leave(&mut self, value: i64, exit: Exit) {
        let _ = (value, exit);
    }
}

/// The recorder of a search nobody watches.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoRecord;

impl Recorder for NoRecord {}

/// A score as the bot sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Below every score: the open lower end of a window.
    MinusInfinity,
    /// Above every score: the open upper end of a window.
    Infinity,
    /// The bot wins this many plies from the root.
    Win(u32),
    /// The bot loses this many plies from the root.
    Loss(u32),
    /// The line count: positive is good for the bot.
    Eval(i64),
}

/// The kind of k-window a leaf counted, with what one such window is worth to the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowTerm {
    /// Who the windows count for: the player whose stones alone are in them, or for empty
    /// windows the leaf's side to move.
    pub side: Player,
    /// Stones in each window (0 for empty windows).
    pub stones: u32,
    /// How many such windows the leaf has.
    pub windows: u32,
    /// What one is worth to the bot: ±10^(stones+1), or ±1 for an empty one.
    pub each: i64,
}

/// One k-window of a leaf held by one side, listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowRecord {
    /// Its first cell.
    pub start: Cell,
    /// The step from one cell to the next.
    pub direction: (i32, i32),
    /// Whose stones are in it.
    pub side: Player,
    /// How many.
    pub stones: u32,
    /// Its worth to the bot.
    pub points: i64,
}

/// A leaf's evaluation, window by window.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeafEval {
    /// The windows by kind (held by X, by O, empty), in the order first met; their worth
    /// adds up to the leaf's value.
    pub terms: Vec<WindowTerm>,
    /// Windows holding stones of both players: worth nothing.
    pub mixed: u32,
    /// The windows held by one side, one by one, while the trace's list of windows lasts.
    pub windows: Vec<WindowRecord>,
    /// Whether every held window is in `windows` (false once [`TRACE_WINDOWS`] were listed).
    pub all_listed: bool,
}

/// A node of the searched tree.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceNode {
    /// The move that led here (none at the root).
    pub cell: Option<Cell>,
    /// Who is to move here; the node maximises when that is the bot.
    pub to_move: Player,
    /// The window the node was searched with, as the bot sees it.
    pub alpha: Score,
    /// The upper end of the window.
    pub beta: Score,
    /// What the node returned to its parent, as the bot sees it.
    pub value: Score,
    /// How the node's search ended.
    pub exit: Exit,
    /// A leaf's evaluation.
    pub leaf: Option<LeafEval>,
    /// The moves searched below it, in the order searched.
    pub children: Vec<TraceNode>,
    /// The moves a cut-off left unsearched, if the node was cut.
    pub saved: Option<Vec<Cell>>,
    /// Nodes searched below it that the trace did not record (past [`TRACE_NODES`]).
    pub unrecorded: u64,
}

/// A finished trace: the tree and the counts of the whole search.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// The root (none if the search never started).
    pub root: Option<TraceNode>,
    /// Nodes recorded, the root included.
    pub recorded: u64,
    /// Nodes searched but not recorded.
    pub unrecorded: u64,
    /// Cut-offs in the whole search.
    pub cutoffs: u64,
    /// Moves those cut-offs left unsearched.
    pub saved: u64,
    /// Whether some held windows of the recorded leaves were not listed.
    pub windows_cut: bool,
}

/// Records the tree of one search, as the bot sees it, within the trace's bounds.
#[derive(Debug)]
pub struct TreeRecorder {
    bot: Player,
    /// Scores beyond `win / 2` are won or lost games: `win - plies`.
    win: i64,
    /// The recorded nodes not yet left, root first.
    open: Vec<TraceNode>,
    /// Nodes entered past the bound and not yet left.
    open_unrecorded: u32,
    done: Recorded,
    windows_listed: u64,
}

impl TreeRecorder {
    /// A recorder for a search by `bot` whose won games score `win` less the plies to them.
    #[must_use]
    pub fn new(bot: Player, win: i64) -> TreeRecorder {
        TreeRecorder {
            bot,
            win,
            open: Vec::new(),
            open_unrecorded: 0,
            done: Recorded {
                root: None,
                recorded: 0,
                unrecorded: 0,
                cutoffs: 0,
                saved: 0,
                windows_cut: false,
            },
            windows_listed: 0,
        }
    }

    /// The tree and the counts.
    #[must_use]
    pub fn finish(self) -> Recorded {
        self.done
    }

    /// `score`, from the side to move at a node where `to_move` moves, as the bot sees it.
    fn score(&self, to_move: Player, score: i64) -> Score {
        let s = if to_move == self.bot {
            score
        } else {
            score.saturating_neg()
        };
        match s {
            s if s <= -i64::MAX => Score::MinusInfinity,
            i64::MAX => Score::Infinity,
            s if s > self.win / 2 => Score::Win((self.win - s) as u32),
            s if s < -self.win / 2 => Score::Loss((self.win + s) as u32),
            s => Score::Eval(s),
        }
    }

    /// `points` for the side to move where `to_move` moves, as the bot sees them.
    fn points(&self, to_move: Player, points: i64) -> i64 {
        if to_move == self.bot {
            points
        } else {
            -points
        }
    }

    /// The innermost recorded node, while nothing unrecorded is open below it.
    fn current(&mut self) -> Option<&mut TraceNode> {
        if self.open_unrecorded > 0 {
            return None;
        }
        self.open.last_mut()
    }

    /// The evaluation of the leaf being recorded.
    fn leaf(&mut self) -> Option<&mut LeafEval> {
        self.current()
            .map(|node| node.leaf.get_or_insert_with(new_leaf))
    }
}

impl Recorder for TreeRecorder {
    fn enter(&mut self, pos: &Position, ply: u32, alpha: i64, beta: i64) {
        // The root and its moves are always recorded, so the choice can be read off the tree.
        if self.open_unrecorded > 0 || (ply > 1 && self.done.recorded >= TRACE_NODES) {
            self.open_unrecorded += 1;
            self.done.unrecorded += 1;
            if let Some(parent) = self.open.last_mut() {
                parent.unrecorded += 1;
            }
            return;
        }
        self.done.recorded += 1;
        let to_move = pos.to_move();
        // From the other side, the window turns round: (alpha, beta) becomes (-beta, -alpha).
        let (low, high) = if to_move == self.bot {
            (alpha, beta)
        } else {
            (beta, alpha)
        };
        let node = TraceNode {
            cell: if ply == 0 { None } else { pos.last_move() },
            to_move,
            alpha: self.score(to_move, low),
            beta: self.score(to_move, high),
            value: Score::MinusInfinity,
            exit: Exit::Stopped,
            leaf: None,
            children: Vec::new(),
            saved: None,
            unrecorded: 0,
        };
        self.open.push(node);
    }

    fn window(&mut self, start: Cell, direction: (i32, i32), mine: u32, theirs: u32, points: i64) {
        let Some(to_move) = self.current().map(|node| node.to_move) else {
            return;
        };
        let side = match (mine, theirs) {
            (_, 0) => to_move,
            (0, _) => to_move.opponent(),
            _ => {
                if let Some(leaf) = self.leaf() {
                    leaf.mixed += 1;
                }
                return;
            }
        };
        let (stones, points) = (mine + theirs, self.points(to_move, points));
        let listed = stones > 0 && self.windows_listed < TRACE_WINDOWS;
        self.windows_listed += u64::from(listed);
        self.done.windows_cut |= stones > 0 && !listed;
        let Some(leaf) = self.leaf() else { return };
        match leaf
            .terms
            .iter_mut()
            .find(|t| t.side == side && t.stones == stones)
        {
            Some(term) => term.windows += 1,
            None => leaf.terms.push(WindowTerm {
                side,
                stones,
                windows: 1,
                each: points,
            }),
        }
        if listed {
            leaf.windows.push(WindowRecord {
                start,
                direction,
                side,
                stones,
                points,
            });
        }
        leaf.all_listed &= stones == 0 || listed;
    }

    fn cut(&mut self, saved: &[Cell]) {
        self.done.cutoffs += 1;
        self.done.saved += saved.len() as u64;
        if let Some(node) = self.current() {
            node.saved = Some(saved.to_vec());
        }
    }

    fn leave(&mut self, value: i64, exit: Exit) {
        if self.open_unrecorded > 0 {
            self.open_unrecorded -= 1;
            return;
        }
        let Some(mut node) = self.open.pop() else {
            return;
        };
        node.value = self.score(node.to_move, value);
        node.exit = exit;
        match self.open.last_mut() {
            Some(parent) => parent.children.push(node),
            None => self.done.root = Some(node),
        }
    }
}

fn new_leaf() -> LeafEval {
    LeafEval {
        all_listed: true,
        ..LeafEval::default()
    }
}

/// The line counter's explanation: its search tree and what the search counted.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaTrace {
    /// The bot's side.
    pub bot: Player,
    /// Plies searched.
    pub depth: u32,
    /// The root moves in the order searched (shuffled by the seed, so that equal moves vary).
    pub root_moves: Vec<Cell>,
    /// When the root moves were only the cells the attack weights rate highest (level 3), how
    /// many.
    pub preselected: Option<usize>,
    /// Positions searched below the root: the bot's node count.
    pub nodes: u64,
    /// The tree and the counts of cut-offs.
    pub recorded: Recorded,
    /// Whether the limits stopped the search before it finished (its tree is then partial).
    pub stopped: bool,
}
