//! The roster: every computer player by name, from the classic bots of the games mnk grew from
//! to the exact solver and the engine, plus the level ladder that front-ends offer. It sits above
//! the players it builds (`bots`, `level`, `weights`, `search`) so none of them needs it.

use std::fmt;
use std::str::FromStr;

use mnk_core::Rules;

use crate::bot::{Bot, BotError, Unplayable};
use crate::bots::{LineCountBot, PerfectBot, RulesBot, DEFAULT_DEPTH};
use crate::level::Level;
use crate::search::EngineConfig;
use crate::weights::WeightsBot;

/// A bot's name and what it does, for menus and `--help`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotInfo {
    /// The identifier used on the command line and in the API.
    pub id: &'static str,
    /// A short name.
    pub title: &'static str,
    /// One sentence on how it plays.
    pub description: &'static str,
}

/// Every named bot.
pub const BOTS: [BotInfo; 5] = [
    BotInfo {
        id: "rules",
        title: "Rule player",
        description: "3x3 only: wins, blocks, answers known fork set-ups, else takes the centre, a corner, a side.",
    },
    BotInfo {
        id: "perfect",
        title: "Perfect",
        description: "The exact solver: never loses, wins as fast as it can. Small boards only (up to 36 cells).",
    },
    BotInfo {
        id: "alphabeta",
        title: "Line counter",
        description: "Alpha-beta over k-windows scored 10^(stones+1); depth 2 by default (alphabeta:N for N plies).",
    },
    BotInfo {
        id: "weights",
        title: "Attack weights",
        description: "Looks one move ahead and weighs every cell by the attacks it makes or breaks.",
    },
    BotInfo {
        id: "engine",
        title: "Engine",
        description: "Threat-space search for large boards: patterns, principal-variation search, VCF.",
    },
];

/// Which player to build: a named bot (with a depth for `alphabeta`) or a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotSpec {
    /// A named bot from [`BOTS`].
    Named {
        /// The bot's id.
        id: &'static str,
        /// Search depth, for bots that take one.
        depth: Option<u32>,
    },
    /// A level of the ladder.
    Level(Level),
}

impl FromStr for BotSpec {
    type Err = BotError;

    /// Reads `rules`, `perfect`, `alphabeta`, `alphabeta:4`, `weights`, `engine`, `level3`,
    /// `level:3` or just `3`.
    fn from_str(s: &str) -> Result<BotSpec, BotError> {
        let text = s.trim().to_ascii_lowercase();
        let unknown = || unknown_bot(s.trim());
        let level_text = text
            .strip_prefix("level")
            .map(|t| t.trim_start_matches(':'))
            .unwrap_or(&text);
        if let Ok(n) = level_text.parse::<u8>() {
            return Level::new(n).map(BotSpec::Level).ok_or_else(unknown);
        }
        let (name, depth) = match text.split_once(':') {
            Some((name, depth)) => (name, Some(depth.parse::<u32>().map_err(|_| unknown())?)),
            None => (text.as_str(), None),
        };
        let info = BOTS.iter().find(|b| b.id == name).ok_or_else(unknown)?;
        if depth.is_some_and(|d| info.id != "alphabeta" || !(1..=8).contains(&d)) {
            return Err(BotError::Unsupported(
                "only alphabeta takes a depth, from 1 to 8 (e.g. alphabeta:4)".into(),
            ));
        }
        Ok(BotSpec::Named { id: info.id, depth })
    }
}

impl BotSpec {
    /// Whether this player's own limits end its search: the perfect player stops at a proof,
    /// levels 4 and 5 at their depth and node caps. Whoever sets its time gives it the longest
    /// they allow, a guard rather than a plan, so that its move is the same on a slow device
    /// as on a fast one (and an explanation's replay finds the move played): with a usual
    /// move's second, a busy device ran out before the perfect player's proof, or cut level
    /// 5's search short of its caps.
    #[must_use]
    pub fn bounds_its_own_search(self) -> bool {
        match self {
            BotSpec::Named { id, .. } => id == "perfect",
            BotSpec::Level(level) => matches!(level.number(), 4 | 5),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Named { id, depth: Some(d) } => write!(f, "{id}:{d}"),
            BotSpec::Named { id, depth: None } => write!(f, "{id}"),
            BotSpec::Level(level) => write!(f, "level{}", level.number()),
        }
    }
}

/// Builds the bot `spec` names for games under `rules`, its random choices following `seed`,
/// with the engine's default table and one thread. Refuses bots that do not play these rules.
pub fn create(spec: &BotSpec, rules: &Rules, seed: u64) -> Result<Box<dyn Bot>, BotError> {
    create_with(spec, rules, seed, EngineConfig::default())
}

/// [`create`], with the search engine (the `engine` bot, and level 6 where it searches) built
/// as `engine` says: its table size and threads per search. Other bots do not use it.
pub fn create_with(
    spec: &BotSpec,
    rules: &Rules,
    seed: u64,
    engine: EngineConfig,
) -> Result<Box<dyn Bot>, BotError> {
    match *spec {
        BotSpec::Level(level) => {
            check_rules(spec, rules)?;
            Ok(level.bot_with(rules, seed, engine))
        }
        BotSpec::Named { id, depth } => create_named(id, depth, rules, seed, engine),
    }
}

/// Why the bot `spec` does not play games under `rules`, or `None` when it does.
#[must_use]
pub fn unplayable(spec: &BotSpec, rules: &Rules) -> Option<Unplayable> {
    match *spec {
        BotSpec::Named { id: "rules", .. } if rules.size() != Some((3, 3)) || rules.k() != 3 => {
            Some(Unplayable::OnlyTicTacToe)
        }
        BotSpec::Named { id: "perfect", .. } if !crate::variant::solved(rules) => {
            Some(Unplayable::NotSolved(rules.win()))
        }
        BotSpec::Named { id: "perfect", .. } if !crate::solver::perfectly_playable(rules) => {
            Some(Unplayable::TooManyCells(crate::solver::PERFECT_PLAY_CELLS))
        }
        _ => None,
    }
}

/// Whether the bot `spec` plays games under `rules`, without building it: the same answer
/// [`create`] gives (it asks this first), cheap enough to ask for every bot on every request.
pub fn check_rules(spec: &BotSpec, rules: &Rules) -> Result<(), BotError> {
    match unplayable(spec, rules) {
        Some(why) => Err(BotError::Unsupported(why.to_string())),
        None => Ok(()),
    }
}

/// Whether the bot `spec` explains its moves under `rules` ([`Bot::explain`]), without building
/// it: every bot of the roster explains where it plays, so this is [`check_rules`]. Front-ends
/// ask it before they take an engine slot for an explanation.
pub fn check_explained(spec: &BotSpec, rules: &Rules) -> Result<(), BotError> {
    check_rules(spec, rules)
}

fn create_named(
    id: &'static str,
    depth: Option<u32>,
    rules: &Rules,
    seed: u64,
    engine: EngineConfig,
) -> Result<Box<dyn Bot>, BotError> {
    check_rules(&BotSpec::Named { id, depth }, rules)?;
    Ok(match id {
        "rules" => Box::new(RulesBot::new(seed)),
        "perfect" => Box::new(PerfectBot::new(seed)),
        "alphabeta" => Box::new(LineCountBot::new(depth.unwrap_or(DEFAULT_DEPTH), seed)),
        "weights" => Box::new(WeightsBot::new(seed)),
        "engine" => crate::level::engine_bot(rules, seed, engine),
        other => return Err(unknown_bot(other)),
    })
}

/// The error for a name no bot answers to, naming those that do.
fn unknown_bot(name: &str) -> BotError {
    let known: Vec<&str> = BOTS.iter().map(|b| b.id).collect();
    BotError::UnknownBot(format!(
        "no bot is called '{name}': choose one of {} or a level 1..6",
        known.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_perfect_player_and_the_capped_levels_bound_their_own_search() {
        let bounded = |text: &str| text.parse::<BotSpec>().unwrap().bounds_its_own_search();
        for own in ["perfect", "level4", "level5"] {
            assert!(bounded(own), "{own}");
        }
        for other in [
            "rules",
            "alphabeta:4",
            "weights",
            "engine",
            "level1",
            "level3",
            "level6",
        ] {
            assert!(!bounded(other), "{other}");
        }
    }

    #[test]
    fn specs_parse_and_print() {
        for (text, shown) in [
            ("perfect", "perfect"),
            ("alphabeta:4", "alphabeta:4"),
            ("Level3", "level3"),
            ("level:6", "level6"),
            ("2", "level2"),
        ] {
            assert_eq!(text.parse::<BotSpec>().unwrap().to_string(), shown);
        }
        for bad in [
            "",
            "level0",
            "level7",
            "nobody",
            "alphabeta:x",
            "weights:3",
            "alphabeta:99",
        ] {
            assert!(bad.parse::<BotSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn bots_refuse_rules_they_do_not_play() {
        let big = mnk_core::Preset::Gomoku15.rules();
        let spec: BotSpec = "rules".parse().unwrap();
        assert!(matches!(
            create(&spec, &big, 1),
            Err(BotError::Unsupported(_))
        ));
        let spec: BotSpec = "perfect".parse().unwrap();
        assert!(matches!(
            create(&spec, &big, 1),
            Err(BotError::Unsupported(_))
        ));
    }

    #[test]
    fn renju_and_caro_are_played_by_all_but_the_rule_player_and_the_solver() {
        // Black (X) to move: h8 would be a double-three, forbidden, and the most tempting cell
        // for a bot that did not know.
        let diagram = "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . X X . . . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . O . . . . . . . . . . .
            . . O . . . . . . . . . . . .
            . O . . . . . . . . . . . . .";
        for rules in [
            mnk_core::Preset::Renju.rules(),
            mnk_core::Preset::Caro.rules(),
        ] {
            let pos = mnk_core::Position::from_diagram(rules, diagram).unwrap();
            for spec in BOTS
                .iter()
                .map(|b| b.id.parse::<BotSpec>().unwrap())
                .chain((1..=6).map(|n| BotSpec::Level(Level::new(n).unwrap())))
            {
                let id = spec.to_string();
                if id == "rules" || id == "perfect" {
                    let refused = check_rules(&spec, &rules).unwrap_err();
                    assert!(create(&spec, &rules, 1).is_err(), "{spec}: {refused}");
                    continue;
                }
                check_rules(&spec, &rules).unwrap();
                let mut bot = create(&spec, &rules, 1).unwrap();
                let choice = bot.choose(&pos, &crate::Limits::nodes(2_000)).unwrap();
                let mut after = pos.clone();
                after
                    .try_play(choice.cell)
                    .unwrap_or_else(|e| panic!("{rules} {spec}: {e}"));
            }
        }
        let refused =
            check_rules(&"perfect".parse().unwrap(), &"6x6x5,renju".parse().unwrap()).unwrap_err();
        assert!(
            refused.to_string().contains("does not play renju"),
            "{refused}"
        );
        // Small boards of five in a row: the solver and counting refuse them with a reason.
        let small: Rules = "6x6x5,renju".parse().unwrap();
        assert!(!crate::solver::solvable(&small));
        let refused = crate::solver::Solver::for_rules(&small).err().unwrap();
        assert!(
            refused.to_string().contains("does not play renju"),
            "{refused}"
        );
        let small: Rules = "5x5x5,caro".parse().unwrap();
        let refused = crate::count::count_tree(&small).unwrap_err();
        assert!(
            refused.to_string().contains("does not know caro"),
            "{refused}"
        );
    }
}
