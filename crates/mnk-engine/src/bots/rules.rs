//! The rule-based 3×3 player of the tiny tic-tac-toe this project grew from.
//!
//! In order: complete its own line; else block the opponent's; else answer one of the known
//! patterns of the opponent's stones (they set up forks); else take the centre, then a random
//! corner, then a random side. The original numbers the squares in a spiral (1, 2, 4 across the
//! top, 8 right, 16 bottom right, 32 bottom, 64 bottom left, 128 left, 256 centre) and matches the
//! opponent's stones as a sum of those numbers; the tables below keep that encoding so they can be
//! checked against the original.

use mnk_core::{Cell, Player, Position};

use crate::bot::{Bot, BotError, Choice};
use crate::limits::Limits;
use crate::rng::Rng;

/// Spiral square numbers → cells (x from the left, y from the bottom).
const SQUARES: [(u16, Cell); 9] = [
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

fn cell_of(square: u16) -> Cell {
    SQUARES
        .iter()
        .find(|(s, _)| *s == square)
        .expect("a square number")
        .1
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
        if pos.rules().size() != Some((3, 3)) || pos.rules().k() != 3 {
            return Err(BotError::Unsupported(
                "the rule player knows only 3x3 tic-tac-toe (three in a row)".into(),
            ));
        }
        if pos.is_over() {
            return Err(BotError::GameOver);
        }
        let me = pos.to_move();
        let sum_of = |p: Player| {
            SQUARES
                .iter()
                .filter(|(_, c)| pos.stone(*c) == Some(p))
                .map(|(s, _)| s)
                .sum::<u16>()
        };
        let (mine, theirs) = (sum_of(me), sum_of(me.opponent()));
        let free = 511 & !(mine | theirs);
        // Win, then block: the first line (in the original's order) with two stones and a gap.
        for own in [mine, theirs] {
            if let Some(line) = LINES
                .iter()
                .find(|&&l| (own & l).count_ones() == 2 && free & l != 0)
            {
                return Ok(vec![cell_of(free & line)]);
            }
        }
        // The original always moved second, so its answers assume its own stones are where its
        // earlier answers put them; when they are not (it started, or O started), an answer
        // whose square is taken is skipped.
        if let Some(j) = CORNER_ANSWERS.iter().position(|&p| p == theirs) {
            let corner = 1 << (j & 6);
            if free & corner != 0 {
                return Ok(vec![cell_of(corner)]);
            }
        }
        if SIDE_ANSWERS.contains(&theirs) && free & SIDES.iter().sum::<u16>() != 0 {
            return Ok(fallback(free, &[&SIDES]));
        }
        if let Some(j) = CORNER_EXCEPT.iter().position(|&p| p == theirs) {
            let allowed = free & !(1 << (2 * j));
            if allowed != 0 {
                return Ok(fallback(allowed, &[&CORNERS, &SIDES]));
            }
        }
        Ok(fallback(free, &[&CORNERS, &SIDES]))
    }
}

/// The centre if free, else the free squares of the first group that has any.
fn fallback(free: u16, groups: &[&[u16; 4]]) -> Vec<Cell> {
    if free & CENTRE != 0 {
        return vec![cell_of(CENTRE)];
    }
    groups
        .iter()
        .map(|g| {
            g.iter()
                .filter(|&&s| free & s != 0)
                .map(|&s| cell_of(s))
                .collect::<Vec<_>>()
        })
        .find(|cells| !cells.is_empty())
        .unwrap_or_else(|| {
            SQUARES
                .iter()
                .filter(|(s, _)| free & s != 0)
                .map(|(_, c)| *c)
                .collect()
        })
}

impl Bot for RulesBot {
    fn id(&self) -> &'static str {
        "rules"
    }

    fn choose(&mut self, pos: &Position, _limits: &Limits) -> Result<Choice, BotError> {
        let cells = RulesBot::candidates(pos)?;
        let cell = self
            .rng
            .pick(&cells)
            .expect("the rules always leave a move in an unfinished game");
        Ok(Choice::just(cell))
    }
}
