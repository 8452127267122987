//! The computer's move, a hint, the move explained and the heat map (`move`, `hint`, `explain`,
//! `weights`), and the list of bots and levels (`bots`). Each request is checked into a job with
//! [`think`] or [`weights`]; the job runs the bot or the attack-weight scan within its budget.

use std::time::Duration;

use mnk_core::{Position, Rules};
use mnk_engine::level::{Level, LEVELS};
use mnk_engine::roster::{self, BotSpec, BOTS};
use mnk_engine::search::EngineConfig;
use mnk_engine::weights::attack_weights_within;
use mnk_engine::Choice;
use mnk_engine::Unplayable;
use serde::Deserialize;
use serde_json::{json, Value as Json};

use crate::error::ApiError;
use crate::explain;
use crate::game::{self, cell_json, cell_names, state_json, value_json, GameRequest};
use crate::{Checked, Context, Job, Settings};

/// A request for thinking: the game, who thinks, for how long, with which random seed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThinkRequest {
    /// The rules, as in [`GameRequest`].
    pub rules: Json,
    /// The moves so far, as in [`GameRequest`].
    #[serde(default)]
    pub moves: Vec<Json>,
    /// `{"level": n}`, `{"bot": id, "depth": n}` or a bot string such as `"alphabeta:4"`.
    #[serde(default)]
    pub opponent: Option<Json>,
    /// Thinking time in milliseconds (capped by the answering side).
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// Seed for the bot's random choices (the caller's fresh seed when absent).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// `bots?rules=R`: every bot and level; with `rules`, whether each plays them and, if not, why
/// (the same check as starting a game with it, so the page offers only what is accepted).
pub fn bots(rules: Option<&str>) -> Result<Json, ApiError> {
    let rules = rules
        .map(|text| game::parse_rules(&Json::String(text.to_string())))
        .transpose()?;
    let verdict = |spec: &BotSpec, entry: &mut Json| {
        if let Some(rules) = &rules {
            match roster::unplayable(spec, rules) {
                None => entry["plays"] = json!(true),
                Some(why) => {
                    entry["plays"] = json!(false);
                    entry["why"] = json!(why.to_string());
                    // The words behind `why`, as a refusal's (docs/api.md, "Refusals in words").
                    entry["reason"] = json!(why.reason());
                    entry["params"] = match why {
                        Unplayable::NotSolved(win) => json!({ "win": win.to_string() }),
                        Unplayable::TooManyCells(max) => json!({ "max": max }),
                        Unplayable::OnlyTicTacToe => json!({}),
                    };
                }
            }
        }
    };
    let bots: Vec<Json> = BOTS
        .iter()
        .map(|b| {
            let mut entry = json!({ "id": b.id, "title": b.title, "description": b.description });
            verdict(
                &BotSpec::Named {
                    id: b.id,
                    depth: None,
                },
                &mut entry,
            );
            entry
        })
        .collect();
    let levels: Vec<Json> = LEVELS
        .iter()
        .map(|l| {
            let mut entry =
                json!({ "level": l.level, "title": l.title, "description": l.description });
            if let Some(level) = Level::new(l.level) {
                verdict(&BotSpec::Level(level), &mut entry);
            }
            entry
        })
        .collect();
    Ok(json!({ "bots": bots, "levels": levels }))
}

/// `presets`: the rule presets of the page's menu.
#[must_use]
pub fn presets() -> Json {
    let presets: Vec<Json> = mnk_core::Preset::ALL
        .iter()
        .map(|p| json!({ "id": p.id(), "title": p.title(), "rules": p.rules() }))
        .collect();
    json!({ "presets": presets })
}

/// What the computer is asked for: its move (played, with the state after it) or a hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// `move`: the computer plays for the side to move.
    Move,
    /// `hint`: the move the computer suggests, not played (the top level unless named).
    Hint,
    /// `explain`: the move the computer would play, not played, with why it chose it.
    Explain,
}

/// A move or hint, checked: the position, the bot, its seed and its time.
#[derive(Debug)]
pub struct ThinkJob {
    ask: Ask,
    pos: Position,
    spec: BotSpec,
    seed: u64,
    engine: EngineConfig,
    /// How long the bot may think.
    pub budget: Duration,
}

/// Checks a request for the computer's move or a hint. `fresh_seed` is the caller's random
/// number, used when the request gives no seed.
pub fn think(
    settings: &Settings,
    ask: Ask,
    request: ThinkRequest,
    fresh_seed: u64,
) -> Result<Job, ApiError> {
    let pos = game::position(&request.rules, &request.moves)?;
    let spec = match (&request.opponent, ask) {
        (Some(opponent), _) => parse_opponent(opponent)?,
        (None, Ask::Hint) => BotSpec::Level(Level::top()),
        (None, Ask::Move | Ask::Explain) => {
            return Err(ApiError::BadJson(
                "say who plays: \"opponent\": {\"level\": 1..6} or {\"bot\": \"perfect\"}".into(),
            ))
        }
    };
    if game::finished(&pos) {
        return Err(ApiError::game_over());
    }
    if ask == Ask::Explain {
        // Refused before it takes an engine slot, should a bot not explain its moves.
        roster::check_explained(&spec, pos.rules())?;
    }
    let seed = request
        .seed
        .unwrap_or(fresh_seed ^ pos.hash().rotate_left(17));
    // A player whose own limits end its search (the perfect player's proof, levels 4 and 5's
    // caps) gets the cap as a guard: with a usual move's second, a busy device ran out before
    // the proof (an error instead of a move) or cut level 5 short (another move than its own).
    let budget = if spec.bounds_its_own_search() {
        settings.solve_time(request.time_ms)
    } else {
        settings.think_time(request.time_ms)
    };
    Ok(Job::Think(ThinkJob {
        ask,
        budget,
        engine: EngineConfig::with_threads(settings.search_threads),
        pos,
        spec,
        seed,
    }))
}

impl ThinkJob {
    /// Runs the bot; answers the move (and, for [`Ask::Move`], the state after it).
    pub fn run(self, context: &Context) -> Result<Json, ApiError> {
        let start = context.now_ms();
        let limits = context.limits(self.budget);
        // Built here, in the caller's slot: some bots allocate their tables.
        let mut bot = roster::create_with(&self.spec, self.pos.rules(), self.seed, self.engine)?;
        let (choice, explanation) = if self.ask == Ask::Explain {
            let explained = bot.explain(&self.pos, &limits)?;
            (explained.choice, Some(explained.explanation))
        } else {
            (bot.choose(&self.pos, &limits)?, None)
        };
        // mnk-core is the referee of the computer's moves too: an illegal one is our bug,
        // reported as such, never passed on to the client.
        self.pos.check_move(choice.cell).map_err(|e| {
            ApiError::Internal(format!("the {} bot chose an illegal move: {e}", self.spec))
        })?;
        let time_ms = context.now_ms().saturating_sub(start);
        let mut answer = choice_json(self.pos.rules(), &choice, time_ms);
        if let Some(explanation) = explanation {
            answer["explanation"] = explain::explanation_json(&self.pos, &explanation);
        }
        if self.ask == Ask::Move {
            let mut after = self.pos;
            after.play(choice.cell);
            answer["state"] = state_json(&after);
        }
        Ok(answer)
    }
}

/// A bot's choice as `move` and `hint` answer it.
fn choice_json(rules: &Rules, choice: &Choice, time_ms: u64) -> Json {
    json!({
        "move": cell_json(rules, choice.cell),
        "value": choice.value.map(|v| value_json(rules, v)),
        "pv": cell_names(rules, &choice.pv),
        "depth": choice.depth,
        "nodes": choice.nodes,
        "time_ms": time_ms,
    })
}

/// Reads an opponent: `{"level": n}`, `{"bot": id}` with an optional `"depth"`, or a string in
/// the engine's bot notation (`"level3"`, `"alphabeta:4"`).
pub fn parse_opponent(opponent: &Json) -> Result<BotSpec, ApiError> {
    let text = match opponent {
        Json::String(text) => text.clone(),
        Json::Object(map) => {
            for key in map.keys() {
                if !["level", "bot", "depth"].contains(&key.as_str()) {
                    return Err(ApiError::BadJson(format!(
                        "unknown opponent field \"{key}\": use \"level\", or \"bot\" with an optional \"depth\""
                    )));
                }
            }
            match (map.get("level"), map.get("bot"), map.get("depth")) {
                (Some(level), None, None) => match level.as_u64() {
                    Some(n) => format!("level{n}"),
                    None => {
                        return Err(ApiError::UnknownBot(format!(
                            "{level} is not a level: choose 1 to {}",
                            LEVELS.len()
                        )))
                    }
                },
                (None, Some(Json::String(bot)), None) => bot.clone(),
                (None, Some(Json::String(bot)), Some(depth)) => match depth.as_u64() {
                    Some(d) => format!("{bot}:{d}"),
                    None => {
                        return Err(ApiError::BadJson(format!(
                            "\"depth\" must be a whole number, not {depth}"
                        )))
                    }
                },
                _ => {
                    return Err(ApiError::BadJson(
                        "an opponent is {\"level\": 1..6} or {\"bot\": \"name\"} (with \"depth\" for alphabeta), not both"
                            .into(),
                    ))
                }
            }
        }
        other => {
            return Err(ApiError::BadJson(format!(
                "{other} is not an opponent: use {{\"level\": 1..6}} or {{\"bot\": \"name\"}}"
            )))
        }
    };
    text.parse::<BotSpec>().map_err(ApiError::from)
}

/// The heat map, checked: the position and the longest the scan may take.
#[derive(Debug)]
pub struct WeightsJob {
    pos: Position,
    /// The cap on the scan (the thinking cap: it is cancelled like a search).
    pub budget: Duration,
}

/// Checks a request for the attack-weight heat map of the side to move: `[]` when the game is
/// over (won, full, or no line left for either player), as for every finished game.
pub fn weights(settings: &Settings, request: &GameRequest) -> Result<Checked, ApiError> {
    let pos = request.position()?;
    if game::finished(&pos) {
        return Ok(Checked::Answer(weights_json(&pos, Vec::new())));
    }
    Ok(Checked::Job(Box::new(Job::Weights(WeightsJob {
        pos,
        budget: settings.max_think,
    }))))
}

impl WeightsJob {
    /// Weighs every cell for the side to move.
    pub fn run(self, context: &Context) -> Result<Json, ApiError> {
        let weights = attack_weights_within(&self.pos, &context.limits(self.budget))?;
        Ok(weights_json(&self.pos, weights))
    }
}

/// `weights`' answer: who the weights are for, and each cell's weight.
fn weights_json(pos: &Position, weights: Vec<(mnk_core::Cell, f64)>) -> Json {
    let rules = pos.rules();
    let weights: Vec<Json> = weights
        .into_iter()
        .map(|(cell, weight)| {
            let mut entry = cell_json(rules, cell);
            entry["weight"] = json!(weight);
            entry
        })
        .collect();
    json!({ "for": pos.to_move(), "weights": weights })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponents_in_every_form() {
        let spec = |v: Json| parse_opponent(&v).map(|s| s.to_string());
        assert_eq!(spec(json!({"level": 3})), Ok("level3".into()));
        assert_eq!(spec(json!({"bot": "perfect"})), Ok("perfect".into()));
        assert_eq!(
            spec(json!({"bot": "alphabeta", "depth": 4})),
            Ok("alphabeta:4".into())
        );
        assert_eq!(spec(json!("level:2")), Ok("level2".into()));
        let code = |v: Json| parse_opponent(&v).unwrap_err().code();
        assert_eq!(code(json!({"level": 9})), "unknown_bot");
        assert_eq!(code(json!({"level": -1})), "unknown_bot");
        assert_eq!(code(json!({"level": "x"})), "unknown_bot");
        assert_eq!(code(json!({"bot": "nobody"})), "unknown_bot");
        assert_eq!(code(json!({"bot": "perfect", "depth": 3})), "unsupported");
        assert_eq!(code(json!({"level": 1, "bot": "perfect"})), "bad_json");
        assert_eq!(code(json!({"colour": 1})), "bad_json");
        assert_eq!(code(json!(3)), "bad_json");
    }

    #[test]
    fn players_whose_own_limits_end_their_search_get_the_cap() {
        let settings = Settings::default();
        let budget = |opponent: Json, time_ms: Option<u64>| {
            let request = ThinkRequest {
                rules: json!({"width": 7, "height": 5, "k": 4}),
                moves: Vec::new(),
                opponent: Some(opponent),
                time_ms,
                seed: Some(1),
            };
            match think(&settings, Ask::Move, request, 0) {
                Ok(Job::Think(job)) => job.budget,
                _ => panic!("a move job"),
            }
        };
        assert_eq!(budget(json!({"bot": "perfect"}), None), settings.max_think);
        assert_eq!(budget(json!({"level": 5}), None), settings.max_think);
        assert_eq!(budget(json!({"level": 6}), None), settings.default_think);
        // A time asked for is kept, within the cap, by both.
        assert_eq!(
            budget(json!({"bot": "perfect"}), Some(300)),
            Duration::from_millis(300)
        );
        assert_eq!(
            budget(json!({"level": 6}), Some(60_000)),
            settings.max_think
        );
    }
}
