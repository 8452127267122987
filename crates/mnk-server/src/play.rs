//! The endpoints that think: the computer's move, a hint, the heat map, exact values, the
//! game-tree explorer's counts, and the list of bots and levels. Each builds a position with
//! [`crate::game`], then hands the engine work to the [`crate::pool::EnginePool`] with a deadline
//! and the pool's stop flag.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Query, State};
use axum::routing::{get, post};
use axum::{Json as Reply, Router};
use mnk_core::{Position, Rules};
use mnk_engine::count::{count_below, CountError, CountsBelow};
use mnk_engine::level::{Level, LEVELS};
use mnk_engine::roster::{self, BotSpec, BOTS};
use mnk_engine::search::EngineConfig;
use mnk_engine::solver::book_index::BookAnswer;
use mnk_engine::solver::{self, Analysis, SolveError};
use mnk_engine::weights::attack_weights_within;
use mnk_engine::{BotError, Choice, Deadline, Limits, Value};
use serde::Deserialize;
use serde_json::{json, Value as Json};

use crate::body::ApiJson;
use crate::books::Books;
use crate::clients::Client;
use crate::error::ApiError;
use crate::game::{self, cell_json, cell_names, game_outcome_json, state_json, GameRequest};
use crate::pool::EnginePool;

/// What every handler shares: the engine pool and the think-time settings.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Where engine work runs.
    pub pool: Arc<EnginePool>,
    /// The cap on `time_ms`.
    pub max_think: Duration,
    /// The think time when a request gives none.
    pub default_think: Duration,
    /// Threads per search of the engine ([`crate::ServerConfig::search_threads`]).
    pub search_threads: usize,
    /// The solved books `/api/solve` and `/api/tree` answer from before asking the solver.
    pub books: Books,
}

/// The routes of this module.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/bots", get(list_bots))
        .route("/api/move", post(computer_move))
        .route("/api/hint", post(hint))
        .route("/api/weights", post(weights))
        .route("/api/solve", post(solve))
        .route("/api/tree", post(tree))
}

/// Runs `job` in an engine slot, within `budget` and stopped when the client leaves; answers
/// its result and the milliseconds it took.
pub(crate) async fn in_slot<R, F>(
    app: &AppState,
    client: Client,
    budget: Duration,
    job: F,
) -> Result<(R, u64), ApiError>
where
    F: FnOnce(&Limits) -> Result<R, ApiError> + Send + 'static,
    R: Send + 'static,
{
    app.pool
        .run(client, move |stop: Arc<AtomicBool>| {
            let start = Instant::now();
            let limits = Limits {
                deadline: Some(Deadline::from_now(budget)),
                stop: Some(stop),
                ..Limits::default()
            };
            let result = job(&limits)?;
            Ok((result, start.elapsed().as_millis() as u64))
        })
        .await
}

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
    /// Thinking time in milliseconds (capped by the server).
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// Seed for the bot's random choices (random when absent).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// `GET /api/bots?rules=R`: the query is optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotsQuery {
    /// Rules in text form (`15x15x5`, a preset id): each bot then says whether it plays them.
    pub rules: Option<String>,
}

/// `GET /api/bots`: every bot and level; with `rules`, whether each plays them and, if not, why
/// (the same check as starting a game with it, so the page offers only what the server accepts).
async fn list_bots(Query(query): Query<BotsQuery>) -> Result<Reply<Json>, ApiError> {
    let rules = query
        .rules
        .map(|text| game::parse_rules(&Json::String(text)))
        .transpose()?;
    let verdict = |spec: &BotSpec, entry: &mut Json| {
        if let Some(rules) = &rules {
            match roster::check_rules(spec, rules) {
                Ok(()) => entry["plays"] = json!(true),
                Err(why) => {
                    entry["plays"] = json!(false);
                    entry["why"] = json!(why.to_string());
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
    Ok(Reply(json!({ "bots": bots, "levels": levels })))
}

/// `POST /api/move`: the computer plays for the side to move.
async fn computer_move(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<ThinkRequest>,
) -> Result<Reply<Json>, ApiError> {
    let (mut pos, thought) = think(&app, client, request, None).await?;
    pos.play(thought.choice.cell);
    let mut answer = thought.to_json(pos.rules());
    answer["state"] = state_json(&pos);
    Ok(Reply(answer))
}

/// `POST /api/hint`: the move the computer suggests, not played.
async fn hint(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<ThinkRequest>,
) -> Result<Reply<Json>, ApiError> {
    let top = Some(BotSpec::Level(Level::top()));
    let (pos, thought) = think(&app, client, request, top).await?;
    Ok(Reply(thought.to_json(pos.rules())))
}

/// What a bot answered and how long it took.
struct Thought {
    choice: Choice,
    time_ms: u64,
}

impl Thought {
    fn to_json(&self, rules: &Rules) -> Json {
        let c = &self.choice;
        json!({
            "move": cell_json(rules, c.cell),
            "value": c.value.map(value_json),
            "pv": cell_names(rules, &c.pv),
            "depth": c.depth,
            "nodes": c.nodes,
            "time_ms": self.time_ms,
        })
    }
}

/// Validates a thinking request and runs the bot in the pool. `default` is the bot when the
/// request names none (`None`: the request must name one).
async fn think(
    app: &AppState,
    client: Client,
    request: ThinkRequest,
    default: Option<BotSpec>,
) -> Result<(Position, Thought), ApiError> {
    let pos = game::position(&request.rules, &request.moves)?;
    let spec = match (&request.opponent, default) {
        (Some(opponent), _) => parse_opponent(opponent)?,
        (None, Some(spec)) => spec,
        (None, None) => {
            return Err(ApiError::BadJson(
                "say who plays: \"opponent\": {\"level\": 1..6} or {\"bot\": \"perfect\"}".into(),
            ))
        }
    };
    if game::finished(&pos) {
        return Err(BotError::GameOver.into());
    }
    let budget = think_time(app, request.time_ms);
    let seed = request.seed.unwrap_or_else(|| random_seed(&pos));
    let job_pos = pos.clone();
    let engine = EngineConfig::with_threads(app.search_threads);
    let (choice, time_ms) = in_slot(app, client, budget, move |limits| {
        // Built in the slot: some bots allocate their tables here.
        let mut bot = roster::create_with(&spec, job_pos.rules(), seed, engine)?;
        let choice = bot.choose(&job_pos, limits)?;
        // mnk-core is the referee of the computer's moves too: an illegal one is our bug,
        // reported as such, never passed on to the client.
        job_pos.check_move(choice.cell).map_err(|e| {
            ApiError::Internal(format!("the {spec} bot chose an illegal move: {e}"))
        })?;
        Ok(choice)
    })
    .await?;
    let thought = Thought { choice, time_ms };
    tracing::debug!(bot = %spec, rules = %pos.rules(), ply = pos.ply(), time_ms = thought.time_ms, "moved");
    Ok((pos, thought))
}

/// Reads an opponent: `{"level": n}`, `{"bot": id}` with an optional `"depth"`, or a string in
/// the engine's bot notation (`"level3"`, `"alphabeta:4"`).
pub(crate) fn parse_opponent(opponent: &Json) -> Result<BotSpec, ApiError> {
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

/// The thinking time a request gets: its `time_ms` capped by the server, or the default.
pub(crate) fn think_time(app: &AppState, time_ms: Option<u64>) -> Duration {
    time_ms
        .map_or(app.default_think, Duration::from_millis)
        .clamp(Duration::from_millis(1), app.max_think)
}

/// A seed for a request that gave none: different from game to game and move to move.
pub(crate) fn random_seed(pos: &Position) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ pos.hash().rotate_left(17)
}

/// A value as `{"kind", "plies" | "score", "text"}`.
#[must_use]
pub fn value_json(value: Value) -> Json {
    let text = value.to_string();
    match value {
        Value::Win(plies) => json!({ "kind": "win", "plies": plies, "text": text }),
        Value::Loss(plies) => json!({ "kind": "loss", "plies": plies, "text": text }),
        Value::Draw => json!({ "kind": "draw", "text": text }),
        Value::Eval(score) => json!({ "kind": "eval", "score": score, "text": text }),
    }
}

/// `POST /api/weights`: the attack-weight heat map for the side to move.
async fn weights(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<GameRequest>,
) -> Result<Reply<Json>, ApiError> {
    let pos = request.position()?;
    let side = pos.to_move();
    let rules = *pos.rules();
    // Cancelled like a search: when the client goes away, or at the thinking cap.
    let (weights, _) = in_slot(&app, client, app.max_think, move |limits| {
        Ok(attack_weights_within(&pos, limits)?)
    })
    .await?;
    let weights: Vec<Json> = weights
        .into_iter()
        .map(|(cell, weight)| {
            let mut entry = cell_json(&rules, cell);
            entry["weight"] = json!(weight);
            entry
        })
        .collect();
    Ok(Reply(json!({ "for": side, "weights": weights })))
}

/// A request for exact values: the game and an optional time limit.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The rules, as in [`GameRequest`].
    pub rules: Json,
    /// The moves so far, as in [`GameRequest`].
    #[serde(default)]
    pub moves: Vec<Json>,
    /// Solving time in milliseconds (capped by the server; the server's cap when absent).
    #[serde(default)]
    pub time_ms: Option<u64>,
}

/// The solving time a request gets: its `time_ms` capped by the server, or the server's cap.
fn solve_time(app: &AppState, time_ms: Option<u64>) -> Duration {
    time_ms
        .map_or(app.max_think, Duration::from_millis)
        .clamp(Duration::from_millis(1), app.max_think)
}

/// The exact value of every move in `pos`, within `budget` (run in the engine pool).
fn analyse_within(pos: &Position, budget: Duration, limits: &Limits) -> Result<Analysis, ApiError> {
    solver::analyse(pos, limits).map_err(|e| match e {
        SolveError::Aborted { .. } => ApiError::OutOfTime(format!(
            "this position could not be solved within {} ms: {e}",
            budget.as_millis()
        )),
        other => ApiError::from(other),
    })
}

/// The position a request for exact values names, on a board the solver takes (`too_large`
/// otherwise).
fn solvable_position(request: &SolveRequest) -> Result<Position, ApiError> {
    let pos = game::position(&request.rules, &request.moves)?;
    if !solver::solvable(pos.rules()) {
        return Err(SolveError::TooLarge(pos.rules().to_string()).into());
    }
    Ok(pos)
}

/// What the served book knows about `pos`: nothing when no book covers its rules.
fn book_answer(app: &AppState, pos: &Position) -> Option<BookAnswer> {
    app.books
        .for_rules(pos.rules())
        .map(|book| book.answer(pos))
}

/// What the book knows as an analysis: the position's value and best move, and the moves whose
/// values it holds (every legal move only when `answer.complete`).
fn book_part(answer: &BookAnswer) -> Option<Analysis> {
    let position = answer.position?;
    Some(Analysis {
        value: position.value,
        best: position.best,
        moves: answer.moves.clone(),
        nodes: 0,
        proof: solver::ProofStats::default(),
    })
}

/// The book's values when it knows every move's: the solver is not needed.
fn analysis_from_book(answer: &BookAnswer) -> Option<Analysis> {
    book_part(answer).filter(|_| answer.complete)
}

/// Every move with its value, in the form of `/api/solve`'s `moves`.
fn moves_json(rules: &Rules, moves: &[(mnk_core::Cell, Value)]) -> Vec<Json> {
    moves
        .iter()
        .map(|&(cell, value)| {
            let mut entry = cell_json(rules, cell);
            entry["value"] = value_json(value);
            entry
        })
        .collect()
}

/// `POST /api/solve`: the exact value of the position and of every legal move, from the served
/// book when it holds every move's, else from the solver (and from the book's part when the
/// solver runs out of time).
async fn solve(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<SolveRequest>,
) -> Result<Reply<Json>, ApiError> {
    let pos = solvable_position(&request)?;
    let rules = *pos.rules();
    if pos.is_over() {
        return Err(SolveError::GameOver.into());
    }
    let book = book_answer(&app, &pos);
    if let Some(analysis) = book.as_ref().and_then(analysis_from_book) {
        return Ok(Reply(solve_json(&rules, &analysis, 0, "book")));
    }
    let budget = solve_time(&app, request.time_ms);
    let start = Instant::now();
    let solved = in_slot(&app, client, budget, move |limits| {
        analyse_within(&pos, budget, limits)
    })
    .await;
    match solved {
        Ok((analysis, time_ms)) => Ok(Reply(solve_json(&rules, &analysis, time_ms, "solver"))),
        // Better the book's part, marked as such, than nothing.
        Err(ApiError::OutOfTime(why)) => match book.as_ref().and_then(book_part) {
            Some(part) => {
                let time_ms = start.elapsed().as_millis() as u64;
                let mut answer = solve_json(&rules, &part, time_ms, "book");
                answer["partial"] = json!(true);
                Ok(Reply(answer))
            }
            None => Err(ApiError::OutOfTime(why)),
        },
        Err(e) => Err(e),
    }
}

/// `/api/solve`'s answer for an analysis that took `time_ms`, from `source`.
fn solve_json(rules: &Rules, analysis: &Analysis, time_ms: u64, source: &str) -> Json {
    json!({
        "value": value_json(analysis.value),
        "best": analysis.best.map(|c| rules.cell_name(c)),
        "nodes": analysis.nodes,
        "time_ms": time_ms,
        "moves": moves_json(rules, &analysis.moves),
        "source": source,
    })
}

/// `POST /api/tree`: the game-tree explorer's view of a position: every move with its exact
/// value, and the games and distinct positions below it where they can be counted in time.
async fn tree(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<SolveRequest>,
) -> Result<Reply<Json>, ApiError> {
    let pos = solvable_position(&request)?;
    let rules = *pos.rules();
    // A game drawn for want of lines (no_line_left) still has its moves: the counts play on to a
    // win or a full board, as the published figures and `mnk count` do.
    let mut answer = json!({
        "to_move": pos.to_move(),
        "outcome": game_outcome_json(&pos),
    });
    if pos.is_over() {
        // A leaf: one game (the one that ended here), one position, nothing to play.
        answer["value"] = Json::Null;
        answer["games"] = json!(1);
        answer["positions"] = json!(1);
        answer["nodes"] = json!(0);
        answer["time_ms"] = json!(0);
        answer["children"] = json!([]);
        return Ok(Reply(answer));
    }
    let budget = solve_time(&app, request.time_ms);
    let from_book = book_answer(&app, &pos)
        .as_ref()
        .and_then(analysis_from_book);
    let source = if from_book.is_some() {
        "book"
    } else {
        "solver"
    };
    let ((analysis, counts), time_ms) = in_slot(&app, client, budget, move |limits| {
        // The values first: without them there is no answer; the counts get what time is left.
        let analysis = match from_book {
            Some(analysis) => analysis,
            None => analyse_within(&pos, budget, limits)?,
        };
        let counts = count_below(&pos, limits);
        Ok((analysis, counts))
    })
    .await?;
    let below = |cell| {
        counts
            .as_ref()
            .ok()
            .and_then(|c: &CountsBelow| c.moves.iter().find(|m| m.0 == cell))
            .map(|m| m.1)
    };
    let children: Vec<Json> = moves_json(&rules, &analysis.moves)
        .into_iter()
        .zip(&analysis.moves)
        .map(|(mut entry, &(cell, _))| {
            if let Some(below) = below(cell) {
                entry["games"] = json!(below.games);
                entry["positions"] = json!(below.positions);
            }
            entry
        })
        .collect();
    answer["value"] = value_json(analysis.value);
    match &counts {
        Ok(counts) => {
            answer["games"] = json!(counts.position.games);
            answer["positions"] = json!(counts.position.positions);
        }
        Err(e) => {
            let (code, message) = match e {
                CountError::TooLarge(why) => ("too_large", format!("not counted: {why}")),
                CountError::Aborted => (
                    "out_of_time",
                    format!(
                        "not counted: the values took the time, or the count did not finish within {} ms",
                        budget.as_millis()
                    ),
                ),
            };
            answer["uncounted"] = json!({ "code": code, "message": message });
        }
    }
    answer["nodes"] = json!(analysis.nodes);
    answer["time_ms"] = json!(time_ms);
    answer["source"] = json!(source);
    answer["children"] = json!(children);
    Ok(Reply(answer))
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
    fn values_carry_kind_and_text() {
        assert_eq!(
            value_json(Value::Win(3)),
            json!({"kind": "win", "plies": 3, "text": "win in 3"})
        );
        assert_eq!(
            value_json(Value::Draw),
            json!({"kind": "draw", "text": "draw"})
        );
        assert_eq!(
            value_json(Value::Eval(120)),
            json!({"kind": "eval", "score": 120, "text": "+120"})
        );
        assert_eq!(value_json(Value::Loss(4))["kind"], "loss");
    }
}
