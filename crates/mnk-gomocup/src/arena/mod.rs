//! `mnk match`: two players, many games, one referee.
//!
//! A player is one of our bots in this process (any [`BotSpec`]: `level6`, `weights`,
//! `alphabeta:2`, …) or an external engine (`engine:N`, the N-th `--engine` command line, from
//! 0) driven through the Gomocup protocol, one process per game. mnk-core is the referee: it
//! checks every move and decides wins and draws. An illegal move, a move later than the move
//! time plus a tolerance, a crash or an answer that breaks the protocol loses the game, and the
//! reason is kept with the game. Games start from openings (a file, or generated from the seed);
//! each opening is played twice with the players' sides swapped, so that the first-move advantage
//! cancels out. Games can run side by side (`--concurrency`).
//!
//! For comparing evaluations without the noise of a shared machine's clock, `--nodes` caps every
//! search of our engine in nodes (one thread, a node cap: the same game every run; an external
//! engine is sent it as `INFO max_node`, so two builds can be compared the same way), and
//! `--weights-a`/`--weights-b` give a player's engine another weight table. `--record` writes the
//! games as `mnk tune` reads them.

pub mod colours;
pub mod elo;
pub mod engine;
pub mod openings;
mod swap;
pub mod turn_time;

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use mnk_core::{Cell, DrawKind, Opening, Outcome, Player, Position, Record, Rules, MAX_SIDE};
use mnk_engine::roster::{create_with, BotSpec};
use mnk_engine::search::net::Net;
use mnk_engine::search::weight_table::{WeightTable, Weights};
use mnk_engine::search::{EngineConfig, MAX_THREADS};
use mnk_engine::tune::{RecordedEnding, RecordedGame, RECORD_HEADER};
use mnk_engine::{Bot, Deadline, Limits};

use crate::time_control::TimeControl;
use engine::{Engine, EngineSettings};

/// Games on a board without borders end as a draw after this many moves.
pub const MAX_PLIES: usize = 1_000;

// The ranges of the resource settings, checked by the command line and again by
// [`run_match_with`] for programs. (The `--help` texts repeat them.)

/// Most games a match plays (`--games`; at least 1).
pub const MAX_GAMES: u64 = 100_000;
/// Longest move time, in milliseconds (`--time-ms`, at least 1): an hour.
pub const MAX_TIME_MS: u64 = 3_600_000;
/// Longest game time per player, in milliseconds (`--game-ms`, 0 for none): a day.
pub const MAX_GAME_MS: u64 = 86_400_000;
/// Largest lateness tolerated, in milliseconds (`--tolerance-ms`): a minute.
pub const MAX_TOLERANCE_MS: u64 = 60_000;
/// Most games at once (`--concurrency`; at least 1).
pub const MAX_CONCURRENCY: u64 = 64;
/// Largest node cap per search (`--nodes`).
pub const MAX_NODES: u64 = 1_000_000_000_000;
/// Most memory offered to an external engine, in MB (`--memory-mb`, 0 for no limit): 64 GB.
pub const MAX_MEMORY_MB: u64 = 65_536;

/// Threads per search of each player (`--threads`): `N` for both, `A,B` for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threads(pub [usize; 2]);

impl FromStr for Threads {
    type Err = String;

    fn from_str(text: &str) -> Result<Threads, String> {
        let one = |t: &str| {
            match t.trim().parse::<usize>() {
            Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
            _ => Err(format!(
                "threads are N for both players or A,B for each, every number from 1 to {MAX_THREADS}; not '{}'",
                text.trim()
            )),
        }
        };
        match text.split_once(',') {
            Some((a, b)) => Ok(Threads([one(a)?, one(b)?])),
            None => one(text).map(|n| Threads([n, n])),
        }
    }
}

impl fmt::Display for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.0;
        if a == b {
            write!(f, "{a}")
        } else {
            write!(f, "{a},{b}")
        }
    }
}

/// The options of `mnk match`.
#[derive(clap::Args, Clone, Debug)]
pub struct MatchArgs {
    /// The first player: a bot or level (level6, weights, alphabeta:2, …) or engine:N, the N-th
    /// --engine (counting from 0).
    pub a: String,
    /// The second player, written like the first.
    pub b: String,
    /// Number of games, 1 to 100000 (each opening is played twice, the players swapping sides).
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_GAMES))]
    pub games: usize,
    /// The rules: 15x15x5, 15x15x5,exact, gomoku15, infx5, … (external engines need a bounded
    /// board, five in a row, X first).
    #[arg(long, default_value = "gomoku15")]
    pub rules: Rules,
    /// Time per move in milliseconds, 1 to 3600000 (sent as INFO timeout_turn).
    #[arg(long = "time-ms", value_name = "MS", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(1..=MAX_TIME_MS))]
    pub time_ms: u64,
    /// Time per game and player in milliseconds, 0 for none, at most 86400000 (INFO
    /// timeout_match/time_left).
    #[arg(long = "game-ms", value_name = "MS", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=MAX_GAME_MS))]
    pub game_ms: u64,
    /// How much later than its time a move may come before it loses on time, in milliseconds,
    /// 0 to 60000.
    #[arg(long = "tolerance-ms", value_name = "MS", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(0..=MAX_TOLERANCE_MS))]
    pub tolerance_ms: u64,
    /// A file of openings, one game record per line (h8 i9 h10); default: generated from --seed.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// How each game begins: free (from the openings), swap or swap2 (the players open in turn:
    /// one places three stones, the other chooses; external engines through SWAP2BOARD, swap2
    /// only).
    #[arg(long, default_value = "free")]
    pub opening: Opening,
    /// An external engine's command line (repeatable); players name them engine:0, engine:1, …
    #[arg(long = "engine", value_name = "CMD")]
    pub engines: Vec<String>,
    /// Games played at the same time, 1 to 64.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_CONCURRENCY))]
    pub concurrency: usize,
    /// Seed for generated openings and for the bots' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Memory for each external engine in MB (INFO max_memory), 0 for no limit, at most 65536.
    #[arg(long = "memory-mb", value_name = "MB", default_value_t = 350,
          value_parser = clap::value_parser!(u64).range(0..=MAX_MEMORY_MB))]
    pub memory_mb: u64,
    /// Threads per search, 1 to 64: N for both players or A,B for each. Our bots use them where
    /// they search by time (level6 on large boards, engine); external engines are sent INFO
    /// thread_num. Default: one thread, and no INFO thread_num.
    #[arg(long, value_name = "N|A,B")]
    pub threads: Option<Threads>,
    /// Save the games to this file, one line per game.
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Record the games for `mnk tune` in this file, one line per game as it ends (after a
    /// header line): rules, result, ending, opening stones and moves, separated by tabs.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Cap every search at this many nodes (1 to 10^12), besides the move time: our engine's
    /// directly (with one thread, the same games on every run), external engines' through INFO
    /// max_node.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    pub nodes: Option<u64>,
    /// A weight table file (as `mnk tune` writes) for player A's engine instead of the shipped
    /// one.
    #[arg(long = "weights-a", value_name = "FILE")]
    pub weights_a: Option<PathBuf>,
    /// A weight table file for player B's engine.
    #[arg(long = "weights-b", value_name = "FILE")]
    pub weights_b: Option<PathBuf>,
    /// A network file (as `mnk train-net` writes) for player A's evaluation in place of the
    /// shipped one, or `none` for the weight table's sums alone.
    #[arg(long = "net-a", value_name = "FILE|none")]
    pub net_a: Option<PathBuf>,
    /// A network file for player B's evaluation, or `none`.
    #[arg(long = "net-b", value_name = "FILE|none")]
    pub net_b: Option<PathBuf>,
    /// Do not print a line per game while the match runs.
    #[arg(long)]
    pub quiet: bool,
}

impl MatchArgs {
    /// The defaults of the command line for players `a` and `b`.
    #[must_use]
    pub fn new(a: &str, b: &str) -> MatchArgs {
        MatchArgs {
            a: a.to_string(),
            b: b.to_string(),
            games: 10,
            rules: mnk_core::Preset::Gomoku15.rules(),
            time_ms: 200,
            game_ms: 0,
            tolerance_ms: 200,
            openings: None,
            opening: Opening::Free,
            engines: Vec::new(),
            concurrency: 1,
            seed: 1,
            memory_mb: 350,
            threads: None,
            save: None,
            record: None,
            nodes: None,
            weights_a: None,
            weights_b: None,
            net_a: None,
            net_b: None,
            quiet: false,
        }
    }
}

/// Why a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A player that is neither a bot nor `engine:N`.
    #[error("'{text}' is not a player: {reason}")]
    Player {
        /// The player as written.
        text: String,
        /// Why.
        reason: String,
    },
    /// `engine:N` without an N-th `--engine`.
    #[error("engine:{index} needs at least {} --engine command line(s); {count} given", index + 1)]
    NoSuchEngine {
        /// The index asked for.
        index: usize,
        /// The number of `--engine` options.
        count: usize,
    },
    /// External engines cannot play these rules.
    #[error("external engines play five in a row on a bounded board of at most {MAX_SIDE}x{MAX_SIDE}, X first; {0} is not such a game")]
    RulesForEngines(String),
    /// An external engine did not start or did not answer `START`.
    #[error("engine '{command}' cannot play: {reason}")]
    EngineStart {
        /// The command line.
        command: String,
        /// What went wrong.
        reason: String,
    },
    /// The openings file cannot be used.
    #[error("openings file {path}{}: {reason}", if *line > 0 { format!(", line {line}") } else { String::new() })]
    Openings {
        /// The file.
        path: String,
        /// 1-based line, 0 for the whole file.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A setting out of range.
    #[error("{0}")]
    Settings(String),
    /// A weight table file cannot be used.
    #[error("weight table {path}: {reason}")]
    Weights {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A network file cannot be used.
    #[error("network {path}: {reason}")]
    Net {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// The games could not be saved or recorded.
    #[error("cannot save the games to {path}: {reason}")]
    Save {
        /// The file.
        path: String,
        /// The I/O error.
        reason: String,
    },
}

/// How a player broke the rules of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// A move off the board or on a taken cell.
    Illegal,
    /// No move within the move time plus the tolerance.
    Timeout,
    /// The process could not start or exited, or the bot failed.
    Crash,
    /// An answer that is not what the protocol expects.
    Protocol,
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FaultKind::Illegal => "illegal move",
            FaultKind::Timeout => "timeout",
            FaultKind::Crash => "crash",
            FaultKind::Protocol => "protocol error",
        })
    }
}

/// A fault and what exactly happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The kind.
    pub kind: FaultKind,
    /// The details, for people.
    pub detail: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A player made a winning line.
    Line(Player),
    /// Drawn: the board filled up, or renju's black had no move that is not forbidden.
    Drawn(DrawKind),
    /// A game without borders reached [`MAX_PLIES`].
    MoveLimit,
    /// A player lost by a fault.
    Fault(Player, Fault),
}

/// One game of a match.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based game number.
    pub number: usize,
    /// The player who had X (the side that began the opening).
    pub x: String,
    /// The player who had O.
    pub o: String,
    /// Whether the match's first player (A) had X.
    pub a_is_x: bool,
    /// Stones of the opening (the first moves of `moves`).
    pub opening_plies: usize,
    /// How a swap opening went, in words ("A placed three, B took white").
    pub opening_story: Option<String>,
    /// Every move, the opening included.
    pub moves: Vec<Cell>,
    /// How it ended.
    pub ending: Ending,
    /// The longest move of A and of B, in milliseconds.
    pub longest_ms: [u64; 2],
    /// How long each of A's and of B's moves took, in milliseconds, in the order played.
    pub move_ms: [Vec<u64>; 2],
    /// How far A's and B's in-process bots went past the deadline they were given, at worst, in
    /// milliseconds (0 for external engines, whose deadline the referee does not see).
    pub overrun_ms: [u64; 2],
}

impl GameRecord {
    /// The winner, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Player> {
        match &self.ending {
            Ending::Line(p) => Some(*p),
            Ending::Fault(p, _) => Some(p.opponent()),
            Ending::Drawn(_) | Ending::MoveLimit => None,
        }
    }

    /// The match's first player's score: 1, ½ or 0.
    #[must_use]
    pub fn a_score(&self) -> f64 {
        let a = if self.a_is_x { Player::X } else { Player::O };
        match self.winner() {
            Some(w) if w == a => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`, X first.
    #[must_use]
    pub fn result(&self) -> &'static str {
        match self.winner() {
            Some(Player::X) => "1-0",
            Some(Player::O) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// How the game ended, in words.
    #[must_use]
    pub fn reason(&self) -> String {
        match &self.ending {
            Ending::Line(p) => format!("{p} made a winning line"),
            Ending::Drawn(kind) => kind.to_string(),
            Ending::MoveLimit => format!("{MAX_PLIES} moves without a winner"),
            Ending::Fault(p, f) => format!("{p} lost by {}: {}", f.kind, f.detail),
        }
    }

    /// The game as `--record` writes it (see [`mnk_engine::tune::RecordedGame`]).
    #[must_use]
    pub fn recorded(&self, rules: Rules) -> RecordedGame {
        RecordedGame {
            rules,
            winner: self.winner(),
            ending: match self.ending {
                Ending::Line(_) => RecordedEnding::Line,
                // `mnk tune` reads every draw alike.
                Ending::Drawn(_) => RecordedEnding::Full,
                Ending::MoveLimit => RecordedEnding::Limit,
                Ending::Fault(..) => RecordedEnding::Fault,
            },
            opening_plies: self.opening_plies,
            moves: self.moves.clone(),
        }
    }

    /// The line `--save` writes: number, X, O, result, reason and record, separated by tabs.
    #[must_use]
    pub fn save_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}",
            self.number,
            self.x,
            self.o,
            self.result(),
            self.reason(),
            Record(self.moves.clone())
        )
    }
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}: {} (X) - {} (O) {}, {} after {} moves",
            self.number,
            self.x,
            self.o,
            self.result(),
            self.reason(),
            self.moves.len()
        )?;
        match &self.opening_story {
            Some(story) => write!(f, " ({story})"),
            None => Ok(()),
        }
    }
}

/// The outcome of a match, from the first player's side.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The first player's name.
    pub a: String,
    /// The second player's name.
    pub b: String,
    /// The rules played.
    pub rules: Rules,
    /// Milliseconds per move.
    pub time_ms: u64,
    /// Every game, in order.
    pub games: Vec<GameRecord>,
    /// Wall time of the match.
    pub elapsed: Duration,
}

impl MatchReport {
    /// Wins, draws and losses of the first player.
    #[must_use]
    pub fn wdl(&self) -> (usize, usize, usize) {
        let [x, o] = colours::by_colour(&self.games);
        (x.wins + o.wins, x.draws + o.draws, x.losses + o.losses)
    }

    /// The first player's score as a fraction of the games.
    #[must_use]
    pub fn score(&self) -> f64 {
        let (w, d, l) = self.wdl();
        let n = (w + d + l).max(1) as f64;
        (w as f64 + d as f64 / 2.0) / n
    }

    /// How many games were lost by a fault of this kind.
    #[must_use]
    pub fn faults(&self, kind: FaultKind) -> usize {
        self.games
            .iter()
            .filter(|g| matches!(&g.ending, Ending::Fault(_, f) if f.kind == kind))
            .count()
    }

    /// The lines on colours: the first player's results with each, and what became of the
    /// opening pairs (see [`colours`]).
    fn fmt_colours(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [with_x, with_o] = colours::by_colour(&self.games);
        // X wins what A wins with X and loses with O.
        let (x_won, o_won) = (with_x.wins + with_o.losses, with_o.wins + with_x.losses);
        let wdl = |r: colours::Wdl| format!("{}/{}/{}", r.wins, r.draws, r.losses);
        writeln!(
            f,
            "By colour: {} {} with X, {} with O; X won {x_won}, O won {o_won}, {} drawn",
            self.a,
            wdl(with_x),
            wdl(with_o),
            with_x.draws + with_o.draws
        )?;
        let pairs = colours::opening_pairs(&self.games);
        if pairs.total() > 0 {
            writeln!(
                f,
                "Opening pairs: {}: {} won both {}, {} won both {}, one each {} (X won both {}, O won both {}), a draw in {}",
                pairs.total(),
                self.a,
                pairs.a_both,
                self.b,
                pairs.b_both,
                pairs.x_both + pairs.o_both,
                pairs.x_both,
                pairs.o_both,
                pairs.with_draw
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, d, l) = self.wdl();
        writeln!(
            f,
            "{} vs {}: {} games of {} at {} ms per move ({:.1} s)",
            self.a,
            self.b,
            self.games.len(),
            self.rules,
            self.time_ms,
            self.elapsed.as_secs_f64()
        )?;
        writeln!(
            f,
            "W/D/L {w}/{d}/{l} for {}: score {:.1}%",
            self.a,
            100.0 * self.score()
        )?;
        if let Some((e, m)) = elo::elo_with_margin(w, d, l) {
            let margin = if m.is_finite() {
                format!("{m:.0}")
            } else {
                "inf".into()
            };
            let by_pairs = elo::pair_margin(&colours::pair_points(&self.games))
                .filter(|m| m.is_finite())
                .map_or(String::new(), |m| format!("; ± {m:.0} by opening pairs"));
            writeln!(
                f,
                "Elo difference: {} ± {margin} (95%{by_pairs})",
                elo::show(e)
            )?;
        }
        self.fmt_colours(f)?;
        let lines = self
            .games
            .iter()
            .filter(|g| matches!(g.ending, Ending::Line(_)))
            .count();
        let full = self.games.len()
            - lines
            - self
                .games
                .iter()
                .filter(|g| matches!(g.ending, Ending::Fault(..)))
                .count();
        writeln!(
            f,
            "Endings: {lines} winning lines, {full} draws, {} illegal moves, {} timeouts, {} crashes, {} protocol errors",
            self.faults(FaultKind::Illegal),
            self.faults(FaultKind::Timeout),
            self.faults(FaultKind::Crash),
            self.faults(FaultKind::Protocol)
        )?;
        let worst = |i: usize, pick: fn(&GameRecord) -> [u64; 2]| {
            self.games.iter().map(|g| pick(g)[i]).max().unwrap_or(0)
        };
        writeln!(
            f,
            "Longest move: {} {} ms, {} {} ms; worst deadline overrun (in-process bots): {} ms, {} ms",
            self.a,
            worst(0, |g| g.longest_ms),
            self.b,
            worst(1, |g| g.longest_ms),
            worst(0, |g| g.overrun_ms),
            worst(1, |g| g.overrun_ms)
        )?;
        // How much of the move time each side used: the median shows the undecided positions
        // (forced replies and found wins are quick), the mean everything.
        let usage = |i: usize| {
            let mut all: Vec<u64> = self
                .games
                .iter()
                .flat_map(|g| g.move_ms[i].iter().copied())
                .collect();
            all.sort_unstable();
            let mean = all.iter().sum::<u64>() as f64 / all.len().max(1) as f64;
            let median = all.get(all.len() / 2).copied().unwrap_or(0);
            let share = |ms: f64| 100.0 * ms / self.time_ms.max(1) as f64;
            format!(
                "{} median {median} ms ({:.0}%), mean {mean:.0} ms ({:.0}%)",
                if i == 0 { &self.a } else { &self.b },
                share(median as f64),
                share(mean)
            )
        };
        writeln!(f, "Move time used: {}; {}", usage(0), usage(1))?;
        for g in &self.games {
            if let Ending::Fault(..) = g.ending {
                writeln!(f, "  {g}")?;
            }
        }
        Ok(())
    }
}

/// A player as the match sees it.
#[derive(Clone, Debug)]
enum PlayerSpec {
    Bot(BotSpec),
    Engine(String),
}

/// One side of a game in progress.
enum Seat {
    Bot(Box<dyn Bot>),
    Engine(Engine),
}

fn parse_player(text: &str, engines: &[String]) -> Result<(PlayerSpec, String), MatchError> {
    let t = text.trim();
    if let Some(n) = t.strip_prefix("engine:") {
        if let Ok(index) = n.trim().parse::<usize>() {
            let command = engines.get(index).ok_or(MatchError::NoSuchEngine {
                index,
                count: engines.len(),
            })?;
            let program = engine::split_command(command)
                .first()
                .map(|p| {
                    std::path::Path::new(p)
                        .file_name()
                        .map_or(p.clone(), |f| f.to_string_lossy().into_owned())
                })
                .unwrap_or_default();
            return Ok((
                PlayerSpec::Engine(command.clone()),
                format!("engine:{index} ({program})"),
            ));
        }
    }
    let spec: BotSpec = t
        .parse()
        .map_err(|e: mnk_engine::BotError| MatchError::Player {
            text: t.to_string(),
            reason: format!("{e}; or engine:N for the N-th --engine"),
        })?;
    Ok((PlayerSpec::Bot(spec), spec.to_string()))
}

/// Starts player `who` (0 = A, 1 = B) of game `index`: its bot, or its engine's process.
fn seat_player(
    args: &MatchArgs,
    player: &PlayerSpec,
    index: usize,
    who: usize,
    weights: [Option<&'static WeightTable>; 2],
) -> Result<Seat, Fault> {
    match player {
        PlayerSpec::Bot(spec) => create_with(
            spec,
            &args.rules,
            player_seed(args, index, who),
            engine_config(args, who, weights),
        )
        .map(Seat::Bot)
        .map_err(|e| Fault {
            kind: FaultKind::Crash,
            detail: e.to_string(),
        }),
        PlayerSpec::Engine(command) => {
            Engine::start(command, &args.rules, engine_settings(args, who)).map(Seat::Engine)
        }
    }
}

/// The seed of player `who`'s random choices in game `index`.
fn player_seed(args: &MatchArgs, index: usize, who: usize) -> u64 {
    args.seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((index * 2 + who) as u64)
}

/// Player `who`'s (0 = A, 1 = B) threads per search, if `--threads` gave them.
fn threads_of(args: &MatchArgs, who: usize) -> Option<usize> {
    args.threads.map(|t| t.0[who])
}

/// What the protocol tells player `who`'s engine.
fn engine_settings(args: &MatchArgs, who: usize) -> EngineSettings {
    EngineSettings {
        turn_ms: args.time_ms,
        match_ms: args.game_ms,
        max_memory: args.memory_mb.saturating_mul(1 << 20),
        threads: threads_of(args, who),
        max_nodes: args.nodes,
    }
}

/// How player `who`'s in-process engine is built.
fn engine_config(
    args: &MatchArgs,
    who: usize,
    weights: [Option<&'static WeightTable>; 2],
) -> EngineConfig {
    EngineConfig {
        weights: weights[who],
        ..EngineConfig::with_threads(threads_of(args, who).unwrap_or(1))
    }
}

/// The evaluation of each player's engine: the weight tables `--weights-a` and `--weights-b`
/// name, with the networks `--net-a` and `--net-b` name (`none`: the tables' sums); `None` for
/// the shipped evaluation of the rules.
fn load_weights(args: &MatchArgs) -> Result<[Option<&'static WeightTable>; 2], MatchError> {
    let load = |table: &Option<PathBuf>,
                net: &Option<PathBuf>|
     -> Result<Option<&'static WeightTable>, MatchError> {
        let weights = match table {
            None if net.is_none() => return Ok(None),
            None => WeightTable::for_rules(&args.rules).weights().clone(),
            Some(path) => read_with(path, |text| Weights::parse(text).map_err(|e| e.to_string()))
                .map_err(|(path, reason)| MatchError::Weights { path, reason })?,
        };
        let net = match net {
            None => WeightTable::for_rules(&args.rules).net(),
            Some(path) if path.as_os_str() == "none" => None,
            Some(path) => Some(&*Box::leak(Box::new(
                read_with(path, Net::parse)
                    .map_err(|(path, reason)| MatchError::Net { path, reason })?,
            ))),
        };
        Ok(Some(Box::leak(Box::new(
            WeightTable::new(weights).with_net(net),
        ))))
    };
    Ok([
        load(&args.weights_a, &args.net_a)?,
        load(&args.weights_b, &args.net_b)?,
    ])
}

/// Reads the file `path` and parses it, or says which file and why not.
fn read_with<T>(
    path: &PathBuf,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<T, (String, String)> {
    let name = || path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| (name(), e.to_string()))?;
    parse(&text).map_err(|reason| (name(), reason))
}

/// Refuses a swap opening the rules or the players cannot play.
fn check_opening(args: &MatchArgs) -> Result<(), MatchError> {
    if args.opening == Opening::Free {
        return Ok(());
    }
    args.opening
        .check_rules(&args.rules)
        .map_err(|e| MatchError::Settings(format!("--opening {}: {e}", args.opening)))?;
    if args.openings.is_some() {
        return Err(MatchError::Settings(format!(
            "--opening {} makes its own openings: leave out --openings",
            args.opening
        )));
    }
    let engines = [&args.a, &args.b]
        .iter()
        .any(|p| p.trim().starts_with("engine:"));
    if engines && args.opening != Opening::Swap2 {
        return Err(MatchError::Settings(format!(
            "external engines open only with swap2 (SWAP2BOARD); --opening {} is for our bots",
            args.opening
        )));
    }
    Ok(())
}

/// Refuses resource settings out of their ranges (the command line's parsers already do; this
/// is for programs that fill [`MatchArgs`] themselves).
fn check_settings(args: &MatchArgs) -> Result<(), MatchError> {
    let ranges = [
        ("--games", args.games as u64, 1, MAX_GAMES),
        ("--time-ms", args.time_ms, 1, MAX_TIME_MS),
        ("--game-ms", args.game_ms, 0, MAX_GAME_MS),
        ("--tolerance-ms", args.tolerance_ms, 0, MAX_TOLERANCE_MS),
        ("--concurrency", args.concurrency as u64, 1, MAX_CONCURRENCY),
        ("--memory-mb", args.memory_mb, 0, MAX_MEMORY_MB),
        ("--nodes", args.nodes.unwrap_or(1), 1, MAX_NODES),
        (
            "--threads",
            threads_of(args, 0).unwrap_or(1) as u64,
            1,
            MAX_THREADS as u64,
        ),
        (
            "--threads",
            threads_of(args, 1).unwrap_or(1) as u64,
            1,
            MAX_THREADS as u64,
        ),
    ];
    for (flag, value, low, high) in ranges {
        if !(low..=high).contains(&value) {
            return Err(MatchError::Settings(format!(
                "{flag} must be from {low} to {high}, not {value}"
            )));
        }
    }
    Ok(())
}

/// Plays the match and prints a line per game to standard error (unless `quiet`).
pub fn run_match(args: &MatchArgs) -> Result<MatchReport, MatchError> {
    let quiet = args.quiet;
    run_match_with(args, &|g: &GameRecord| {
        if !quiet {
            eprintln!("{g}");
        }
    })
}

/// Plays the match, calling `on_game` as each game ends (from any thread).
pub fn run_match_with(
    args: &MatchArgs,
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Result<MatchReport, MatchError> {
    check_settings(args)?;
    check_opening(args)?;
    let rules = args.rules;
    let (a, mut a_name) = parse_player(&args.a, &args.engines)?;
    let (b, mut b_name) = parse_player(&args.b, &args.engines)?;
    let players = [a, b];
    let weights = load_weights(args)?;
    for (who, name) in [&mut a_name, &mut b_name].into_iter().enumerate() {
        if let Some(path) = [&args.weights_a, &args.weights_b][who] {
            let file = path.file_name().unwrap_or(path.as_os_str());
            name.push_str(&format!(" ({} weights)", file.to_string_lossy()));
        }
        if let Some(path) = [&args.net_a, &args.net_b][who] {
            let file = path.file_name().unwrap_or(path.as_os_str());
            name.push_str(&format!(" (net {})", file.to_string_lossy()));
        }
        match threads_of(args, who) {
            Some(1) => name.push_str(" with 1 thread"),
            Some(n) => name.push_str(&format!(" with {n} threads")),
            None => {}
        }
    }

    // Check every player before the first game.
    for (who, (spec, text)) in players.iter().zip([&args.a, &args.b]).enumerate() {
        match spec {
            PlayerSpec::Bot(s) => {
                create_with(s, &rules, 0, engine_config(args, who, weights)).map_err(|e| {
                    MatchError::Player {
                        text: text.clone(),
                        reason: e.to_string(),
                    }
                })?;
            }
            PlayerSpec::Engine(command) => {
                let fits = rules.k() == 5
                    && rules.first() == Player::X
                    && rules
                        .size()
                        .is_some_and(|(w, h)| w <= MAX_SIDE && h <= MAX_SIDE);
                if !fits {
                    return Err(MatchError::RulesForEngines(rules.to_string()));
                }
                Engine::start(command, &rules, engine_settings(args, who))
                    .map_err(|f| MatchError::EngineStart {
                        command: command.clone(),
                        reason: format!("{}: {}", f.kind, f.detail),
                    })?
                    .end();
            }
        }
    }

    let pairs = args.games.div_ceil(2);
    let openings = match &args.openings {
        Some(path) => openings::from_file(path, &rules)?,
        None => openings::generate(&rules, pairs, args.seed),
    };
    let mut save = match &args.save {
        Some(path) => Some(std::fs::File::create(path).map_err(|e| MatchError::Save {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?),
        None => None,
    };

    let recorder = match &args.record {
        Some(path) => {
            let fail = |e: std::io::Error| MatchError::Save {
                path: path.display().to_string(),
                reason: e.to_string(),
            };
            let mut file = std::fs::File::create(path).map_err(fail)?;
            writeln!(file, "{RECORD_HEADER}").map_err(fail)?;
            Some(Mutex::new(file))
        }
        None => None,
    };
    // The first game that cannot be recorded: the match goes on, and then fails with it.
    let record_failed: Mutex<Option<String>> = Mutex::new(None);

    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameRecord>>> = Mutex::new(vec![None; args.games]);
    let names = [a_name.as_str(), b_name.as_str()];
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.min(args.games) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= args.games {
                    break;
                }
                let opening = &openings[(i / 2) % openings.len()];
                let record = play_game(args, &players, names, i, opening, weights);
                if let Some(file) = &recorder {
                    let line = record.recorded(rules).line();
                    let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                    // Written as each game ends, so an interrupted match keeps its games.
                    if let Err(e) = writeln!(file, "{line}") {
                        let mut failed = record_failed.lock().unwrap_or_else(|e| e.into_inner());
                        failed.get_or_insert(format!("game {}: {e}", record.number));
                    }
                }
                on_game(&record);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(record);
            });
        }
    });
    let games: Vec<GameRecord> = results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect();

    if let (Some(reason), Some(path)) = (
        record_failed
            .into_inner()
            .unwrap_or_else(|e| e.into_inner()),
        &args.record,
    ) {
        return Err(MatchError::Save {
            path: path.display().to_string(),
            reason,
        });
    }
    if let (Some(file), Some(path)) = (&mut save, &args.save) {
        let text: String = games.iter().map(|g| g.save_line() + "\n").collect();
        file.write_all(text.as_bytes())
            .map_err(|e| MatchError::Save {
                path: path.display().to_string(),
                reason: e.to_string(),
            })?;
    }
    Ok(MatchReport {
        a: a_name.clone(),
        b: b_name.clone(),
        rules,
        time_ms: args.time_ms,
        games,
        elapsed: started.elapsed(),
    })
}

/// Plays game `index` (0-based). Without a swap opening it starts from `opening`, A having X in
/// even games and O in odd ones; with one, A opens in even games and B in odd ones, and the
/// opening decides the colours.
fn play_game(
    args: &MatchArgs,
    players: &[PlayerSpec; 2],
    names: [&str; 2],
    index: usize,
    opening: &[Cell],
    weights: [Option<&'static WeightTable>; 2],
) -> GameRecord {
    let rules = args.rules;
    // Before a swap opening settles the colours, the opener counts as X.
    let a_is_x = index % 2 == 0;
    let mut record = GameRecord {
        number: index + 1,
        x: names[usize::from(!a_is_x)].to_string(),
        o: names[usize::from(a_is_x)].to_string(),
        a_is_x,
        opening_plies: 0,
        moves: Vec::new(),
        opening_story: None,
        ending: Ending::Drawn(DrawKind::FullBoard),
        longest_ms: [0, 0],
        move_ms: [Vec::new(), Vec::new()],
        overrun_ms: [0, 0],
    };
    let side_of = |who: usize, a_is_x: bool| {
        if (who == 0) == a_is_x {
            rules.first()
        } else {
            rules.first().opponent()
        }
    };

    // Seat both players (by player: A, then B); a player that cannot start loses.
    let mut seats: Vec<Seat> = Vec::with_capacity(2);
    for (who, player) in players.iter().enumerate() {
        match seat_player(args, player, index, who, weights) {
            Ok(s) => seats.push(s),
            Err(fault) => {
                record.ending = Ending::Fault(side_of(who, a_is_x), fault);
                return record;
            }
        }
    }

    let mut pos = if args.opening == Opening::Free {
        match Position::from_moves(rules, opening) {
            Ok(pos) => pos,
            Err((n, e)) => {
                // Openings were checked when they were read; this cannot happen.
                record.ending = Ending::Fault(
                    if n % 2 == 0 {
                        rules.first()
                    } else {
                        rules.first().opponent()
                    },
                    Fault {
                        kind: FaultKind::Illegal,
                        detail: format!("the opening is illegal: {e}"),
                    },
                );
                return record;
            }
        }
    } else {
        let opener = index % 2;
        let mut times = Vec::new();
        let seed = player_seed(args, index, opener);
        let played = swap::play_opening(args, args.opening, &mut seats, opener, seed, &mut times);
        for t in times {
            record.longest_ms[t.who] = record.longest_ms[t.who].max(t.ms);
            record.move_ms[t.who].push(t.ms);
        }
        match played {
            Ok(settled) => {
                record.a_is_x = (settled.black == 0) == (rules.first() == Player::X);
                record.opening_story = Some(settled.story);
                settled.pos
            }
            Err(e) => {
                record.ending = Ending::Fault(side_of(e.who, a_is_x), e.fault);
                return record;
            }
        }
    };
    let a_is_x = record.a_is_x;
    record.x = names[usize::from(!a_is_x)].to_string();
    record.o = names[usize::from(a_is_x)].to_string();
    record.opening_plies = pos.ply();
    record.moves = pos.history().to_vec();
    // seat_of[Player::index()] = which match player (0 = A, 1 = B) sits there.
    let seat_of = if a_is_x { [0, 1] } else { [1, 0] };

    let mut left_ms = [args.game_ms; 2];
    let ending = loop {
        match pos.outcome() {
            Outcome::Win { winner, .. } => break Ending::Line(*winner),
            Outcome::Draw(kind) => break Ending::Drawn(*kind),
            Outcome::Ongoing => {}
        }
        if !rules.is_bounded() && pos.ply() >= MAX_PLIES {
            break Ending::MoveLimit;
        }
        let side = pos.to_move();
        let who = seat_of[side.index()];
        let allowed_ms = if args.game_ms > 0 {
            args.time_ms.min(left_ms[side.index()])
        } else {
            args.time_ms
        };
        let game_left = (args.game_ms > 0).then_some(left_ms[side.index()]);
        let start = Instant::now();
        let answer = match &mut seats[who] {
            Seat::Bot(bot) => {
                let tc = TimeControl {
                    turn_ms: args.time_ms,
                    match_ms: args.game_ms,
                    reported_left_ms: game_left,
                    spent_ms: 0,
                };
                let budget = tc.budget(pos.ply());
                let limits = Limits {
                    deadline: Some(Deadline::from_now(budget)),
                    max_nodes: args.nodes,
                    ..Limits::default()
                };
                let result = bot.choose(&pos, &limits);
                let over = start.elapsed().saturating_sub(budget).as_millis() as u64;
                record.overrun_ms[who] = record.overrun_ms[who].max(over);
                result.map(|c| c.cell).map_err(|e| Fault {
                    kind: FaultKind::Crash,
                    detail: format!("the bot failed: {e}"),
                })
            }
            Seat::Engine(engine) => {
                let deadline = start + Duration::from_millis(allowed_ms + args.tolerance_ms);
                engine.request(&pos, game_left, deadline)
            }
        };
        let spent = start.elapsed().as_millis() as u64;
        record.longest_ms[who] = record.longest_ms[who].max(spent);
        record.move_ms[who].push(spent);
        if args.game_ms > 0 {
            left_ms[side.index()] = left_ms[side.index()].saturating_sub(spent);
        }
        let cell = match answer {
            Ok(cell) => cell,
            Err(fault) => break Ending::Fault(side, fault),
        };
        if spent > allowed_ms + args.tolerance_ms {
            break Ending::Fault(
                side,
                Fault {
                    kind: FaultKind::Timeout,
                    detail: format!(
                        "{cell} came after {spent} ms, {allowed_ms} ms were allowed (+{} ms tolerance)",
                        args.tolerance_ms
                    ),
                },
            );
        }
        if let Err(e) = pos.try_play(cell) {
            break Ending::Fault(
                side,
                Fault {
                    kind: FaultKind::Illegal,
                    detail: e.to_string(),
                },
            );
        }
        record.moves.push(cell);
    };
    record.ending = ending;
    for seat in seats {
        if let Seat::Engine(engine) = seat {
            engine.end();
        }
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_one_number_or_one_per_player() {
        assert_eq!("2".parse(), Ok(Threads([2, 2])));
        assert_eq!(" 2,1 ".parse(), Ok(Threads([2, 1])));
        assert_eq!("64,1".parse::<Threads>().unwrap().to_string(), "64,1");
        assert_eq!("3".parse::<Threads>().unwrap().to_string(), "3");
        for bad in ["0", "65", "2,", ",2", "2,1,1", "two", "-1", ""] {
            let e = bad.parse::<Threads>().unwrap_err();
            assert!(e.contains("from 1 to 64"), "{bad}: {e}");
        }
        let mut args = MatchArgs::new("level6", "level6");
        args.threads = Some(Threads([2, 0]));
        assert!(
            matches!(check_settings(&args), Err(MatchError::Settings(m)) if m.contains("--threads"))
        );
    }

    #[test]
    fn players_are_bots_or_numbered_engines() {
        let engines = vec!["./pbrain-x --fast".to_string()];
        let (spec, name) = parse_player("level3", &engines).unwrap();
        assert!(matches!(spec, PlayerSpec::Bot(_)));
        assert_eq!(name, "level3");
        let (spec, name) = parse_player("engine:0", &engines).unwrap();
        assert!(matches!(spec, PlayerSpec::Engine(c) if c == "./pbrain-x --fast"));
        assert_eq!(name, "engine:0 (pbrain-x)");
        assert!(matches!(
            parse_player("engine:1", &engines),
            Err(MatchError::NoSuchEngine { index: 1, count: 1 })
        ));
        // The engine bot itself is still a bot.
        assert!(matches!(
            parse_player("engine", &engines).unwrap().0,
            PlayerSpec::Bot(_)
        ));
        let e = parse_player("grandmaster", &engines).unwrap_err();
        assert!(e.to_string().contains("engine:N"), "{e}");
    }

    #[test]
    fn bots_play_a_small_match_with_both_colours() {
        let mut args = MatchArgs::new("weights", "alphabeta:1");
        args.rules = "9x9x4".parse().unwrap();
        args.games = 4;
        args.time_ms = 100;
        args.quiet = true;
        args.concurrency = 2;
        let recorded = std::env::temp_dir().join(format!("mnk-record-{}.txt", std::process::id()));
        args.record = Some(recorded.clone());
        let report = run_match(&args).unwrap();
        // The record holds every game, in the order they ended, as `mnk tune` reads them.
        let text = std::fs::read_to_string(&recorded).unwrap();
        let _ = std::fs::remove_file(&recorded);
        assert!(text.starts_with(RECORD_HEADER), "{text}");
        let mut games = mnk_engine::tune::parse_records(&text).unwrap();
        let mut expected: Vec<_> = report
            .games
            .iter()
            .map(|g| g.recorded(args.rules))
            .collect();
        let key = |g: &RecordedGame| g.line();
        games.sort_by_key(key);
        expected.sort_by_key(key);
        assert_eq!(games, expected);
        eprintln!("{report}");
        assert_eq!(report.games.len(), 4);
        let (w, d, l) = report.wdl();
        assert_eq!(w + d + l, 4);
        for (i, g) in report.games.iter().enumerate() {
            assert_eq!(g.number, i + 1);
            assert_eq!(g.a_is_x, i % 2 == 0);
            assert!(!matches!(g.ending, Ending::Fault(..)), "{g}");
            // Every record replays to its ending under the referee.
            let pos = Position::from_moves(args.rules, &g.moves).unwrap();
            assert!(pos.is_over(), "{g}");
            // One time per move played (the opening's stones are not moves of either player).
            let played = g.moves.len() - g.opening_plies;
            assert_eq!(g.move_ms[0].len() + g.move_ms[1].len(), played, "{g}");
        }
        // Each opening is played twice.
        assert_eq!(
            report.games[0].moves[..report.games[0].opening_plies],
            report.games[1].moves[..report.games[1].opening_plies]
        );
        let text = report.to_string();
        assert!(text.contains("W/D/L"), "{text}");
        assert!(text.contains("Elo difference"), "{text}");
        assert!(text.contains("By colour: weights "), "{text}");
        // Four games of two openings, each played with both colours.
        assert!(text.contains("Opening pairs: 2: "), "{text}");
        assert!(text.contains("Move time used: weights median"), "{text}");
    }

    #[test]
    fn bots_open_in_turn_with_swap2_and_the_colours_follow_the_decisions() {
        let mut args = MatchArgs::new("level3", "alphabeta:1");
        args.opening = Opening::Swap2;
        args.games = 4;
        args.time_ms = 60;
        args.quiet = true;
        let report = run_match(&args).unwrap();
        for (i, g) in report.games.iter().enumerate() {
            assert!(!matches!(g.ending, Ending::Fault(..)), "{g}");
            let story = g.opening_story.as_deref().unwrap();
            let opener = if i % 2 == 0 { "A" } else { "B" };
            assert!(
                story.starts_with(&format!("{opener} placed three")),
                "{story}"
            );
            // Three stones, then white's move or two more (and then perhaps white's move).
            assert!((3..=6).contains(&g.opening_plies), "{g}");
            let pos = Position::from_moves(args.rules, &g.moves).unwrap();
            assert!(pos.is_over(), "{g}");
            // Whoever took black plays X, the side that moved first.
            let a_took = |colour: &str| story.contains(&format!("A took {colour}"));
            let b_took = |colour: &str| story.contains(&format!("B took {colour}"));
            if a_took("black") || b_took("white") {
                assert!(g.a_is_x, "{story}");
            }
            if a_took("white") || b_took("black") {
                assert!(!g.a_is_x, "{story}");
            }
            assert!(g.to_string().contains(story), "{g}");
        }
    }

    #[test]
    fn swap_openings_the_game_cannot_take_are_refused() {
        let mut args = MatchArgs::new("weights", "weights");
        args.opening = Opening::Swap;
        args.rules = mnk_core::Preset::TicTacToe.rules();
        assert!(
            matches!(run_match(&args), Err(MatchError::Settings(m)) if m.contains("--opening swap"))
        );
        let mut args = MatchArgs::new("weights", "weights");
        args.opening = Opening::Swap2;
        args.openings = Some(PathBuf::from("openings.txt"));
        assert!(
            matches!(run_match(&args), Err(MatchError::Settings(m)) if m.contains("--openings"))
        );
        let mut args = MatchArgs::new("engine:0", "weights");
        args.engines = vec!["true".into()];
        args.opening = Opening::Swap;
        assert!(matches!(run_match(&args), Err(MatchError::Settings(m)) if m.contains("swap2")));
    }

    #[test]
    fn bad_settings_are_refused_before_any_game() {
        let mut args = MatchArgs::new("weights", "weights");
        args.games = 0;
        assert!(matches!(run_match(&args), Err(MatchError::Settings(_))));
        let mut args = MatchArgs::new("weights", "weights");
        args.time_ms = u64::MAX;
        let e = run_match(&args).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "--time-ms must be from 1 to {MAX_TIME_MS}, not {}",
                u64::MAX
            )
        );
        let mut args = MatchArgs::new("weights", "weights");
        args.concurrency = 65;
        assert!(matches!(run_match(&args), Err(MatchError::Settings(_))));
        let mut args = MatchArgs::new("rules", "weights");
        args.quiet = true;
        assert!(matches!(run_match(&args), Err(MatchError::Player { .. })));
        let mut args = MatchArgs::new("engine:0", "weights");
        args.engines = vec!["/nonexistent/pbrain-nothing".into()];
        assert!(matches!(
            run_match(&args),
            Err(MatchError::EngineStart { .. })
        ));
        args.rules = "infx5".parse().unwrap();
        assert!(matches!(
            run_match(&args),
            Err(MatchError::RulesForEngines(_))
        ));
        let mut args = MatchArgs::new("level6", "level6");
        args.weights_b = Some(PathBuf::from("/nonexistent/weights.txt"));
        let e = run_match(&args).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("weight table /nonexistent/weights.txt: "),
            "{e}"
        );
        let mut args = MatchArgs::new("level6", "level6");
        args.nodes = Some(0);
        assert!(matches!(run_match(&args), Err(MatchError::Settings(m)) if m.contains("--nodes")));
    }
}
