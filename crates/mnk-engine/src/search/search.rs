//! Principal-variation search with iterative deepening.
//!
//! One search, from the root down:
//! 1. **Root threats.** A five is played at once. Then a VCF for the mover, then a short VCT
//!    (within a node budget of its own); a win found there is played with its proof line.
//!    If the opponent, given a free move, would have a VCF, only the moves that leave them
//!    without one (and our own fours) stay at the root. With a deadline, these threat
//!    searches together get at most [`ROOT_THREAT_SHARE`] of the time left, so that on a
//!    crowded board, where every threat-search node costs more, the tree search still runs.
//! 2. **Iterative deepening** from depth 1, each iteration searched with an aspiration window
//!    around the last score from depth [`ASPIRATION_DEPTH`] on; on a failure the window is
//!    centred again on the score that failed and widened by half. After each
//!    iteration the caller hears the depth, value, line and nodes. The search stops at the
//!    depth limit, when a win or loss is proven within the depth, or when the time plan
//!    ([`super::time`]) says another iteration is not worth starting. Stopped before the first
//!    iteration is complete, the search answers the best root move searched so far (the
//!    best-ordered one if none was); stopped in a later one, the best move of the last complete
//!    iteration, or the move the cut iteration found better ([`Searcher::improved_root`]).
//!    With several lines (multi-PV, for analysis), a second searcher with tables of its own
//!    then searches the root once per further line, as Stockfish does: the best move other
//!    than the first line's, then the best of the rest, and so on, each with an aspiration
//!    window of its own. Its own tables keep the first line exactly the single-line search.
//! 3. **Each node**: mate-distance pruning; immediate decisions from the threat counts (a five
//!    to make, two fives to stop, an open four against no five); at the horizon, a quiescence
//!    search of own fours and forced blocks; the transposition table; in non-PV nodes where
//!    the opponent has no four, a static score far above beta stands (reverse futility);
//!    a table move no other move comes near (searched at half the depth without it) is
//!    extended a ply (singular extension), and a second move that also holds beta cuts at once;
//!    moves by threat class
//!    ([`super::movegen`]) ordered by TT move, killers, threat scores and history; the first
//!    move with a full window, the rest with a null window and a re-search when they beat alpha;
//!    quiet late moves reduced (LMR) or, near the horizon in non-PV nodes, skipped.
//!
//! Scores are evaluation units, or `MATE - n` for a win `n` plies from the root (`-(MATE - n)`
//! for a loss). Nothing reads a clock except through [`Limits`], checked every
//! [`super::control::CHECK_EVERY`] nodes and every few moves of the loops at the root that do not count nodes;
//! the node limit is checked at every node, so a node- or depth-limited search is reproducible
//! (the clock never decides anything without a deadline or a stop flag).

use super::board::Board;
use super::control::Control;
use super::eval::evaluate;
use super::movegen::{
    any_moves, generate, is_quiet, key_move, move_score, order_key, sort_moves, threat_cells, Phase,
};
use super::score::{is_loss, is_win, INFINITY, MATE, MAX_PLY};
use super::stats::{research, spent, stat};
use super::threat::Threat;
use super::tt::{Bound, Hit, TranspositionTable, NO_MOVE};
use super::vcf::{vcf, vct, ThreatCache};
use crate::explain::engine::{EngineRecorder, NoTrace, ThreatKind};
use crate::Limits;

/// Iterations from this depth on use an aspiration window.
pub const ASPIRATION_DEPTH: i32 = 5;
/// Half-width of the first aspiration window: on the evaluation's scale a score moves by some
/// 500 from one iteration to the next, so a narrower window fails nearly every time
/// (docs/strength.md).
const ASPIRATION_WINDOW: i32 = 250;
/// Fours in the VCF tried at the horizon.
const QS_FOURS: u32 = 3;
/// Late-move reductions start at this depth and move number.
const LMR_DEPTH: i32 = 2;
const LMR_MOVE: usize = 2;
/// Futility pruning applies up to this depth, with this margin per ply.
const FUTILITY_DEPTH: i32 = 3;
const FUTILITY_MARGIN: i32 = 250;
/// Reverse futility pruning (a static score this far above beta per ply of depth left stands)
/// applies up to this depth.
const REVERSE_FUTILITY_DEPTH: i32 = 4;
const REVERSE_FUTILITY_MARGIN: i32 = 300;
/// Late-move pruning applies up to this depth.
const LMP_DEPTH: i32 = 8;
/// Singular extensions: from this depth on, a table move that no other move comes within
/// this margin per ply of (searched at half the depth) is searched a ply deeper.
const SINGULAR_DEPTH: i32 = 6;
const SINGULAR_MARGIN: i32 = 40;
/// Fours in the root VCF.
const ROOT_VCF_FOURS: u32 = 20;
/// Threats in the root VCT.
const ROOT_VCT_THREATS: u32 = 5;
/// Node budget of the root VCT when no node limit is given.
const ROOT_VCT_NODES: u64 = 60_000;
/// Fours in the check for the opponent's VCF at the root.
const DEFENCE_VCF_FOURS: u32 = 12;
/// With a deadline, the root threat searches end once they have used this share of the time
/// left (the tree search gets the rest).
pub const ROOT_THREAT_SHARE: f64 = 0.5;
/// Root moves between readings of the clock in the loops at the root that do not count nodes.
const POLL_EVERY_MOVES: usize = 16;

/// What one completed iteration (or the root threat search) found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Depth completed (for a threat-search win: the length of the proof line).
    pub depth: u32,
    /// Score of the best move.
    pub score: i32,
    /// The principal variation (board indices), best move first.
    pub pv: Vec<usize>,
    /// Nodes so far.
    pub nodes: u64,
}

/// The root moves of a search, for a helper thread of a Lazy SMP search to start from
/// ([`Searcher::root_moves`], [`Searcher::set_root_moves`]).
#[derive(Clone, Debug)]
pub struct RootMoves(Vec<RootMove>);

/// The root moves `moves` in the order the first iteration searches them, not yet scored.
fn ordered_root(board: &Board, moves: Vec<usize>) -> Vec<RootMove> {
    let mut keyed: Vec<(i32, u16)> = moves
        .into_iter()
        .map(|idx| (move_score(board, idx), idx as u16))
        .collect();
    sort_moves(&mut keyed);
    keyed
        .into_iter()
        .map(|(_, idx)| RootMove {
            idx: usize::from(idx),
            score: -INFINITY,
            exact: false,
        })
        .collect()
}

/// A root move with what the last iteration learned about it.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    idx: usize,
    score: i32,
    /// Whether `score` is exact (it is a bound for moves that failed low).
    exact: bool,
}

/// The state of one search, telling `R` what it does (nothing for [`NoTrace`], play's).
pub struct Searcher<'a, R: EngineRecorder = NoTrace> {
    /// The board being searched (back at the root position between iterations).
    pub board: Board,
    tt: &'a TranspositionTable,
    cache: &'a mut ThreatCache,
    /// Node counting and stopping.
    pub ctl: Control<'a>,
    killers: Vec<[u16; 2]>,
    /// Per ply, the move a singular-extension search leaves out ([`NO_MOVE`]: none).
    excluded: Vec<u16>,
    /// Depth of the iteration under way (extensions stop at twice it).
    root_depth: i32,
    history: Vec<[i32; 2]>,
    pv: Vec<Vec<usize>>,
    buffers: Vec<Vec<usize>>,
    ordered: Vec<Vec<u64>>,
    root: Vec<RootMove>,
    /// The first root move the root search considers: the moves before it are the lines
    /// already found in this iteration (multi-PV); 0 outside [`Searcher::other_lines`].
    root_first: usize,
    /// The score of the best root move searched in full by the last root search (its line is
    /// `pv[0]`), if any was.
    root_best: Option<i32>,
    /// The best root move of the current root search whose score beat alpha (exact, or a lower
    /// bound above the window): a deeper answer than the last iteration's even if this one is
    /// stopped before its end.
    root_raised: Option<Iteration>,
    /// When, on the deadline's clock, an iteration whose root search has already raised a move
    /// stops after the root move under way (see [`Searcher::set_soft_stop`]).
    soft_stop_ms: Option<u64>,
    /// Search every root move with a full window (for ranking moves).
    pub all_root_scores: bool,
    /// Nodes spent in the quiescence search (statistics).
    pub qnodes: u64,
    /// Nodes of the main search (statistics).
    pub mnodes: u64,
    /// What the search tells of itself, for an explanation.
    pub rec: R,
}

impl<'a> Searcher<'a> {
    /// A search of `board` within `limits`.
    pub fn new(
        board: Board,
        tt: &'a TranspositionTable,
        cache: &'a mut ThreatCache,
        limits: &'a Limits,
    ) -> Searcher<'a> {
        Searcher::recorded(board, tt, cache, limits, NoTrace)
    }
}

impl<'a, R: EngineRecorder> Searcher<'a, R> {
    /// A search of `board` within `limits` that tells `rec` what it does.
    pub fn recorded(
        board: Board,
        tt: &'a TranspositionTable,
        cache: &'a mut ThreatCache,
        limits: &'a Limits,
        rec: R,
    ) -> Searcher<'a, R> {
        let slots = board.slots();
        Searcher {
            board,
            tt,
            cache,
            ctl: Control::new(limits),
            killers: vec![[NO_MOVE; 2]; MAX_PLY + 2],
            excluded: vec![NO_MOVE; MAX_PLY + 2],
            root_depth: 0,
            history: vec![[0; 2]; slots],
            pv: vec![Vec::new(); MAX_PLY + 2],
            buffers: vec![Vec::new(); MAX_PLY + 2],
            ordered: vec![Vec::new(); MAX_PLY + 2],
            root: Vec::new(),
            root_first: 0,
            root_best: None,
            root_raised: None,
            soft_stop_ms: None,
            all_root_scores: false,
            qnodes: 0,
            mnodes: 0,
            rec,
        }
    }

    /// Step 1: decisions at the root before any tree search. Returns a proven result, or
    /// prepares the root move list and returns `None`.
    pub fn root_threats(&mut self) -> Option<Iteration> {
        let mut moves = Vec::new();
        let phase = generate(&self.board, &mut moves);
        if phase == Phase::Win {
            self.rec.threat(ThreatKind::Five, &moves[..1]);
            return Some(self.proven(1, MATE - 1, vec![moves[0]]));
        }
        if moves.is_empty() {
            // Renju's black with no allowed block of a five: lost, but a move is still owed.
            any_moves(&self.board, &mut moves);
            let pv = moves.first().map(|&m| vec![m])?;
            self.rec.threat(ThreatKind::Lost, &pv);
            return Some(self.proven(1, -(MATE - 2), pv));
        }
        // Out of time already (a zero budget): no threat search, the best-ordered move.
        if phase != Phase::Block && !self.ctl.poll() {
            self.ctl.start_slice(ROOT_THREAT_SHARE);
            let proof = spent!(
                self.ctl,
                root_threats,
                self.threat_searches(phase, &mut moves)
            );
            self.ctl.end_slice();
            if proof.is_some() {
                return proof;
            }
        }
        self.root = ordered_root(&self.board, moves);
        None
    }

    /// The root moves as step 1 would leave them if its threat searches found nothing (they
    /// may narrow them to the defences), for helper threads that start while those run; `None`
    /// when step 1 answers without a search (a five to play, or no move).
    #[must_use]
    pub fn unscreened_root_moves(&self) -> Option<RootMoves> {
        let mut moves = Vec::new();
        let phase = generate(&self.board, &mut moves);
        (phase != Phase::Win && !moves.is_empty())
            .then(|| RootMoves(ordered_root(&self.board, moves)))
    }

    /// The VCF, the VCT and the check for the opponent's VCF of step 1, within the time slice:
    /// a proven win, or `None` with `moves` narrowed to the defences.
    fn threat_searches(&mut self, phase: Phase, moves: &mut Vec<usize>) -> Option<Iteration> {
        if let Some(proof) = vcf(&mut self.board, &mut self.ctl, self.cache, ROOT_VCF_FOURS) {
            let n = proof.plies;
            self.rec.threat(ThreatKind::Vcf, &proof.line);
            return Some(self.proven(n, MATE - n as i32, proof.line));
        }
        if !self.ctl.stopped() {
            let budget = self
                .ctl
                .limits()
                .max_nodes
                .map_or(ROOT_VCT_NODES, |m| (m / 10).min(ROOT_VCT_NODES));
            self.ctl.set_ceiling(Some(budget));
            let found = vct(&mut self.board, &mut self.ctl, self.cache, ROOT_VCT_THREATS);
            self.ctl.set_ceiling(None);
            if let Some((_, plies, line)) = found {
                self.rec.threat(ThreatKind::Vct, &line);
                return Some(self.proven(plies, MATE - plies as i32, line));
            }
        }
        if phase != Phase::Defend && !self.ctl.stopped() {
            *moves = self.vcf_defences(std::mem::take(moves));
        }
        None
    }

    fn proven(&self, depth: u32, score: i32, pv: Vec<usize>) -> Iteration {
        Iteration {
            depth,
            score,
            pv,
            nodes: self.ctl.nodes(),
        }
    }

    /// If the opponent would have a VCF after a pass, keeps only the moves after which they
    /// have none, plus our own fours (which the tree search judges). Unchanged when nothing
    /// defends. Stopped part-way, keeps the moves not yet checked as well.
    fn vcf_defences(&mut self, moves: Vec<usize>) -> Vec<usize> {
        let me = self.board.side();
        self.board.pass();
        let threat = vcf(
            &mut self.board,
            &mut self.ctl,
            self.cache,
            DEFENCE_VCF_FOURS,
        );
        self.board.pass();
        let Some(threat) = threat.filter(|_| !self.ctl.stopped()) else {
            return moves;
        };
        let mut kept = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            if self.board.threat(m, me) >= Threat::Block4 {
                kept.push(m);
                continue;
            }
            // A move whose VCF check ends at once counts no node: read the clock here too.
            if (i + 1) % POLL_EVERY_MOVES == 0 && self.ctl.poll() {
                kept.extend_from_slice(&moves[i..]);
                break;
            }
            self.board.play(m);
            let refuted = vcf(
                &mut self.board,
                &mut self.ctl,
                self.cache,
                DEFENCE_VCF_FOURS,
            );
            self.board.undo();
            if self.ctl.stopped() {
                kept.extend_from_slice(&moves[i..]);
                break;
            }
            if refuted.is_none() {
                kept.push(m);
            }
        }
        if kept.is_empty() {
            moves
        } else {
            self.rec.defences(&threat.line, &kept);
            kept
        }
    }

    /// Number of root moves.
    #[must_use]
    pub fn root_len(&self) -> usize {
        self.root.len()
    }

    /// The root moves with their last scores (exact ones only when `all_root_scores`), in
    /// the order of the last iteration.
    #[must_use]
    pub fn root_scores(&self) -> Vec<(usize, i32, bool)> {
        self.root
            .iter()
            .map(|r| (r.idx, r.score, r.exact))
            .collect()
    }

    /// What the last root search learned before the limits stopped it: its best move searched
    /// in full, with the move's score and line (`depth` 0: no iteration was completed).
    #[must_use]
    pub fn unfinished_best(&self) -> Option<Iteration> {
        let score = self.root_best?;
        Some(Iteration {
            depth: 0,
            score,
            pv: self.pv[0].clone(),
            nodes: self.ctl.nodes(),
        })
    }

    /// What the root search under way (stopped before its end) learned for sure: its best move
    /// whose score beat the window's lower end, searched to the iteration's depth. When the last
    /// iteration is stopped at the deadline, this move is at least as good as the previous
    /// iteration's best by the deeper search (it was searched after it and scored higher, or is
    /// that move with a deeper score).
    #[must_use]
    pub fn improved_root(&self) -> Option<Iteration> {
        self.root_raised.clone()
    }

    /// From `at_ms` on the deadline's clock (`None`: never), the root search ends after the root
    /// move under way once a move has beaten alpha in it: the rest of the iteration would only
    /// try to refute that move, and rarely does, so a timed search answers with it rather than
    /// run on to the deadline. A move that fails low leaves the iteration running.
    pub fn set_soft_stop(&mut self, at_ms: Option<u64>) {
        self.soft_stop_ms = at_ms;
    }

    /// Whether the soft stop has come.
    fn past_soft_stop(&self) -> bool {
        match (self.soft_stop_ms, &self.ctl.limits().deadline) {
            (Some(at), Some(deadline)) => deadline.now_ms() >= at,
            _ => false,
        }
    }

    /// Step 2: one iteration at `depth` with an aspiration window around `previous`. `None`
    /// when stopped before the iteration was complete.
    pub fn iterate(&mut self, depth: i32, previous: Option<i32>) -> Option<Iteration> {
        let mut window = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = match previous {
            Some(p) if depth >= ASPIRATION_DEPTH && !is_win(p) && !is_loss(p) => {
                (p - window, p + window)
            }
            _ => (-INFINITY, INFINITY),
        };
        let mut first = true;
        loop {
            let score = if first {
                self.root_search(depth, alpha, beta)
            } else {
                research!(self.ctl, Aspiration, self.root_search(depth, alpha, beta))
            };
            if self.ctl.stopped() {
                return None;
            }
            stat!(c => c.aspirated += u64::from(first && alpha > -INFINITY));
            first = false;
            let failed_low = score <= alpha && alpha > -INFINITY;
            let failed_high = score >= beta && beta < INFINITY;
            if !failed_low && !failed_high {
                self.rec.iteration(depth as u32);
            }
            // The next window around the score that failed, not beside the old one: a score
            // that moved by 500 needs one more search, not several.
            if failed_low {
                stat!(c => c.fails_low += 1);
                beta = (alpha + beta) / 2;
                alpha = (score - window).max(-INFINITY);
                window += window / 2;
            } else if failed_high {
                stat!(c => c.fails_high += 1);
                beta = (score + window).min(INFINITY);
                window += window / 2;
            } else {
                return Some(Iteration {
                    depth: depth as u32,
                    score,
                    pv: self.pv[0].clone(),
                    nodes: self.ctl.nodes(),
                });
            }
            if window > 5000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Takes the root moves of `first` (after its root threat searches), for searching the
    /// other lines of a multi-PV search beside it.
    pub fn copy_root<Q: EngineRecorder>(&mut self, first: &Searcher<'_, Q>) {
        self.root.clone_from(&first.root);
    }

    /// The root moves (after the root threat searches), for a helper thread.
    #[must_use]
    pub fn root_moves(&self) -> RootMoves {
        RootMoves(self.root.clone())
    }

    /// Takes the root moves another searcher prepared (a helper thread's start).
    pub fn set_root_moves(&mut self, root: RootMoves) {
        self.root = root.0;
    }

    /// For a helper thread of a Lazy SMP search: moves the root move at `rank` (counted from
    /// 0, modulo the number of root moves) to the front, so that helpers searching the same
    /// depth begin in different subtrees. Rank 0 keeps the order.
    pub fn promote_root_move(&mut self, rank: usize) {
        if self.root.is_empty() {
            return;
        }
        let r = self.root.remove(rank % self.root.len());
        self.root.insert(0, r);
    }

    /// Step 2 for the other lines of a multi-PV search, at `depth`: the best root move other
    /// than `first_move` (the first line's) with its line, then the best of the rest, and so on
    /// up to `lines` lines (fewer when the root has fewer moves), each searched with an
    /// aspiration window around the score of the line of its rank in `previous` (the last
    /// iteration's). Returns the lines best first, and whether all were complete (stopped
    /// part-way: the lines completed before the stop).
    pub fn other_lines(
        &mut self,
        depth: i32,
        previous: &[i32],
        first_move: usize,
        lines: usize,
    ) -> (Vec<Iteration>, bool) {
        let mut start = 0;
        if let Some(pos) = self.root.iter().position(|r| r.idx == first_move) {
            let r = self.root.remove(pos);
            self.root.insert(0, r);
            start = 1;
        }
        let count = lines.min(self.root.len() - start);
        let mut found = Vec::with_capacity(count);
        for k in 0..count {
            self.root_first = start + k;
            let line = self.iterate(depth, previous.get(k).copied());
            self.root_first = 0;
            match line {
                Some(line) => found.push(line),
                None => return (found, false),
            }
        }
        // A later line may score above an earlier one (the table learned meanwhile): best
        // first, equal scores in the order found; the root moves follow (line k's move is the
        // root move each search put at its first place), so that the next iteration searches
        // each line's move first again.
        let mut paired: Vec<(Iteration, RootMove)> = found
            .into_iter()
            .zip(self.root[start..start + count].to_vec())
            .collect();
        paired.sort_by_key(|(line, _)| std::cmp::Reverse(line.score));
        let mut found = Vec::with_capacity(count);
        for (k, (line, root_move)) in paired.into_iter().enumerate() {
            self.root[start + k] = root_move;
            found.push(line);
        }
        (found, true)
    }

    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INFINITY;
        self.pv[0].clear();
        self.root_best = None;
        self.root_raised = None;
        let first = self.root_first;
        let window_alpha = alpha;
        self.root_depth = depth;
        self.rec.root_search(depth, alpha, beta);
        for i in first..self.root.len() {
            let m = self.root[i].idx;
            self.board.play(m);
            let score = if self.board.last_move_won() {
                MATE - 1
            } else if self.all_root_scores {
                -self.negamax(depth - 1, 1, -INFINITY, INFINITY, true)
            } else if i == first {
                -self.negamax(depth - 1, 1, -beta, -alpha, true)
            } else {
                let s = -self.negamax(depth - 1, 1, -alpha - 1, -alpha, false);
                if s > alpha && s < beta {
                    research!(
                        self.ctl,
                        Pvs,
                        -self.negamax(depth - 1, 1, -beta, -alpha, true)
                    )
                } else {
                    s
                }
            };
            self.board.undo();
            if self.ctl.stopped() {
                break;
            }
            self.rec.root_move(m, score, alpha, beta);
            self.root[i].score = score;
            self.root[i].exact = self.all_root_scores || (score > alpha && score < beta);
            if score > best {
                best = score;
                self.root_best = Some(score);
                let mut line = vec![m];
                line.extend_from_slice(&self.pv[1]);
                self.pv[0] = line;
                if score > alpha {
                    self.root_raised = Some(Iteration {
                        depth: depth as u32,
                        score,
                        pv: self.pv[0].clone(),
                        nodes: self.ctl.nodes(),
                    });
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
            if self.root_raised.is_some() && self.past_soft_stop() {
                self.ctl.halt();
                break;
            }
        }
        // Best first (after the lines already found) for the next search; the rest keep their
        // order. After a fail low every score is only a bound, so the order stays: the last
        // iteration's best is searched first again with the wider window.
        if !self.ctl.stopped() && best > window_alpha {
            if let Some(pos) = self.root[first..]
                .iter()
                .position(|r| Some(&r.idx) == self.pv[0].first())
            {
                let r = self.root.remove(first + pos);
                self.root.insert(first, r);
            }
            if self.all_root_scores {
                self.root
                    .sort_by(|a, b| b.score.cmp(&a.score).then(a.idx.cmp(&b.idx)));
            }
        }
        best
    }

    /// Step 3: the tree search below the root.
    fn negamax(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        self.mnodes += 1;
        stat!(c => c.main_by_ply[ply.min(super::stats::PLIES - 1)] += 1);
        if self.board.is_full() {
            return 0;
        }
        if self.ctl.tick() {
            return 0;
        }
        // Mate-distance pruning: no line from here beats a win on the next move.
        let ply_i = ply as i32;
        alpha = alpha.max(-(MATE - ply_i));
        beta = beta.min(MATE - ply_i - 1);
        if alpha >= beta {
            return alpha;
        }
        if let Some(score) = self.decided_by_threats(ply_i) {
            stat!(c => c.threat_decided += 1);
            return score;
        }
        let me = self.board.side();
        if depth <= 0 || ply >= MAX_PLY - 4 {
            return self.quiesce(ply, alpha, beta, QS_FOURS);
        }
        // Transposition table (not in a singular-extension search: its result leaves a move
        // out, so it is not the position's).
        let hash = self.board.hash();
        let excluded = self.excluded[ply];
        let mut tt_move = NO_MOVE;
        stat!(c => c.tt_probes += 1);
        let tt_hit = if excluded == NO_MOVE {
            self.tt.probe(hash, ply)
        } else {
            None
        };
        if let Some(hit) = tt_hit {
            stat!(c => c.tt_hits += 1);
            tt_move = hit.mv;
            if !pv_node && hit.depth >= depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    stat!(c => c.tt_cuts += 1);
                    return hit.score;
                }
            }
        }
        // The static score, computed once for the pruning tests that read it.
        let mut static_eval = None;
        if !pv_node && excluded == NO_MOVE && !is_win(beta) && !is_loss(alpha) {
            if let Some(score) = self.reverse_futility(depth, beta, &mut static_eval) {
                stat!(c => c.reverse_futility += 1);
                return score;
            }
        }
        // Moves by threat class, then ordered.
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let phase = generate(&self.board, &mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return evaluate(&self.board);
        }
        let forced = moves.len() == 1;
        let mut singular = false;
        if let Some(hit) =
            tt_hit.filter(|h| phase == Phase::All && self.may_be_singular(h, depth, ply))
        {
            match self.singular_test(&hit, depth, ply, beta, pv_node) {
                SingularTest::Decided(score) => {
                    self.buffers[ply] = moves;
                    return score;
                }
                SingularTest::Singular => singular = true,
                SingularTest::NotSingular => {}
            }
        }
        stat!(c => {
            c.expanded += 1;
            c.moves_generated += moves.len() as u64;
        });
        let mut keyed = std::mem::take(&mut self.ordered[ply]);
        keyed.clear();
        keyed.extend(moves.iter().map(|&m| {
            let s = if m as u16 == tt_move {
                1 << 28
            } else if self.killers[ply].contains(&(m as u16)) {
                move_score(&self.board, m) + 300
            } else {
                move_score(&self.board, m) + self.history[m][me] / 64
            };
            order_key(s, m)
        }));
        // The best move first; the rest are sorted only if it does not cut off.
        if let Some(first) = (0..keyed.len()).min_by_key(|&i| keyed[i]) {
            keyed.swap(0, first);
        }
        self.buffers[ply] = moves;
        // Futility: near the horizon, quiet moves cannot lift a hopeless static score.
        let futile = !pv_node
            && depth <= FUTILITY_DEPTH
            && self.static_eval(&mut static_eval) + FUTILITY_MARGIN * depth <= alpha;

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        let mut searched = 0usize;
        if pv_node {
            self.rec.pv_node(ply);
        }
        for i in 0..keyed.len() {
            if i == 1 {
                keyed[1..].sort_unstable();
            }
            let m = key_move(keyed[i]);
            let m16 = m as u16;
            if m16 == excluded {
                continue;
            }
            let quiet = phase == Phase::All && is_quiet(&self.board, m);
            if !pv_node
                && quiet
                && !is_loss(best)
                && ((depth <= LMP_DEPTH && searched >= late_move_count(depth))
                    || (futile && searched > 0))
            {
                stat!(c => if futile && searched > 0 {
                    c.futility_skips += 1;
                } else {
                    c.lmp_skips += 1;
                });
                continue;
            }
            self.board.play(m);
            let score = if self.board.last_move_won() {
                MATE - ply_i - 1
            } else {
                // A forced reply costs no depth, nor does a singular one.
                let new_depth = if forced || (singular && m16 == tt_move) {
                    depth
                } else {
                    depth - 1
                };
                if searched == 0 {
                    -self.negamax(new_depth, ply + 1, -beta, -alpha, pv_node)
                } else {
                    let r = if depth >= LMR_DEPTH && i >= LMR_MOVE && phase == Phase::All {
                        (reduction(depth, i) - i32::from(!quiet))
                            .min(new_depth - 1)
                            .max(0)
                    } else {
                        0
                    };
                    stat!(c => c.reduced += u64::from(r > 0));
                    let mut s = -self.negamax(new_depth - r, ply + 1, -alpha - 1, -alpha, false);
                    if s > alpha && r > 0 {
                        stat!(c => c.reduced_failed += 1);
                        s = research!(
                            self.ctl,
                            Lmr,
                            -self.negamax(new_depth, ply + 1, -alpha - 1, -alpha, false)
                        );
                    }
                    if s > alpha && s < beta && pv_node {
                        s = research!(
                            self.ctl,
                            Pvs,
                            -self.negamax(new_depth, ply + 1, -beta, -alpha, true)
                        );
                    }
                    s
                }
            };
            self.board.undo();
            searched += 1;
            if self.ctl.stopped() {
                return 0;
            }
            if pv_node {
                self.rec.pv_child(ply, m, score, alpha, beta);
            }
            if score > best {
                best = score;
                best_move = m16;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(m);
                        line.extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        stat!(c => {
                            c.cut_nodes += 1;
                            c.first_move_cuts += u64::from(searched == 1);
                            c.cut_move_sum += searched as u64;
                        });
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != m16 {
                                k[1] = k[0];
                                k[0] = m16;
                            }
                            self.history[m][me] += depth * depth;
                        }
                        break;
                    }
                }
            }
        }
        self.ordered[ply] = keyed;
        if R::ON && pv_node {
            self.rec.pv_node_done(ply, hash);
        }
        stat!(c => c.moves_searched += searched as u64);
        if best == -INFINITY {
            if excluded != NO_MOVE {
                // No other move: the left-out one is singular.
                return alpha;
            }
            // Every move was pruned: judge the position as it stands.
            return self.static_eval(&mut static_eval).clamp(alpha, beta);
        }
        if excluded != NO_MOVE {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(hash, ply, best_move, best, depth, bound);
        best
    }

    /// Whether the table's entry `hit` may name a singular move at this node: deep enough,
    /// searched nearly as deep, its score a lower bound or exact and not a proven result, and
    /// extensions not yet run away (below twice the iteration's depth).
    fn may_be_singular(&self, hit: &Hit, depth: i32, ply: usize) -> bool {
        depth >= SINGULAR_DEPTH
            && hit.mv != NO_MOVE
            && hit.depth >= depth - 3
            && hit.bound != Bound::Upper
            && !is_win(hit.score)
            && !is_loss(hit.score)
            && (ply as i32) < 2 * self.root_depth
    }

    /// The singular-extension test of the table move `hit.mv`: the other moves searched at
    /// half the depth against a bound `SINGULAR_MARGIN` a ply below its score.
    fn singular_test(
        &mut self,
        hit: &Hit,
        depth: i32,
        ply: usize,
        beta: i32,
        pv_node: bool,
    ) -> SingularTest {
        stat!(c => c.singular_tries += 1);
        let singular_beta = hit.score - SINGULAR_MARGIN * depth;
        self.excluded[ply] = hit.mv;
        let s = self.negamax(
            (depth - 1) / 2,
            ply,
            singular_beta - 1,
            singular_beta,
            false,
        );
        self.excluded[ply] = NO_MOVE;
        if self.ctl.stopped() {
            return SingularTest::Decided(0);
        }
        if s < singular_beta {
            stat!(c => c.singular += 1);
            return SingularTest::Singular;
        }
        // Multi-cut: a second move holds beta too.
        if !pv_node && singular_beta >= beta {
            return SingularTest::Decided(singular_beta);
        }
        SingularTest::NotSingular
    }

    /// Reverse futility: at a shallow non-PV node where the opponent has neither a four to
    /// complete nor an open four to make (a threat is searched, never judged: the static score
    /// does not see a VCT), a static score this far above `beta` stands.
    fn reverse_futility(&self, depth: i32, beta: i32, memo: &mut Option<i32>) -> Option<i32> {
        let op = 1 - self.board.side();
        if depth > REVERSE_FUTILITY_DEPTH
            || self.board.threat_count(op, Threat::Flex3x2) > 0
            || self.board.threats_at_least(op, Threat::Block4Flex3) > 0
        {
            return None;
        }
        let eval = self.static_eval(memo);
        (eval - REVERSE_FUTILITY_MARGIN * depth >= beta).then_some(eval)
    }

    /// The board's static evaluation, computed on the first call at a node and kept in `memo`
    /// (the node's pruning tests read the same position).
    fn static_eval(&self, memo: &mut Option<i32>) -> i32 {
        *memo.get_or_insert_with(|| evaluate(&self.board))
    }

    /// A score the threat counts alone decide, `ply` plies from the root: a five to complete,
    /// two fives to stop (or one on a point the mover may not play, under renju), or an open
    /// four the opponent cannot answer with a five.
    fn decided_by_threats(&self, ply: i32) -> Option<i32> {
        let me = self.board.side();
        let op = 1 - me;
        if self.board.threat_count(me, Threat::Five) > 0 {
            return Some(MATE - ply - 1);
        }
        let op_fives = self.board.threat_count(op, Threat::Five);
        if op_fives >= 2 || (op_fives == 1 && self.cannot_block(me, op)) {
            return Some(-(MATE - ply - 2));
        }
        if op_fives == 0
            && (self.board.has_playable_threat(me, Threat::Flex4)
                || self.board.has_unblockable_four(me))
        {
            return Some(MATE - ply - 3);
        }
        None
    }

    /// Whether `me` may not play the cell where `op` makes a five (renju's black, when it is
    /// a forbidden point: white aims at those).
    fn cannot_block(&self, me: usize, op: usize) -> bool {
        self.board.has_forbidden(me)
            && self
                .board
                .five_cell(op)
                .is_some_and(|c| self.board.forbids(c, me))
    }

    /// The horizon: stand pat on the evaluation, or try own fours; forced blocks are always
    /// played.
    fn quiesce(&mut self, ply: usize, alpha: i32, beta: i32, fours: u32) -> i32 {
        self.qnodes += 1;
        stat!(c => c.quiesce += 1);
        if self.board.is_full() {
            return 0;
        }
        if self.ctl.tick() {
            return 0;
        }
        let ply_i = ply as i32;
        if let Some(score) = self.decided_by_threats(ply_i) {
            return score;
        }
        let me = self.board.side();
        let op = 1 - me;
        let op_fives = self.board.threat_count(op, Threat::Five);
        if ply >= MAX_PLY - 2 {
            return evaluate(&self.board);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        if op_fives == 1 {
            threat_cells(&self.board, op, Threat::Five, &mut moves);
            let b = moves[0];
            self.buffers[ply] = moves;
            self.board.play(b);
            let score = -self.quiesce(ply + 1, -beta, -alpha, fours);
            self.board.undo();
            return score;
        }
        self.buffers[ply] = moves;
        let stand = evaluate(&self.board);
        // A VCF needs a four that also builds something (a lone four only trades stones).
        if stand >= beta || fours == 0 || self.board.threats_at_least(me, Threat::Block4Plus) == 0 {
            return stand;
        }
        // Own fours at the horizon: a short VCF decides; otherwise the evaluation stands.
        let proof = spent!(
            self.ctl,
            horizon_vcf,
            vcf(&mut self.board, &mut self.ctl, self.cache, fours)
        );
        stat!(c => {
            c.horizon_vcf_tries += 1;
            c.horizon_vcf_wins += u64::from(proof.is_some());
        });
        if let Some(proof) = proof {
            return MATE - ply_i - proof.plies as i32;
        }
        if self.ctl.stopped() {
            return 0;
        }
        stand
    }
}

/// What the singular-extension test found at a node.
enum SingularTest {
    /// The table move is singular: it is searched a ply deeper.
    Singular,
    /// Another move comes near it.
    NotSingular,
    /// The node's score without searching on: a second move holds beta (multi-cut), or the
    /// search was stopped.
    Decided(i32),
}

/// Quiet moves searched at a shallow non-PV node before the rest are skipped.
fn late_move_count(depth: i32) -> usize {
    (2 + depth * depth / 2) as usize
}

/// Plies by which a quiet late move is reduced: grows with the logarithms of the depth and of
/// the move number.
fn reduction(depth: i32, move_number: usize) -> i32 {
    let r = (f64::from(depth).ln() * (move_number as f64).ln() / 2.0 + 0.5) as i32;
    r.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{bench_position, POSITIONS};

    fn cells(root: &RootMoves) -> Vec<usize> {
        root.0.iter().map(|r| r.idx).collect()
    }

    #[test]
    fn helpers_start_from_the_moves_the_root_threat_searches_leave_or_more() {
        let mut unnarrowed = 0;
        for p in &POSITIONS {
            let board = Board::from_position(&bench_position(p));
            let (tt, mut cache, limits) = (
                TranspositionTable::new(1),
                ThreatCache::new(),
                Limits::none(),
            );
            let mut s = Searcher::new(board, &tt, &mut cache, &limits);
            let early = s.unscreened_root_moves().map(|r| cells(&r));
            if s.root_threats().is_some() {
                continue; // a proof: the helpers are stopped as soon as they start
            }
            let (early, screened) = (early.expect(p.name), cells(&s.root_moves()));
            // Same order; the threat searches may only have struck moves out.
            let mut rest = early.iter();
            assert!(
                screened.iter().all(|m| rest.any(|e| e == m)),
                "{}: {screened:?} in {early:?}",
                p.name
            );
            unnarrowed += usize::from(screened == early);
        }
        assert!(unnarrowed > 0);
    }

    #[test]
    fn a_five_to_play_needs_no_helpers() {
        let moves: Vec<mnk_core::Cell> = "h8 a1 i8 a2 j8 a3 k8 a4"
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        let pos = mnk_core::Position::from_moves("15x15x5".parse().unwrap(), &moves).unwrap();
        let (tt, mut cache, limits) = (
            TranspositionTable::new(1),
            ThreatCache::new(),
            Limits::none(),
        );
        let s = Searcher::new(Board::from_position(&pos), &tt, &mut cache, &limits);
        assert!(s.unscreened_root_moves().is_none());
    }
}
