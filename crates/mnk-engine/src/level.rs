//! The level ladder every front-end offers, from a beginner who blunders to perfect play.
//!
//! 1. the attack-weight bot with deliberate mistakes;
//! 2. the attack-weight bot;
//! 3. the line-count alpha-beta at the original depth, choosing among the moves the attack
//!    weights rate highest;
//! 4. – 6. the strongest search available, with more time or depth per level. On boards the exact
//!    solver finishes quickly, level 6 is the perfect player.

use mnk_core::{Cell, Position, Rules};

use crate::bot::{Bot, BotError, Choice};
use crate::bots::{LineCountBot, PerfectBot, DEFAULT_DEPTH};
use crate::explain::Explanation;
use crate::limits::Limits;
use crate::rng::Rng;
use crate::search::EngineConfig;
use crate::weights::{explanation, weigh, WeightsBot};
use crate::Explained;

/// The engine's pattern tables start at k = 3; shorter lines are decided within a few plies, which
/// the line-count search sees.
const MIN_ENGINE_K: u32 = 3;
/// Level 3 searches only this many of the cells the attack weights rate highest.
const LEVEL_3_ROOT_MOVES: usize = 12;
/// Boards up to this many cells are solved exactly by the top level.
const PERFECT_UP_TO_CELLS: usize = 25;

/// A level from 1 (beginner) to 6 (strongest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A level's number, name and description, for menus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelInfo {
    /// 1..6.
    pub level: u8,
    /// A short name.
    pub title: &'static str,
    /// How it plays.
    pub description: &'static str,
}

/// The six levels.
pub const LEVELS: [LevelInfo; 6] = [
    LevelInfo {
        level: 1,
        title: "Beginner",
        description: "Attack weights, with deliberate mistakes.",
    },
    LevelInfo {
        level: 2,
        title: "Casual",
        description: "Attack weights: one move ahead.",
    },
    LevelInfo {
        level: 3,
        title: "Club",
        description:
            "Line-counting alpha-beta, two plies, among the cells the attack weights rate highest.",
    },
    LevelInfo {
        level: 4,
        title: "Strong",
        description: "Deeper search.",
    },
    LevelInfo {
        level: 5,
        title: "Expert",
        description: "Deeper search with more time.",
    },
    LevelInfo {
        level: 6,
        title: "Master",
        description: "The strongest search; perfect play on small boards.",
    },
];

impl Level {
    /// The level numbered `n`, if 1..=6.
    #[must_use]
    pub fn new(n: u8) -> Option<Level> {
        (1..=6).contains(&n).then_some(Level(n))
    }

    /// The level's number.
    #[must_use]
    pub fn number(self) -> u8 {
        self.0
    }

    /// The strongest level.
    #[must_use]
    pub fn top() -> Level {
        Level(6)
    }

    /// The bot that plays at this level under `rules`, with the engine's default table and one
    /// thread.
    #[must_use]
    pub fn bot(self, rules: &Rules, seed: u64) -> Box<dyn Bot> {
        self.bot_with(rules, seed, EngineConfig::default())
    }

    /// The bot that plays at this level under `rules`; where that is the search engine limited
    /// only by time (level 6 on boards too large to solve), built as `engine` says.
    #[must_use]
    pub fn bot_with(self, rules: &Rules, seed: u64, engine: EngineConfig) -> Box<dyn Bot> {
        match self.0 {
            1 => Box::new(Blunderer::new(seed)),
            2 => Box::new(WeightsBot::new(seed)),
            3 => {
                Box::new(LineCountBot::new(DEFAULT_DEPTH, seed).with_root_moves(LEVEL_3_ROOT_MOVES))
            }
            6 if solved_by_top_level(rules) => Box::new(PerfectBot::new(seed)),
            n => strong_bot(n, rules, seed, engine),
        }
    }

    /// Whether this level plays the search engine under `rules`: levels 4 to 6 where the
    /// solver does not play and lines are long enough for the engine's patterns.
    #[must_use]
    pub fn plays_engine(self, rules: &Rules) -> bool {
        match self.0 {
            1..=3 => false,
            6 if solved_by_top_level(rules) => false,
            _ => engine_plays(rules),
        }
    }
}

/// Whether the top level plays perfectly under `rules`: boards the solver finishes quickly.
fn solved_by_top_level(rules: &Rules) -> bool {
    rules.cell_count().is_some_and(|n| n <= PERFECT_UP_TO_CELLS) && crate::solver::solvable(rules)
}

// ---- Levels 4 to 6 on boards too large to solve: the engine's place. ----

/// Depth and node caps of level 4: a few plies, a small fraction of a second.
const LEVEL4_CAPS: (u32, u64) = (4, 12_000);
/// Depth and node caps of level 5: well under what level 6 searches in 200 ms, so that the
/// top level stays clearly ahead even at short time controls.
const LEVEL5_CAPS: (u32, u64) = (6, 40_000);

/// The bot for levels 4..=6 on boards the solver does not take: the engine, searching deeper
/// with each level (level 6 is limited only by the caller's limits, and built as `engine`
/// says; levels 4 and 5 are defined by their caps, so they keep one thread and the default
/// hash table, and take only `engine`'s weight table).
fn strong_bot(level: u8, rules: &Rules, seed: u64, engine: EngineConfig) -> Box<dyn Bot> {
    use crate::search::EngineBot;
    if !engine_plays(rules) {
        return Box::new(LineCountBot::new(u32::from(level), seed));
    }
    match level {
        4 => Box::new(
            EngineBot::capped(Some(LEVEL4_CAPS.0), Some(LEVEL4_CAPS.1))
                .with_weights(engine.weights),
        ),
        5 => Box::new(
            EngineBot::capped(Some(LEVEL5_CAPS.0), Some(LEVEL5_CAPS.1))
                .with_weights(engine.weights),
        ),
        _ => Box::new(EngineBot::with_config(engine)),
    }
}

/// Whether the strong levels and the `engine` bot are the search engine under `rules` (else
/// the line counter, searching as many plies as the level's number).
pub(crate) fn engine_plays(rules: &Rules) -> bool {
    rules.k() >= MIN_ENGINE_K
}

/// The `engine` bot: the strongest search for these rules, built as `engine` says.
pub fn engine_bot(rules: &Rules, seed: u64, engine: EngineConfig) -> Box<dyn Bot> {
    strong_bot(6, rules, seed, engine)
}

// ---- End of the engine's place. ----

/// Level 1: the attack-weight bot that now and then plays one of its top few cells instead of
/// the best, so that beginners can win.
#[derive(Debug)]
pub struct Blunderer {
    rng: Rng,
}

/// How often the beginner plays a worse move.
const MISTAKE_RATE: f64 = 0.4;
/// How many of the top cells a mistake chooses from.
const MISTAKE_CHOICES: usize = 6;

/// What the beginner does this move: play as the weights bot, or make a mistake.
enum Turn {
    /// Plays as the weights bot of this seed.
    Weighs(WeightsBot),
    /// Plays `cell`, one of `top`, the heaviest cells of `weights`.
    Mistake {
        weights: Vec<(Cell, f64)>,
        top: Vec<Cell>,
        cell: Cell,
    },
}

impl Blunderer {
    /// A beginner whose mistakes follow `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Blunderer {
        Blunderer {
            rng: Rng::seeded(seed),
        }
    }

    /// This move's turn: as the weights bot, or a mistake among the heaviest cells.
    fn turn(&mut self, pos: &Position, limits: &Limits) -> Result<Turn, BotError> {
        if self.rng.unit() >= MISTAKE_RATE {
            return Ok(Turn::Weighs(WeightsBot::new(self.rng.next_u64())));
        }
        let (weights, _complete) = weigh(pos, limits);
        let top: Vec<_> = weights
            .iter()
            .take(MISTAKE_CHOICES)
            .map(|(c, _)| *c)
            .collect();
        let cell = self.rng.pick(&top).ok_or(BotError::GameOver)?;
        Ok(Turn::Mistake { weights, top, cell })
    }
}

impl Bot for Blunderer {
    fn id(&self) -> &'static str {
        "level1"
    }

    /// Stopped by the limits, chooses among the cells weighed so far.
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        match self.turn(pos, limits)? {
            Turn::Weighs(mut bot) => bot.choose(pos, limits),
            Turn::Mistake { cell, .. } => Ok(Choice::just(cell)),
        }
    }

    fn explain(&mut self, pos: &Position, limits: &Limits) -> Result<Explained, BotError> {
        match self.turn(pos, limits)? {
            Turn::Weighs(mut bot) => bot.explain(pos, limits),
            Turn::Mistake { weights, top, cell } => Ok(Explained {
                choice: Choice::just(cell),
                explanation: Explanation::Weights(explanation(pos, &weights, top, cell, true)),
            }),
        }
    }
}
