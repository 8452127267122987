//! Texel tuning: fitting a weight table to the results of recorded games.
//!
//! `mnk match --record FILE` writes one [`RecordedGame`] a line. From every game decided by play
//! (not by a fault, and not a repeat of an earlier game) the tuner takes the *quiet* positions, those where neither side can make a
//! five and the mover cannot make an open four or a four-three (there the search, not the
//! evaluation, decides), and pairs each with the game's result for the mover: 1, ½ or 0. The
//! evaluation is linear in the table's line and cell values (the board sums them over the empty
//! cells, see [`crate::search::eval`]), so each position becomes a vector of pattern and class
//! counts, the mover's against the opponent's, computed once. The tuner then minimises the mean
//! squared error between `sigmoid(K · eval)` and the result: first the scale `K` alone (a search
//! on a log scale, the table fixed), then the values, by gradient descent with Adam steps, and
//! rounds them to whole numbers. Everything runs in a fixed order on one thread, so the same
//! games give the same table.
//!
//! The values of `dead` lines and of cells with no threat are left as they are (they count
//! alike for both sides), as are the evaluation's other terms and the move ordering.

use std::fmt;

use mnk_core::{Cell, Player, Position, Record, Rules};

use crate::chance::{fit_scale, sigmoid};
use crate::search::board::Board;
use crate::search::eval::evaluate;
use crate::search::threat::{key_pattern, Threat};
use crate::search::weight_table::{Variant, WeightTable, Weights, MAX_VALUE};

/// The first line of a record file: what its lines hold.
pub const RECORD_HEADER: &str = "# mnk games: rules<TAB>result (1-0, 0-1 or 1/2-1/2, X's first)<TAB>ending (line, full, limit or fault)<TAB>opening stones<TAB>moves";

/// How a recorded game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedEnding {
    /// A winning line.
    Line,
    /// A full board.
    Full,
    /// The move limit of the board without borders.
    Limit,
    /// A player's fault (illegal move, timeout, crash): not a result of play.
    Fault,
}

impl RecordedEnding {
    const NAMES: [(&'static str, RecordedEnding); 4] = [
        ("line", RecordedEnding::Line),
        ("full", RecordedEnding::Full),
        ("limit", RecordedEnding::Limit),
        ("fault", RecordedEnding::Fault),
    ];

    fn name(self) -> &'static str {
        RecordedEnding::NAMES
            .iter()
            .find(|(_, e)| *e == self)
            .map_or("fault", |(n, _)| n)
    }
}

/// One game of a record file.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedGame {
    /// The rules it was played under.
    pub rules: Rules,
    /// The winner, `None` for a draw.
    pub winner: Option<Player>,
    /// How it ended.
    pub ending: RecordedEnding,
    /// How many of the first moves were the opening's stones.
    pub opening_plies: usize,
    /// Every move, the opening's included.
    pub moves: Vec<Cell>,
}

/// Why a record line cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError(pub String);

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RecordError {}

impl RecordedGame {
    /// The record line of this game (see [`RECORD_HEADER`]).
    #[must_use]
    pub fn line(&self) -> String {
        let result = match self.winner {
            Some(Player::X) => "1-0",
            Some(Player::O) => "0-1",
            None => "1/2-1/2",
        };
        format!(
            "{}\t{result}\t{}\t{}\t{}",
            self.rules,
            self.ending.name(),
            self.opening_plies,
            Record(self.moves.clone())
        )
    }

    /// Reads a record line; `None` for blank lines and `#` comments. The moves must be legal
    /// and a game ended by a line must end with the winner's line.
    pub fn parse(line: &str) -> Result<Option<RecordedGame>, RecordError> {
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            return Ok(None);
        }
        let fields: Vec<&str> = text.split('\t').collect();
        let [rules, result, ending, opening, moves] = fields[..] else {
            return Err(RecordError(format!(
                "{} fields where a game has 5 (rules, result, ending, opening stones, moves, separated by tabs)",
                fields.len()
            )));
        };
        let rules: Rules = rules
            .trim()
            .parse()
            .map_err(|e| RecordError(format!("rules: {e}")))?;
        let winner = match result.trim() {
            "1-0" => Some(Player::X),
            "0-1" => Some(Player::O),
            "1/2-1/2" => None,
            other => {
                return Err(RecordError(format!(
                    "'{other}' is not a result: 1-0, 0-1 or 1/2-1/2"
                )))
            }
        };
        let ending = RecordedEnding::NAMES
            .iter()
            .find(|(n, _)| *n == ending.trim())
            .map(|&(_, e)| e)
            .ok_or_else(|| {
                RecordError(format!(
                    "'{}' is not an ending: line, full, limit or fault",
                    ending.trim()
                ))
            })?;
        let moves: Record = moves
            .parse()
            .map_err(|e| RecordError(format!("moves: {e}")))?;
        let moves = moves.0;
        let opening_plies: usize = opening
            .trim()
            .parse()
            .ok()
            .filter(|&n| n <= moves.len())
            .ok_or_else(|| {
                RecordError(format!(
                    "'{}' is not a number of opening stones from 0 to {}",
                    opening.trim(),
                    moves.len()
                ))
            })?;
        let pos = Position::from_moves(rules, &moves).map_err(|(n, e)| {
            RecordError(format!("move {} ({}) is illegal: {e}", n + 1, moves[n]))
        })?;
        if ending == RecordedEnding::Line {
            let won = match pos.outcome() {
                mnk_core::Outcome::Win { winner: w, .. } => Some(*w),
                _ => None,
            };
            if won.is_none() || won != winner {
                return Err(RecordError(
                    "the game is said to end with a winning line, but its moves do not".into(),
                ));
            }
        }
        Ok(Some(RecordedGame {
            rules,
            winner,
            ending,
            opening_plies,
            moves,
        }))
    }
}

/// Reads a record file's text, game by game; errors name the 1-based line.
pub fn parse_records(text: &str) -> Result<Vec<RecordedGame>, (usize, RecordError)> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(g) = RecordedGame::parse(line).map_err(|e| (i + 1, e))? {
            games.push(g);
        }
    }
    Ok(games)
}

/// Values per colour in the parameter vector: 10 line patterns, then 13 threat classes.
const PER_COLOUR: usize = 23;

/// Whether parameter `j` (of one colour) is tuned: not `dead`, not `none`.
fn tuned(j: usize) -> bool {
    j != 0 && j != 10
}

/// One quiet position: how the evaluation depends on the values, and the result.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The evaluation's derivative by each parameter: the mover's counts times its weight
    /// against the opponent's (per colour, if the table values the colours apart).
    features: Vec<f64>,
    /// The part of the evaluation the parameters do not move (bonuses for threats).
    bonus: f64,
    /// The game's result for the mover: 1, 0.5 or 0.
    result: f64,
}

/// The positions a tuning run learns from.
#[derive(Clone, Debug)]
pub struct Samples {
    samples: Vec<Sample>,
    /// Games read and games used.
    pub games: usize,
    /// Games left out: faults, other variants, repeats of an earlier game.
    pub skipped_games: usize,
    /// Whether the parameters are per colour.
    by_colour: bool,
}

impl Samples {
    /// The quiet positions of `games` of `variant`, valued with `table`.
    #[must_use]
    pub fn extract(
        games: &[RecordedGame],
        variant: Variant,
        table: &'static WeightTable,
    ) -> Samples {
        let by_colour = table.weights().by_colour;
        let mut out = Samples {
            samples: Vec::new(),
            games: 0,
            skipped_games: 0,
            by_colour,
        };
        let used = distinct_games(games, variant);
        out.games = used.len();
        out.skipped_games = games.len() - used.len();
        for game in used {
            game_samples(game, table, by_colour, &mut out.samples);
        }
        out
    }

    /// How many positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }
}

/// The games of `variant` decided by play, each once: two equal players with a node cap play
/// each opening's two games alike, and a fault is not a result of play.
#[must_use]
pub fn distinct_games(games: &[RecordedGame], variant: Variant) -> Vec<&RecordedGame> {
    let mut seen = std::collections::HashSet::new();
    games
        .iter()
        .filter(|g| {
            g.ending != RecordedEnding::Fault
                && Variant::of(&g.rules) == variant
                && seen.insert(&g.moves)
        })
        .collect()
}

/// Calls `each` with the board of every position of `game` after its opening, before each move
/// (boards valued by `table`).
pub fn replay(game: &RecordedGame, table: &'static WeightTable, mut each: impl FnMut(&Board)) {
    let Ok(mut pos) = Position::from_moves(game.rules, &game.moves[..game.opening_plies]) else {
        return;
    };
    let mut board = Board::with_weights(&pos, table);
    for &cell in &game.moves[game.opening_plies..] {
        if pos.is_over() {
            break;
        }
        each(&board);
        if pos.try_play(cell).is_err() {
            break;
        }
        match board.index_of(cell) {
            Some(i) if board.is_empty(i) => board.play(i),
            // Past the frame of a board without borders: a new frame.
            _ => board = Board::with_weights(&pos, table),
        }
    }
}

/// Whether the evaluation, not the search, decides the position: neither side can make a five
/// and the mover cannot make an open four or a four-three.
#[must_use]
pub fn is_quiet(board: &Board) -> bool {
    let me = board.side();
    board.threat_count(me, Threat::Five) == 0
        && board.threat_count(1 - me, Threat::Five) == 0
        && board.threats_at_least(me, Threat::Block4Flex3) == 0
}

/// Appends the quiet positions of one game (moves after the opening; the position before each).
fn game_samples(
    game: &RecordedGame,
    table: &'static WeightTable,
    by_colour: bool,
    out: &mut Vec<Sample>,
) {
    replay(game, table, |board| {
        if let Some(s) = sample(board, game, table, by_colour) {
            out.push(s);
        }
    });
}

/// The sample of the board's position, if it is quiet.
fn sample(
    board: &Board,
    game: &RecordedGame,
    table: &'static WeightTable,
    by_colour: bool,
) -> Option<Sample> {
    if !is_quiet(board) {
        return None;
    }
    let me = board.side();
    let op = 1 - me;
    let w = table.weights();
    let black = game.rules.first().index();
    let colour = |p: usize| usize::from(p != black);
    let mut features = vec![
        0.0;
        if by_colour {
            2 * PER_COLOUR
        } else {
            PER_COLOUR
        }
    ];
    let factor = [
        f64::from(w.eval.own_quarters) / 4.0,
        -f64::from(w.eval.opponent_quarters) / 4.0,
    ];
    for idx in 0..board.slots() {
        if !board.is_empty(idx) {
            continue;
        }
        for (p, f) in [(me, factor[0]), (op, factor[1])] {
            let key = board.key(idx, p);
            if key == 0 && board.threat(idx, p) == Threat::None {
                continue; // dead in every line: tuned values take no part
            }
            let base = if by_colour { colour(p) * PER_COLOUR } else { 0 };
            for d in 0..4 {
                let pat = key_pattern(key, d) as usize;
                features[base + pat] += f;
            }
            features[base + 10 + board.threat(idx, p) as usize] += f;
        }
    }
    let linear: f64 = features
        .iter()
        .zip(params_of(w, by_colour))
        .map(|(x, p)| x * p)
        .sum();
    let result = match game.winner {
        None => 0.5,
        Some(w) if w.index() == me => 1.0,
        Some(_) => 0.0,
    };
    Some(Sample {
        features,
        bonus: f64::from(evaluate(board)) - linear,
        result,
    })
}

/// The parameter vector of `weights` (per colour, or black's for both).
fn params_of(weights: &Weights, by_colour: bool) -> Vec<f64> {
    let colours = if by_colour { 2 } else { 1 };
    (0..colours)
        .flat_map(|c| {
            weights.line[c]
                .iter()
                .chain(&weights.cell[c])
                .map(|&v| f64::from(v))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `weights` with the parameters rounded into it.
fn with_params(weights: &Weights, params: &[f64], by_colour: bool) -> Weights {
    let mut w = weights.clone();
    for c in 0..2 {
        let base = if by_colour { c * PER_COLOUR } else { 0 };
        for j in 0..PER_COLOUR {
            let v = (params[base + j].round() as i32).clamp(-MAX_VALUE, MAX_VALUE);
            if j < 10 {
                w.line[c][j] = v;
            } else {
                w.cell[c][j - 10] = v;
            }
        }
    }
    w
}

/// The mean squared error of the parameters over the samples at scale `k`.
fn error(samples: &[Sample], params: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = eval_of(s, params);
            (s.result - sigmoid(k * e)).powi(2)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

fn eval_of(s: &Sample, params: &[f64]) -> f64 {
    s.bonus
        + s.features
            .iter()
            .zip(params)
            .map(|(x, p)| x * p)
            .sum::<f64>()
}

/// The scale `K` that fits the results best with the parameters fixed.
fn fit_k(samples: &[Sample], params: &[f64]) -> f64 {
    fit_scale(|k| error(samples, params, k))
}

/// What a tuning run found.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// The new values.
    pub weights: Weights,
    /// The fitted scale.
    pub k: f64,
    /// The error of the starting table and of the new one (both at `k`, after rounding).
    pub error_before: f64,
    /// See `error_before`.
    pub error_after: f64,
    /// Positions used.
    pub positions: usize,
}

/// Settings of a tuning run.
#[derive(Clone, Copy, Debug)]
pub struct TuneSettings {
    /// Gradient steps.
    pub iterations: usize,
    /// Adam's step size, in evaluation units.
    pub step: f64,
}

impl Default for TuneSettings {
    fn default() -> Self {
        TuneSettings {
            iterations: 400,
            step: 1.0,
        }
    }
}

/// Fits the values of `start` to the samples (see the module documentation).
#[must_use]
pub fn tune(samples: &Samples, start: &Weights, settings: TuneSettings) -> Tuned {
    let set = &samples.samples;
    let mut params = params_of(start, samples.by_colour);
    let k = fit_k(set, &params);
    let error_before = error(set, &params, k);
    let n = params.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let inv = 1.0 / set.len().max(1) as f64;
    for t in 1..=settings.iterations {
        let mut grad = vec![0.0; n];
        for s in set {
            let p = sigmoid(k * eval_of(s, &params));
            let g = 2.0 * (p - s.result) * p * (1.0 - p) * k * inv;
            for (gj, x) in grad.iter_mut().zip(&s.features) {
                *gj += g * x;
            }
        }
        for j in 0..n {
            if !tuned(j % PER_COLOUR) {
                continue;
            }
            m[j] = b1 * m[j] + (1.0 - b1) * grad[j];
            v[j] = b2 * v[j] + (1.0 - b2) * grad[j] * grad[j];
            let mh = m[j] / (1.0 - b1.powi(t as i32));
            let vh = v[j] / (1.0 - b2.powi(t as i32));
            // No shape counts against its owner: kept at zero or above.
            params[j] = (params[j] - settings.step * mh / (vh.sqrt() + eps)).max(0.0);
        }
    }
    let weights = with_params(start, &params, samples.by_colour);
    let error_after = error(set, &params_of(&weights, samples.by_colour), k);
    Tuned {
        weights,
        k,
        error_before,
        error_after,
        positions: set.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(
        rules: &str,
        moves: &str,
        winner: Option<Player>,
        ending: RecordedEnding,
    ) -> RecordedGame {
        RecordedGame {
            rules: rules.parse().unwrap(),
            winner,
            ending,
            opening_plies: 2,
            moves: moves.parse::<Record>().unwrap().0,
        }
    }

    #[test]
    fn record_lines_round_trip_and_bad_ones_are_refused() {
        let g = game(
            "15x15x5",
            "h8 a1 i8 a2 j8 a3 k8 a4 l8",
            Some(Player::X),
            RecordedEnding::Line,
        );
        let line = g.line();
        assert_eq!(line, "15x15x5\t1-0\tline\t2\th8 a1 i8 a2 j8 a3 k8 a4 l8");
        assert_eq!(RecordedGame::parse(&line), Ok(Some(g)));
        assert_eq!(RecordedGame::parse(RECORD_HEADER), Ok(None));
        assert_eq!(RecordedGame::parse("  "), Ok(None));
        for (bad, expected) in [
            ("15x15x5\t1-0\tline\t2", "4 fields"),
            ("15x15\t1-0\tline\t2\th8", "rules"),
            ("15x15x5\t2-0\tline\t0\th8", "not a result"),
            ("15x15x5\t1-0\tresign\t0\th8", "not an ending"),
            ("15x15x5\t1-0\tline\t3\th8", "opening stones from 0 to 1"),
            ("15x15x5\t1-0\tline\t0\th8 h8", "move 2 (h8) is illegal"),
            ("15x15x5\t1-0\tline\t0\th8 zz", "moves"),
            (
                "15x15x5\t0-1\tline\t0\th8 a1 i8 a2 j8 a3 k8 a4 l8",
                "winning line",
            ),
        ] {
            let e = RecordedGame::parse(bad).unwrap_err();
            assert!(e.to_string().contains(expected), "{bad}: {e}");
        }
        let e = parse_records("# header\n\nnonsense\n").unwrap_err();
        assert_eq!(e.0, 3);
    }

    #[test]
    fn quiet_positions_only_and_the_mover_sees_its_result() {
        // X makes an open three and wins: the positions after it are not quiet for X.
        let g = game(
            "15x15x5",
            "h8 a1 i8 a2 j8 a3 k8 a4 l8",
            Some(Player::X),
            RecordedEnding::Line,
        );
        let table = WeightTable::shipped(Variant::Freestyle);
        let s = Samples::extract(std::slice::from_ref(&g), Variant::Freestyle, table);
        assert_eq!((s.games, s.skipped_games), (1, 0));
        // Before i8 (X), before a2 (O), before j8 (X): then X has fours to make (j8 gives an open
        // three, after which O faces an open four and X a four-three or more).
        assert!(!s.is_empty() && s.len() < g.moves.len() - 2, "{}", s.len());
        for sample in &s.samples {
            assert!(sample.result == 1.0 || sample.result == 0.0);
            // In quiet positions the evaluation is the linear model: nothing is left over but
            // the rounding of the quarters.
            assert!(sample.bonus.abs() < 1.0, "{}", sample.bonus);
        }
        let faulted = RecordedGame {
            ending: RecordedEnding::Fault,
            ..g.clone()
        };
        let exact = Samples::extract(&[faulted, g.clone()], Variant::Exact, table);
        assert_eq!((exact.games, exact.skipped_games), (0, 2));
        let twice = Samples::extract(&[g.clone(), g], Variant::Freestyle, table);
        assert_eq!((twice.games, twice.skipped_games), (1, 1));
    }
}
