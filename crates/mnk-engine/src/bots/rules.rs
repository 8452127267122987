//! The rule-based 3×3 player of the tiny tic-tac-toe this project grew from.
//!
//! In order: complete its own line; else block the opponent's; else answer one of the known
//! patterns of the opponent's stones (they set up forks); else take the centre, then a random
//! corner, then a random side. The original numbers the squares in a spiral (1, 2, 4 across the
//! top, 8 right, 16 bottom right, 32 bottom, 64 bottom left, 128 left, 256 centre) and matches the
//! opponent's stones as a sum of those numbers; the tables below keep that encoding so they can be
//! checked against the original.

use mnk_core::{Cell, Player, Position};

use crate::bot::{Bot, BotError, Choice, Unplayable};
use crate::explain::rules::{ForkPattern, ForkTable, Row, Rule, RuleDecision};
use crate::explain::Explanation;
use crate::limits::Limits;
use crate::rng::Rng;
use crate::Explained;

/// Spiral square numbers → cells (x from the left, y from the bottom).
pub const SPIRAL: [(u16, Cell); 9] = [
    (1, Cell::new(0, 2)),
    (2, Cell::new(1, 2)),
    (4, Cell::new(2, 2)),
    (8, Cell::new(2, 1)),
    (16, Cell::new(2, 0)),
    (32, Cell::new(1, 0)),
    (64, Cell::new(0, 0)),
    (128, Cell::new(0, 1)),
    (256, Cell::new(1, 1)),
];

/// The eight lines, in the original's order (rows, columns, diagonals).
const LINES: [u16; 8] = [7, 392, 112, 193, 290, 28, 273, 324];

/// Opponent patterns answered with a corner: the corner sits at pattern index `j & 6`, i.e.
/// square `1 << (j & 6)`.
const CORNER_ANSWERS: [u16; 8] = [66, 132, 9, 18, 36, 72, 33, 144];
/// Opponent patterns answered with any side.
const SIDE_ANSWERS: [u16; 6] = [17, 37, 68, 73, 82, 148];
/// Opponent patterns answered with any corner except square `1 << 2j`.
const CORNER_EXCEPT: [u16; 4] = [40, 160, 130, 10];

const CENTRE: u16 = 256;
const CORNERS: [u16; 4] = [1, 4, 16, 64];
const SIDES: [u16; 4] = [2, 8, 32, 128];
/// The original's weight of its own stones in a line sum (the person's count 1).
const OWN_IN_SUM: u16 = 4;

fn cell_of(square: u16) -> Cell {
    SPIRAL
        .iter()
        .find(|(s, _)| *s == square)
        .expect("a square number")
        .1
}

/// The squares in `set` (a sum of spiral numbers), as cells in spiral order.
fn cells_of(set: u16) -> Vec<Cell> {
    SPIRAL
        .iter()
        .filter(|(s, _)| set & s != 0)
        .map(|(_, c)| *c)
        .collect()
}

/// The rule-based 3×3 player.
#[derive(Debug)]
pub struct RulesBot {
    rng: Rng,
}

impl RulesBot {
    /// A rule player whose random choices follow `seed`.
    #[must_use]
    pub fn new(seed: u64) -> RulesBot {
        RulesBot {
            rng: Rng::seeded(seed),
        }
    }

    /// Every move the rules allow here (the bot picks one at random); tests explore them all.
    pub fn candidates(pos: &Position) -> Result<Vec<Cell>, BotError> {
        RulesBot::decide(pos).map(|d| d.candidates)
    }

    /// What the rules read in `pos`, which of them fired and the moves it allows.
    pub fn decide(pos: &Position) -> Result<RuleDecision, BotError> {
        if pos.rules().size() != Some((3, 3)) || pos.rules().k() != 3 {
            return Err(BotError::Unsupported(Unplayable::OnlyTicTacToe.to_string()));
        }
        if pos.is_over() {
            return Err(BotError::GameOver);
        }
        let me = pos.to_move();
        let sum_of = |p: Player| {
            SPIRAL
                .iter()
                .filter(|(_, c)| pos.stone(*c) == Some(p))
                .map(|(s, _)| s)
                .sum::<u16>()
        };
        let (mine, theirs) = (sum_of(me), sum_of(me.opponent()));
        let (rule, pattern, candidates) = apply_rules(mine, theirs);
        Ok(RuleDecision {
            rule,
            pattern,
            candidates,
            mine,
            theirs,
            rows: rows(mine, theirs),
        })
    }

    /// The decision and the move picked from it, as [`Bot::choose`] picks it.
    fn decide_and_pick(&mut self, pos: &Position) -> Result<(RuleDecision, Cell), BotError> {
        let decision = RulesBot::decide(pos)?;
        let cell = self
            .rng
            .pick(&decision.candidates)
            .expect("the rules always leave a move in an unfinished game");
        Ok((decision, cell))
    }
}

/// The original's line sums: 4 for each of `mine`, 1 for each of `theirs`.
fn rows(mine: u16, theirs: u16) -> [Row; 8] {
    LINES.map(|line| Row {
        squares: line,
        sum: OWN_IN_SUM * (mine & line).count_ones() as u16 + (theirs & line).count_ones() as u16,
    })
}

/// The rules in order, on the bot's and the opponent's squares: the rule that fired, the fork
/// pattern matched if any, and the cells allowed.
fn apply_rules(mine: u16, theirs: u16) -> (Rule, Option<ForkPattern>, Vec<Cell>) {
    let free = 511 & !(mine | theirs);
    // Win, then block: the first line (in the original's order) with two stones and a gap.
    let two_and_gap = |own: u16| {
        LINES
            .iter()
            .position(|&l| (own & l).count_ones() == 2 && free & l != 0)
    };
    if let Some(line) = two_and_gap(mine) {
        return (Rule::Win { line }, None, cells_of(free & LINES[line]));
    }
    if let Some(line) = two_and_gap(theirs) {
        return (Rule::Block { line }, None, cells_of(free & LINES[line]));
    }
    let usual = [(Rule::Corner, &CORNERS), (Rule::Side, &SIDES)];
    let Some(mut pattern) = fork_pattern(theirs) else {
        let (rule, cells) = fallback(free, &usual);
        return (rule, None, cells);
    };
    // The original always moved second, so its answers assume its own stones are where its
    // earlier answers put them; when they are not (it started, or O started), an answer
    // whose squares are taken is passed over.
    let except = CORNERS.iter().sum::<u16>() & !pattern.reply;
    let usable = match pattern.table {
        ForkTable::Corner | ForkTable::Side => free & pattern.reply,
        ForkTable::CornerExcept => free & !except,
    };
    pattern.played = usable != 0;
    let (rule, cells) = match pattern.table {
        _ if !pattern.played => fallback(free, &usual),
        ForkTable::Corner => (Rule::Fork, cells_of(usable)),
        ForkTable::Side => fallback(free, &[(Rule::Side, &SIDES)]),
        ForkTable::CornerExcept => fallback(usable, &usual),
    };
    (rule, Some(pattern), cells)
}

/// The fork pattern of the original's tables that `theirs` matches, with the squares it
/// answers with (not yet checked against the free squares).
fn fork_pattern(theirs: u16) -> Option<ForkPattern> {
    let found = |table, reply| ForkPattern {
        table,
        pattern: theirs,
        reply,
        played: false,
    };
    if let Some(j) = CORNER_ANSWERS.iter().position(|&p| p == theirs) {
        return Some(found(ForkTable::Corner, 1 << (j & 6)));
    }
    if SIDE_ANSWERS.contains(&theirs) {
        return Some(found(ForkTable::Side, SIDES.iter().sum()));
    }
    let j = CORNER_EXCEPT.iter().position(|&p| p == theirs)?;
    Some(found(
        ForkTable::CornerExcept,
        CORNERS.iter().sum::<u16>() & !(1 << (2 * j)),
    ))
}

/// The original's fallback: the centre if free, else the free squares of the first group that
/// has any (every square is the centre, a corner or a side, so one has while any is free).
fn fallback(free: u16, groups: &[(Rule, &[u16; 4])]) -> (Rule, Vec<Cell>) {
    if free & CENTRE != 0 {
        return (Rule::Centre, vec![cell_of(CENTRE)]);
    }
    groups
        .iter()
        .map(|&(rule, g)| (rule, cells_of(g.iter().filter(|&&s| free & s != 0).sum())))
        .find(|(_, cells)| !cells.is_empty())
        .unwrap_or((Rule::Side, cells_of(free)))
}

impl Bot for RulesBot {
    fn id(&self) -> &'static str {
        "rules"
    }

    fn choose(&mut self, pos: &Position, _limits: &Limits) -> Result<Choice, BotError> {
        let (_, cell) = self.decide_and_pick(pos)?;
        Ok(Choice::just(cell))
    }

    fn explain(&mut self, pos: &Position, _limits: &Limits) -> Result<Explained, BotError> {
        let (decision, cell) = self.decide_and_pick(pos)?;
        Ok(Explained {
            choice: Choice::just(cell),
            explanation: Explanation::Rules(decision),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mnk_core::Preset;

    fn decision(diagram: &str) -> RuleDecision {
        let pos = Position::from_diagram(Preset::TicTacToe.rules(), diagram).unwrap();
        RulesBot::decide(&pos).unwrap()
    }

    fn cells(names: &[&str]) -> Vec<Cell> {
        names.iter().map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn a_win_reads_a_row_summing_to_eight() {
        // X to move with two on the top row: the original's row 0 (squares 1 + 2 + 4) sums 8.
        let d = decision("X X .\nO O .\n. . .");
        assert_eq!(d.rule, Rule::Win { line: 0 });
        assert_eq!(d.rows[0], Row { squares: 7, sum: 8 });
        // The middle row (8 + 128 + 256) holds two of O's: the block the win comes before.
        assert_eq!(
            d.rows[1],
            Row {
                squares: 392,
                sum: 2
            }
        );
        assert_eq!(d.candidates, cells(&["c3"]));
        assert_eq!((d.mine, d.theirs), (1 + 2, 128 + 256));
    }

    #[test]
    fn a_block_reads_a_row_summing_to_two() {
        let d = decision("X . .\nO O .\nX . .");
        assert_eq!(d.rule, Rule::Block { line: 1 });
        assert_eq!(d.rows[1].sum, 2);
        assert_eq!(d.candidates, cells(&["c2"]));
    }

    #[test]
    fn fork_patterns_name_their_table_and_reply() {
        // X on the top side (2) and bottom left (64): pattern 66, answered with the top-left
        // corner (square 1).
        let d = decision(". X .\n. O .\nX . .");
        assert_eq!(d.rule, Rule::Fork);
        assert_eq!(
            d.pattern,
            Some(ForkPattern {
                table: ForkTable::Corner,
                pattern: 66,
                reply: 1,
                played: true
            })
        );
        assert_eq!(d.candidates, cells(&["a3"]));
        // Opposite corners (1 + 16 = 17): any side.
        let d = decision("X . .\n. O .\n. . X");
        assert_eq!(d.rule, Rule::Side);
        assert_eq!(
            d.pattern.map(|p| (p.table, p.pattern)),
            Some((ForkTable::Side, 17))
        );
        assert_eq!(d.candidates, cells(&["b3", "c2", "b1", "a2"]));
        // The right and bottom sides (8 + 32 = 40): any corner but the top left.
        let d = decision(". . .\n. O X\n. X .");
        assert_eq!(d.rule, Rule::Corner);
        assert_eq!(d.pattern.map(|p| p.reply), Some(4 + 16 + 64));
        assert_eq!(d.candidates, cells(&["c3", "c1", "a1"]));
    }

    #[test]
    fn a_fork_answer_on_a_taken_square_is_passed_over() {
        // Pattern 66 again, with its corner already O's (the original's stones would stand
        // elsewhere): the answer is passed over and the rules go on to the centre.
        let d = decision("O X .\n. . .\nX . .");
        assert_eq!(d.pattern.map(|p| p.played), Some(false));
        assert_eq!(d.rule, Rule::Centre);
    }

    #[test]
    fn with_nothing_to_answer_centre_then_corner_then_side() {
        assert_eq!(decision(". . .\n. . .\n. . .").rule, Rule::Centre);
        let d = decision(". . .\n. X .\n. . .");
        assert_eq!(d.rule, Rule::Corner);
        assert_eq!(d.candidates, cells(&["a3", "c3", "c1", "a1"]));
    }
}
