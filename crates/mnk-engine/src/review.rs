//! Game review: every position valued by the same fixed search, every move judged by the win
//! chance it gives away.
//!
//! A review must say the same thing twice. A search limited by time stops wherever the clock
//! finds it, so two reviews of one game disagree (marks flipped between ★ and ?? on the same
//! move). The review therefore searches each position with one thread, an empty table and a
//! fixed number of nodes ([`REVIEW_NODES`] unless asked otherwise): the same position gets the
//! same value on every run and every machine, as lichess's server analysis fixes its nodes.
//!
//! A move is judged, as lichess judges one, by the win chance ([`crate::chance`]) it loses:
//! the expected result of the position before it (its best move) against that of the position
//! after it, both seen by the player who moved. A proven result decides alone: a move that
//! keeps a proven win is never a mistake (best if as fast as the engine's, good if slower), a
//! move that gives one away or walks into a proven loss is a blunder. When the chance lost
//! would make a move a mistake or a blunder and the position after it is not a proven loss,
//! that position is searched again with [`CONFIRM_FACTOR`] times the nodes and the better of
//! the two values counts: a move is not called a mistake because one search fell short.
//!
//! A game is reviewed a stretch at a time, and the stretches meet: the last position of one is
//! the first of the next. A [`Memo`] keeps the latest values so that no position is searched
//! twice; since a value depends only on the position and the nodes, the memo changes no mark.

use std::collections::VecDeque;
use std::sync::Mutex;

use mnk_core::{Cell, Player, Position, Rules};

use crate::chance::expected;
use crate::search::Engine;
use crate::{BotError, Limits, Value};

/// Nodes per position when the request does not say.
pub const REVIEW_NODES: u64 = 200_000;
/// The most nodes a review may ask per position.
pub const MAX_REVIEW_NODES: u64 = 20_000_000;
/// How many times the nodes a doubtful mistake's position is searched again with.
pub const CONFIRM_FACTOR: u64 = 4;
/// Size of the review search's table, in megabytes (empty at every position).
pub const REVIEW_HASH_MB: usize = 16;

/// Chance lost (of 1) up to which a move is best, good, an inaccuracy, a mistake; above it,
/// a blunder.
pub const THRESHOLDS: [f64; 4] = [0.02, 0.05, 0.10, 0.20];

/// What the review found about one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Its value for the side to move.
    pub value: Value,
    /// The expected result for the side to move (1 a win, 0 a loss).
    pub expected: f64,
    /// The engine's move, `None` when the game is over.
    pub best: Option<Cell>,
    /// The line expected after it, starting with it.
    pub pv: Vec<Cell>,
    /// Depth of the search's last complete iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Whether the game is over: won, the board full, or no line left for either player.
#[must_use]
pub fn finished(pos: &Position) -> bool {
    pos.is_over() || pos.no_line_left()
}

/// Values `pos` as the review does: with `nodes` nodes on one thread from an empty table
/// (`limits` may only stop it early: a deadline or a stop flag). In a finished game the mover
/// has lost, or it is a draw, without a search.
pub fn evaluate(pos: &Position, nodes: u64, limits: &Limits) -> Result<Evaluation, BotError> {
    if finished(pos) {
        let value = if pos.outcome().winner().is_some() {
            Value::Loss(0)
        } else {
            Value::Draw
        };
        return Ok(Evaluation {
            value,
            expected: expected(pos.rules(), value),
            best: None,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
        });
    }
    // The caller's deadline only as a cutoff: as a deadline the search would plan its time by
    // it and stop iterating early on a busy machine, before the cutoff, with another value.
    let limits = Limits {
        max_nodes: Some(nodes.clamp(1, MAX_REVIEW_NODES)),
        max_depth: None,
        ..limits.with_cutoff_only()
    };
    let analysis = Engine::new(REVIEW_HASH_MB).analyse(pos, &limits, &mut |_| {})?;
    // A search the clock or the caller cut short would value the position otherwise on another
    // run: refused, rather than a review that changes with the machine's load.
    if limits.should_stop() {
        return Err(BotError::OutOfTime {
            nodes: analysis.nodes,
        });
    }
    Ok(Evaluation {
        value: analysis.value,
        expected: expected(pos.rules(), analysis.value),
        best: Some(analysis.best),
        pv: analysis.pv,
        depth: analysis.depth,
        nodes: analysis.nodes,
    })
}

/// What a value was searched from: the rules, the moves (placed stones first), the side to
/// move and the nodes. Equal keys mean the same search, hence the same value.
type MemoKey = (Rules, Vec<Cell>, Player, u64);

/// The values of the positions reviewed last (at most [`Memo::CAPACITY`], the oldest
/// forgotten first), shared by the reviews of one engine: the page's worker or the server.
#[derive(Debug, Default)]
pub struct Memo {
    entries: Mutex<VecDeque<(MemoKey, Evaluation)>>,
}

impl Memo {
    /// How many values a memo keeps: a few games' worth of stretches.
    pub const CAPACITY: usize = 256;

    /// [`evaluate`], unless this position was valued with as many nodes before.
    pub fn evaluate(
        &self,
        pos: &Position,
        nodes: u64,
        limits: &Limits,
    ) -> Result<Evaluation, BotError> {
        let key = (*pos.rules(), pos.history().to_vec(), pos.to_move(), nodes);
        if let Some(known) = self.recall(&key) {
            return Ok(known);
        }
        let found = evaluate(pos, nodes, limits)?;
        self.keep(key, found.clone());
        Ok(found)
    }

    /// How many values it keeps.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len()
    }

    /// Whether it keeps none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn recall(&self, key: &MemoKey) -> Option<Evaluation> {
        let entries = self
            .entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, e)| e.clone())
    }

    fn keep(&self, key: MemoKey, evaluation: Evaluation) {
        let mut entries = self
            .entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if entries.len() == Self::CAPACITY {
            entries.pop_front();
        }
        entries.push_back((key, evaluation));
    }
}

/// How good a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// The engine's move, or as good.
    Best,
    /// A little worse, or a slower proven win.
    Good,
    /// Gives away some of the chance.
    Inaccuracy,
    /// Gives away much of it.
    Mistake,
    /// Gives away the game: a proven win lost, a proven loss walked into, or most of the chance.
    Blunder,
}

impl Mark {
    /// Every mark, best first.
    pub const ALL: [Mark; 5] = [
        Mark::Best,
        Mark::Good,
        Mark::Inaccuracy,
        Mark::Mistake,
        Mark::Blunder,
    ];

    /// Its name in the API.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mark::Best => "best",
            Mark::Good => "good",
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The mark of a move that lost `loss` of the chance (no proven value involved).
    #[must_use]
    pub fn of_loss(loss: f64) -> Mark {
        Mark::ALL
            .into_iter()
            .zip(THRESHOLDS)
            .find(|&(_, limit)| loss <= limit)
            .map_or(Mark::Blunder, |(mark, _)| mark)
    }
}

/// The judgement of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Its mark.
    pub mark: Mark,
    /// The chance it lost, 0 to 1 (0 for the engine's own move or a kept proven result).
    pub loss: f64,
    /// Its accuracy, 0 to 100 (see [`accuracy`]).
    pub accuracy: f64,
    /// What the move was worth to its player (the value after it, seen by the mover).
    pub value: Value,
}

/// Judges the move `played` from the position valued `before` to the one valued `after`
/// (both as [`evaluate`] gives them, each for its own side to move).
#[must_use]
pub fn judge(rules: &Rules, before: &Evaluation, played: Cell, after: &Evaluation) -> Judgement {
    let value = after.value.parent();
    // The engine's own move is the measure of the others: best, whatever the search after it
    // finds (a shorter look from one ply later may miss what the first saw).
    if before.best == Some(played) {
        return Judgement {
            mark: Mark::Best,
            loss: 0.0,
            accuracy: accuracy(0.0),
            value,
        };
    }
    let (mark, loss) = match proven_mark(before.value, value) {
        Some(mark @ (Mark::Best | Mark::Good)) => (mark, 0.0),
        Some(mark) => (mark, (before.expected - expected(rules, value)).max(0.0)),
        None => {
            let loss = (before.expected - expected(rules, value)).max(0.0);
            (Mark::of_loss(loss), loss)
        }
    };
    Judgement {
        mark,
        loss,
        accuracy: accuracy(loss),
        value,
    }
}

/// The mark proven values decide: a kept win (best as fast as the engine's, else good), a
/// lost win or a new loss (blunder), a loss made no faster (best) or faster (good), a kept
/// proven draw. `None` when an evaluation is involved and the chance must decide.
fn proven_mark(best: Value, played: Value) -> Option<Mark> {
    match (best, played) {
        (Value::Win(fastest), Value::Win(n)) => {
            Some(if n <= fastest { Mark::Best } else { Mark::Good })
        }
        (Value::Win(_), _) => Some(Mark::Blunder),
        (Value::Loss(slowest), Value::Loss(n)) => {
            Some(if n >= slowest { Mark::Best } else { Mark::Good })
        }
        (_, Value::Loss(_)) => Some(Mark::Blunder),
        (Value::Draw, Value::Draw) => Some(Mark::Best),
        _ => None,
    }
}

/// Whether a judgement is doubtful enough to search the position after the move again: a
/// mistake or a blunder decided by the chance alone, not by a proven loss.
#[must_use]
pub fn needs_confirmation(judgement: &Judgement) -> bool {
    judgement.mark >= Mark::Mistake && !matches!(judgement.value, Value::Loss(_))
}

/// Judges `played` as [`judge`] does; when that judgement is doubtful ([`needs_confirmation`]),
/// searches the position after the move (`after_pos`) again with [`CONFIRM_FACTOR`] times
/// `nodes` and keeps the kinder of the two judgements. Answers the judgement and whether it
/// searched again.
pub fn judge_confirmed(
    before: &Evaluation,
    played: Cell,
    after: &Evaluation,
    after_pos: &Position,
    nodes: u64,
    limits: &Limits,
    memo: &Memo,
) -> Result<(Judgement, bool), BotError> {
    let rules = after_pos.rules();
    let first = judge(rules, before, played, after);
    if !needs_confirmation(&first) {
        return Ok((first, false));
    }
    let deeper = memo.evaluate(after_pos, nodes.saturating_mul(CONFIRM_FACTOR), limits)?;
    let second = judge(rules, before, played, &deeper);
    Ok((
        if second.mark < first.mark {
            second
        } else {
            first
        },
        true,
    ))
}

/// A stretch of a game reviewed: the value of each position, and the judgement of each move
/// between them (with whether it was searched again).
#[derive(Clone, Debug, PartialEq)]
pub struct Reviewed {
    /// The positions' values, the first position's first.
    pub evaluations: Vec<Evaluation>,
    /// The moves' judgements, in order.
    pub judgements: Vec<(Judgement, bool)>,
}

/// Reviews `moves` played from `start`: every position valued, every move judged, each search
/// of `nodes` nodes (none searched again that `memo` knows). The moves must be legal (they come
/// from a checked game).
pub fn review_stretch(
    start: &Position,
    moves: &[Cell],
    nodes: u64,
    limits: &Limits,
    memo: &Memo,
) -> Result<Reviewed, BotError> {
    let mut positions = vec![start.clone()];
    for &cell in moves {
        let mut next = positions[positions.len() - 1].clone();
        next.play(cell);
        positions.push(next);
    }
    let evaluations = positions
        .iter()
        .map(|pos| memo.evaluate(pos, nodes, limits))
        .collect::<Result<Vec<Evaluation>, BotError>>()?;
    let judgements = moves
        .iter()
        .enumerate()
        .map(|(i, &cell)| {
            judge_confirmed(
                &evaluations[i],
                cell,
                &evaluations[i + 1],
                &positions[i + 1],
                nodes,
                limits,
                memo,
            )
        })
        .collect::<Result<Vec<_>, BotError>>()?;
    Ok(Reviewed {
        evaluations,
        judgements,
    })
}

/// A move's accuracy from the chance it lost, as lichess computes it from win percentages:
/// 100 for no loss, about 64 for 10 points, 16 for 30 (`103.1668·e^(−0.043544·points) − 3.1668`,
/// within 0 and 100).
#[must_use]
pub fn accuracy(loss: f64) -> f64 {
    let points = 100.0 * loss.clamp(0.0, 1.0);
    (103.166_8 * (-0.043_544 * points).exp() - 3.166_8).clamp(0.0, 100.0)
}

/// A player's accuracy over a game: the mean of their moves' accuracies (`None` without moves).
#[must_use]
pub fn game_accuracy(moves: &[f64]) -> Option<f64> {
    (!moves.is_empty()).then(|| moves.iter().sum::<f64>() / moves.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Clock, Deadline};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    fn gomoku() -> Rules {
        "gomoku15".parse().unwrap()
    }

    #[test]
    fn a_search_cut_by_the_clock_is_refused_not_given() {
        let pos = Position::from_moves(gomoku(), &[Cell::new(7, 7)]).unwrap();
        let late = Limits::time(std::time::Duration::ZERO);
        assert!(matches!(
            evaluate(&pos, REVIEW_NODES, &late),
            Err(BotError::OutOfTime { .. })
        ));
        assert!(evaluate(&pos, 2_000, &Limits::default()).is_ok());
    }

    fn eval(value: Value, best: Option<Cell>) -> Evaluation {
        Evaluation {
            value,
            expected: expected(&gomoku(), value),
            best,
            pv: best.into_iter().collect(),
            depth: 8,
            nodes: 1000,
        }
    }

    const A: Cell = Cell { x: 7, y: 7 };
    const B: Cell = Cell { x: 8, y: 8 };

    #[test]
    fn a_kept_proven_win_is_never_a_mistake() {
        let before = eval(Value::Win(9), Some(A));
        let slower = judge(&gomoku(), &before, B, &eval(Value::Loss(14), Some(A)));
        assert_eq!((slower.mark, slower.loss), (Mark::Good, 0.0));
        let as_fast = judge(&gomoku(), &before, B, &eval(Value::Loss(8), Some(A)));
        assert_eq!(as_fast.mark, Mark::Best);
    }

    #[test]
    fn a_lost_win_and_a_new_loss_are_blunders() {
        let lost = judge(
            &gomoku(),
            &eval(Value::Win(5), Some(A)),
            B,
            &eval(Value::Eval(300), Some(A)),
        );
        assert_eq!(lost.mark, Mark::Blunder);
        let walked = judge(
            &gomoku(),
            &eval(Value::Eval(100), Some(A)),
            B,
            &eval(Value::Win(3), Some(A)),
        );
        assert_eq!(walked.mark, Mark::Blunder);
        assert!(!needs_confirmation(&walked));
    }

    #[test]
    fn the_engines_own_move_is_best() {
        let j = judge(
            &gomoku(),
            &eval(Value::Eval(800), Some(A)),
            A,
            &eval(Value::Eval(2000), Some(B)),
        );
        assert_eq!((j.mark, j.loss, j.accuracy), (Mark::Best, 0.0, 100.0));
    }

    #[test]
    fn marks_follow_the_chance_lost() {
        assert_eq!(Mark::of_loss(0.0), Mark::Best);
        assert_eq!(Mark::of_loss(0.04), Mark::Good);
        assert_eq!(Mark::of_loss(0.08), Mark::Inaccuracy);
        assert_eq!(Mark::of_loss(0.15), Mark::Mistake);
        assert_eq!(Mark::of_loss(0.5), Mark::Blunder);
    }

    #[test]
    fn accuracy_falls_with_the_loss() {
        assert!((accuracy(0.0) - 100.0).abs() < 0.01);
        assert!((accuracy(0.1) - 63.6).abs() < 0.5);
        assert!(accuracy(0.3) < accuracy(0.1));
        assert_eq!(accuracy(1.0), 0.0);
        assert_eq!(game_accuracy(&[100.0, 50.0]), Some(75.0));
        assert_eq!(game_accuracy(&[]), None);
    }

    /// An open position of four stones, for the searches' tests.
    fn four_stones() -> Position {
        let moves = [(7, 7), (8, 8), (7, 8), (6, 6)].map(|(x, y)| Cell { x, y });
        Position::from_moves(gomoku(), &moves).unwrap()
    }

    #[test]
    fn the_same_position_gets_the_same_value_twice() {
        let pos = four_stones();
        let a = evaluate(&pos, 30_000, &Limits::none()).unwrap();
        let b = evaluate(&pos, 30_000, &Limits::none()).unwrap();
        assert_eq!(a, b);
        assert!(a.nodes >= 30_000 && a.best.is_some() && a.depth > 2);
    }

    #[test]
    fn stretches_that_meet_search_their_shared_position_once_and_mark_as_one_stretch() {
        let moves = [Cell::new(7, 6), Cell::new(9, 9), Cell::new(7, 9)];
        let start = four_stones();
        let whole = review_stretch(&start, &moves, 5_000, &Limits::none(), &Memo::default());
        let whole = whole.unwrap();
        let memo = Memo::default();
        let first = review_stretch(&start, &moves[..1], 5_000, &Limits::none(), &memo).unwrap();
        let mut middle = start.clone();
        middle.play(moves[0]);
        let kept = memo.len();
        let second = review_stretch(&middle, &moves[1..], 5_000, &Limits::none(), &memo).unwrap();
        // Three more positions, and a confirmation for each move that asked for one.
        let confirmed = second.judgements.iter().filter(|(_, again)| *again).count();
        assert_eq!(memo.len(), kept + 2 + confirmed);
        assert_eq!(first.evaluations[1], second.evaluations[0]);
        let joined: Vec<_> = first
            .judgements
            .iter()
            .chain(&second.judgements)
            .cloned()
            .collect();
        assert_eq!(joined, whole.judgements);
    }

    /// A clock that moves a millisecond each time it is read: a machine so busy that the
    /// search's time plan sees its turn running out.
    #[derive(Default)]
    struct Busy(AtomicU64);

    impl Clock for Busy {
        fn now_ms(&self) -> u64 {
            self.0.fetch_add(1, Ordering::Relaxed)
        }
    }

    /// The review's limits, a deadline `budget_ms` away on a fresh busy clock, and how often the
    /// search read that clock.
    fn busy_review(pos: &Position, budget_ms: u64) -> (Result<Evaluation, BotError>, u64) {
        let clock = Arc::new(Busy::default());
        let limits = Limits {
            deadline: Some(Deadline::after(
                clock.clone(),
                Duration::from_millis(budget_ms),
            )),
            ..Limits::none()
        };
        let found = evaluate(pos, 30_000, &limits);
        (found, clock.0.load(Ordering::Relaxed))
    }

    #[test]
    fn a_busy_clock_changes_no_value_until_it_stops_the_search() {
        let pos = four_stones();
        let calm = evaluate(&pos, 30_000, &Limits::none()).unwrap();
        let (found, reads) = busy_review(&pos, 1 << 40);
        assert_eq!(found.unwrap(), calm);
        // Most of the turn gone by the last iterations, but not all: a search planning its time
        // by the deadline would stop iterating early here (see the last assertion), the
        // review's runs to its nodes.
        let tight = reads + reads / 4;
        assert_eq!(busy_review(&pos, tight).0.unwrap(), calm);
        let (cut, _) = busy_review(&pos, reads / 2);
        assert!(matches!(cut, Err(BotError::OutOfTime { .. })), "{cut:?}");
        let planned = Limits {
            deadline: Some(Deadline::after(
                Arc::new(Busy::default()),
                Duration::from_millis(tight),
            )),
            max_nodes: Some(30_000),
            ..Limits::none()
        };
        let timed = Engine::new(REVIEW_HASH_MB)
            .analyse(&pos, &planned, &mut |_| {})
            .unwrap();
        assert!(
            timed.nodes < calm.nodes,
            "{} against {}",
            timed.nodes,
            calm.nodes
        );
    }
}
