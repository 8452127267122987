//! The search engine's move, as it searched it: the iterations of its iterative deepening, the
//! threat sequence when a threat search found the move, the moves it compared at the root, and
//! a bounded trace of the principal path with the siblings searched beside it.
//!
//! The engine's search ([`crate::search::search::Searcher`]) takes an [`EngineRecorder`] as a
//! generic parameter; play passes [`NoTrace`], whose empty methods the compiler removes, and
//! whose `ON` constant keeps the few values only a recorder reads (a node's hash) from being
//! computed. [`EngineTracer`] records. Scores are the search's own, from the side to move at
//! each node, and say whether they are exact or a bound (a move that failed low at a null
//! window is only known to be no better than the best before it).
//!
//! Every principal-variation node of a root search is kept by its position's hash, up to
//! [`TRACE_PV_NODES`]; when the search ends, the principal line is walked through them, so the
//! path shown is the one the search's answer came from. Only the path is kept in the
//! explanation: at most [`TRACE_SIBLINGS`] moves a node (the best first), and at most
//! [`TRACE_ROOT_MOVES`] root moves.

use std::collections::HashMap;

use mnk_core::{Cell, Player};

use crate::search::board::Board;
use crate::SearchInfo;

/// The most principal-variation nodes one root search keeps (counted on past it).
pub const TRACE_PV_NODES: usize = 4_096;
/// The most moves listed at a node of the principal path (the best first).
pub const TRACE_SIBLINGS: usize = 16;
/// The most root moves listed among the candidates (the best first).
pub const TRACE_ROOT_MOVES: usize = 32;

/// What a search's score is known to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score itself.
    Exact,
    /// At most this (the move failed low: no better than a move searched before it).
    Upper,
    /// At least this (the move failed high: enough to refute the line before it).
    Lower,
}

impl Bound {
    /// What a score `score` returned inside the window `(alpha, beta)` is.
    #[must_use]
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// Which of the root's threat searches decided the move before the tree search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreatKind {
    /// A five to complete.
    Five,
    /// A victory by continuous fours.
    Vcf,
    /// A victory by continuous threats (threes and fours).
    Vct,
    /// No move stops the opponent (renju's black with only forbidden blocks).
    Lost,
}

/// Why the search stopped where it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A root threat search proved the win: no tree search was needed.
    Threat,
    /// The depth limit (a level's cap) was reached.
    Depth,
    /// A win or loss was proven within the depth searched.
    Proven,
    /// Only one move was left at the root.
    Forced,
    /// The time plan judged another iteration not worth starting (or the iteration under way
    /// had a better move and its end not worth waiting for).
    TimePlan,
    /// The node limit (a level's cap) ran out.
    Nodes,
    /// The time ran out.
    Time,
    /// The search was stopped from outside.
    Stopped,
    /// On the board without borders, a five (or a block of one) out of the search's frame.
    Urgent,
}

/// What the engine's search tells its recorder. Every method has a default that does nothing,
/// and play passes [`NoTrace`], so the calls compile to nothing there. Moves are the search
/// board's indices, scores its own (from the side to move at the node).
pub trait EngineRecorder {
    /// Whether anything is recorded: values only a recorder needs are computed only then.
    const ON: bool = false;

    /// A root threat search found the move: `line` is the proof (attacker's moves and the
    /// forced replies alternating).
    #[inline(always)]
    fn threat(&mut self, kind: ThreatKind, line: &[usize]) {
        let _ = (kind, line);
    }

    /// The opponent, given a free move, would win by `threat` (continuous fours): only `kept`
    /// of the root's moves stop it.
    #[inline(always)]
    fn defences(&mut self, threat: &[usize], kept: &[usize]) {
        let _ = (threat, kept);
    }

    /// A root search at `depth` starts with the window `(alpha, beta)`.
    #[inline(always)]
    fn root_search(&mut self, depth: i32, alpha: i32, beta: i32) {
        let _ = (depth, alpha, beta);
    }

    /// A root move was searched: its score with the window it was searched in.
    #[inline(always)]
    fn root_move(&mut self, m: usize, score: i32, alpha: i32, beta: i32) {
        let _ = (m, score, alpha, beta);
    }

    /// A principal-variation node `ply` plies below the root starts on its moves.
    #[inline(always)]
    fn pv_node(&mut self, ply: usize) {
        let _ = ply;
    }

    /// A move of the principal-variation node at `ply` was searched (window before it).
    #[inline(always)]
    fn pv_child(&mut self, ply: usize, m: usize, score: i32, alpha: i32, beta: i32) {
        let _ = (ply, m, score, alpha, beta);
    }

    /// The principal-variation node at `ply`, of position `hash`, is done.
    #[inline(always)]
    fn pv_node_done(&mut self, ply: usize, hash: u64) {
        let _ = (ply, hash);
    }

    /// The root search under way completed the iteration at `depth`.
    #[inline(always)]
    fn iteration(&mut self, depth: u32) {
        let _ = depth;
    }

    /// The search ended for `end`, answering the line `pv` found at `depth`; `board` is at the
    /// root.
    #[inline(always)]
    fn finish(&mut self, board: &mut Board, pv: &[usize], depth: u32, end: End) {
        let _ = (board, pv, depth, end);
    }

    /// Every cell recorded moves by `(dx, dy)` (the first move on the board without borders
    /// is answered at the origin).
    #[inline(always)]
    fn shift(&mut self, dx: i32, dy: i32) {
        let _ = (dx, dy);
    }
}

/// The recorder of a search nobody watches.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl EngineRecorder for NoTrace {}

impl<T: EngineRecorder> EngineRecorder for &mut T {
    const ON: bool = T::ON;

    fn threat(&mut self, kind: ThreatKind, line: &[usize]) {
        (**self).threat(kind, line);
    }
    fn defences(&mut self, threat: &[usize], kept: &[usize]) {
        (**self).defences(threat, kept);
    }
    fn root_search(&mut self, depth: i32, alpha: i32, beta: i32) {
        (**self).root_search(depth, alpha, beta);
    }
    fn root_move(&mut self, m: usize, score: i32, alpha: i32, beta: i32) {
        (**self).root_move(m, score, alpha, beta);
    }
    fn pv_node(&mut self, ply: usize) {
        (**self).pv_node(ply);
    }
    fn pv_child(&mut self, ply: usize, m: usize, score: i32, alpha: i32, beta: i32) {
        (**self).pv_child(ply, m, score, alpha, beta);
    }
    fn pv_node_done(&mut self, ply: usize, hash: u64) {
        (**self).pv_node_done(ply, hash);
    }
    fn iteration(&mut self, depth: u32) {
        (**self).iteration(depth);
    }
    fn finish(&mut self, board: &mut Board, pv: &[usize], depth: u32, end: End) {
        (**self).finish(board, pv, depth, end);
    }
    fn shift(&mut self, dx: i32, dy: i32) {
        (**self).shift(dx, dy);
    }
}

/// A move searched at a node, with its score from the node's side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored<M> {
    /// The move.
    pub m: M,
    /// Its score (the search's units, or a mate score).
    pub score: i32,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
}

/// A node of the principal path: the moves searched there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathNode {
    /// The move that led here (`None` at the root).
    pub cell: Option<Cell>,
    /// Who moves at this node.
    pub to_move: Player,
    /// The moves searched, best first, at most [`TRACE_SIBLINGS`].
    pub moves: Vec<Scored<Cell>>,
    /// Moves searched beyond those listed.
    pub more: usize,
}

/// A threat sequence: the proof of a win, or the opponent's threat the root had to stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatLine {
    /// Which threat search found it.
    pub kind: ThreatKind,
    /// The attacker's moves and the forced replies, alternating, the attacker's first.
    pub line: Vec<Cell>,
}

/// What the engine's search recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineTrace {
    /// Why the search stopped.
    pub end: End,
    /// The threat search that decided the move, with its proof.
    pub threat: Option<ThreatLine>,
    /// The opponent's continuous fours after a pass, which the root's moves had to stop, and
    /// the moves that do.
    pub defences: Option<(Vec<Cell>, Vec<Cell>)>,
    /// The root moves of the root search the answer came from, best first (at most
    /// [`TRACE_ROOT_MOVES`]), with their scores.
    pub root: Vec<Scored<Cell>>,
    /// Root moves searched beyond those listed.
    pub root_more: usize,
    /// The depth of that root search.
    pub root_depth: u32,
    /// The principal path, from the root: each node with the moves searched there.
    pub path: Vec<PathNode>,
    /// Principal-variation nodes not kept past [`TRACE_PV_NODES`] (0 when every one was).
    pub unrecorded: u64,
}

/// The limits an explained search ran under (the caller's with the level's caps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExplainedLimits {
    /// The deepest iteration allowed.
    pub max_depth: Option<u32>,
    /// The most nodes allowed.
    pub max_nodes: Option<u64>,
    /// The time it had, in milliseconds.
    pub time_ms: Option<u64>,
}

/// The engine's explanation: what it reported after each iteration and what it recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineExplanation {
    /// Who the engine played for.
    pub to_move: Player,
    /// Each completed iteration (or the threat search's proof) as play reports it.
    pub iterations: Vec<SearchInfo>,
    /// What the search recorded.
    pub trace: EngineTrace,
    /// The limits it ran under.
    pub limits: ExplainedLimits,
}

/// The principal-variation nodes of one root search.
#[derive(Clone, Debug, Default)]
struct RootSearch {
    depth: u32,
    root: Vec<Scored<usize>>,
    nodes: HashMap<u64, Vec<Scored<usize>>>,
}

/// The recorder that keeps an [`EngineTrace`].
#[derive(Debug, Default)]
pub struct EngineTracer {
    threat: Option<(ThreatKind, Vec<usize>)>,
    defences: Option<(Vec<usize>, Vec<usize>)>,
    /// The root search under way and the last that completed an iteration.
    current: RootSearch,
    complete: Option<RootSearch>,
    /// The moves of the principal-variation node open at each ply.
    open: Vec<Vec<Scored<usize>>>,
    unrecorded: u64,
    trace: Option<EngineTrace>,
    shift: (i32, i32),
}

impl EngineTracer {
    /// A recorder with nothing recorded.
    #[must_use]
    pub fn new() -> EngineTracer {
        EngineTracer::default()
    }

    /// What was recorded (`None` if the search did not run).
    #[must_use]
    pub fn finish_trace(self) -> Option<EngineTrace> {
        let (dx, dy) = self.shift;
        self.trace.map(|mut t| {
            if (dx, dy) != (0, 0) {
                let moved = |c: &mut Cell| *c = Cell::new(c.x + dx, c.y + dy);
                t.root.iter_mut().for_each(|s| moved(&mut s.m));
                for node in &mut t.path {
                    node.cell.iter_mut().for_each(moved);
                    node.moves.iter_mut().for_each(|s| moved(&mut s.m));
                }
                if let Some(threat) = &mut t.threat {
                    threat.line.iter_mut().for_each(moved);
                }
            }
            t
        })
    }
}

/// Best first; at equal scores a lower bound (at least) before an exact score before an upper
/// bound (at most), then by index: a total order (the search's own order is not kept).
fn best_first(moves: &mut [Scored<usize>]) {
    let rank = |b: Bound| match b {
        Bound::Lower => 0,
        Bound::Exact => 1,
        Bound::Upper => 2,
    };
    moves.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(rank(a.bound).cmp(&rank(b.bound)))
            .then(a.m.cmp(&b.m))
    });
}

/// The first `limit` of `moves` as cells, and how many were left out.
fn cells(board: &Board, moves: &[Scored<usize>], limit: usize) -> (Vec<Scored<Cell>>, usize) {
    let mut sorted = moves.to_vec();
    best_first(&mut sorted);
    let listed = sorted
        .iter()
        .take(limit)
        .map(|s| Scored {
            m: board.cell_of(s.m),
            score: s.score,
            bound: s.bound,
        })
        .collect();
    (listed, moves.len().saturating_sub(limit))
}

fn player(side: usize) -> Player {
    if side == 0 {
        Player::X
    } else {
        Player::O
    }
}

impl EngineRecorder for EngineTracer {
    const ON: bool = true;

    fn threat(&mut self, kind: ThreatKind, line: &[usize]) {
        self.threat = Some((kind, line.to_vec()));
    }

    fn defences(&mut self, threat: &[usize], kept: &[usize]) {
        self.defences = Some((threat.to_vec(), kept.to_vec()));
    }

    fn root_search(&mut self, depth: i32, _alpha: i32, _beta: i32) {
        self.current.depth = depth as u32;
        self.current.root.clear();
        self.current.nodes.clear();
    }

    fn root_move(&mut self, m: usize, score: i32, alpha: i32, beta: i32) {
        self.current.root.push(Scored {
            m,
            score,
            bound: Bound::of(score, alpha, beta),
        });
    }

    fn pv_node(&mut self, ply: usize) {
        if self.open.len() <= ply {
            self.open.resize_with(ply + 1, Vec::new);
        }
        self.open[ply].clear();
    }

    fn pv_child(&mut self, ply: usize, m: usize, score: i32, alpha: i32, beta: i32) {
        self.open[ply].push(Scored {
            m,
            score,
            bound: Bound::of(score, alpha, beta),
        });
    }

    fn pv_node_done(&mut self, ply: usize, hash: u64) {
        let moves = &self.open[ply];
        let nodes = &mut self.current.nodes;
        if nodes.len() < TRACE_PV_NODES || nodes.contains_key(&hash) {
            nodes.insert(hash, moves.clone());
        } else {
            self.unrecorded += 1;
        }
    }

    fn iteration(&mut self, depth: u32) {
        let mut done = std::mem::take(&mut self.current);
        done.depth = depth;
        self.complete = Some(done);
    }

    fn finish(&mut self, board: &mut Board, pv: &[usize], depth: u32, end: End) {
        // The answer comes from the last complete iteration, or from the one the limits cut
        // short when it had found a better move (its root search is the one under way): the
        // principal path is that search's. Its root moves are too, unless it was cut after its
        // first: then the last complete iteration's are the moves compared (a shallower depth).
        let cut = !self.current.root.is_empty()
            && self
                .complete
                .as_ref()
                .is_none_or(|done| done.depth != depth);
        let search = match &self.complete {
            Some(done) if !cut => done,
            _ => &self.current,
        };
        let compared = match &self.complete {
            Some(done) if cut && self.current.root.len() < 2 => done,
            _ => search,
        };
        let (root, root_more) = cells(board, &compared.root, TRACE_ROOT_MOVES);
        let mut path = Vec::new();
        if !compared.root.is_empty() {
            path.push(PathNode {
                cell: None,
                to_move: player(board.side()),
                moves: root.clone(),
                more: root_more,
            });
        }
        let mut played = 0;
        for &m in pv {
            board.play(m);
            played += 1;
            let Some(moves) = search.nodes.get(&board.hash()) else {
                break;
            };
            let (moves, more) = cells(board, moves, TRACE_SIBLINGS);
            path.push(PathNode {
                cell: Some(board.cell_of(m)),
                to_move: player(board.side()),
                moves,
                more,
            });
        }
        for _ in 0..played {
            board.undo();
        }
        let line = |l: &[usize]| l.iter().map(|&i| board.cell_of(i)).collect::<Vec<_>>();
        self.trace = Some(EngineTrace {
            end,
            threat: self.threat.as_ref().map(|(kind, l)| ThreatLine {
                kind: *kind,
                line: line(l),
            }),
            defences: self
                .defences
                .as_ref()
                .map(|(threat, kept)| (line(threat), line(kept))),
            root,
            root_more,
            root_depth: compared.depth,
            path,
            unrecorded: self.unrecorded,
        });
    }

    fn shift(&mut self, dx: i32, dy: i32) {
        self.shift = (dx, dy);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_outside_its_window_is_a_bound() {
        assert_eq!(Bound::of(10, 10, 20), Bound::Upper);
        assert_eq!(Bound::of(15, 10, 20), Bound::Exact);
        assert_eq!(Bound::of(20, 10, 20), Bound::Lower);
    }

    #[test]
    fn equal_scores_list_what_is_known_best_first() {
        let scored = |m, score, bound| Scored { m, score, bound };
        let mut moves = vec![
            scored(3, 5, Bound::Upper),
            scored(9, 5, Bound::Exact),
            scored(1, 5, Bound::Lower),
            scored(2, 7, Bound::Upper),
            scored(0, 5, Bound::Upper),
        ];
        best_first(&mut moves);
        let order: Vec<usize> = moves.iter().map(|s| s.m).collect();
        assert_eq!(order, vec![2, 1, 9, 0, 3]);
    }
}
