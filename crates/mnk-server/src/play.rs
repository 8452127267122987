//! The stateless endpoints: the state of a game, the computer's move, a hint, the move explained,
//! its part of a swap opening, the heat map, exact values, the game-tree explorer's counts, import and export, and
//! the lists of presets, bots and levels. mnk-api checks each request and says what is left to
//! think ([`mnk_api::Job`]); the thinking runs in the [`crate::pool::EnginePool`] with a deadline
//! and the pool's stop flag. The page's worker answers the same requests from the same code.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Query, State};
use axum::routing::{get, post};
use axum::{Json as Reply, Router};
use mnk_api::exact::SolveRequest;
use mnk_api::game::GameRequest;
use mnk_api::import::{ExportRequest, ImportRequest};
use mnk_api::opening::{OpeningThinkRequest, StateRequest};
use mnk_api::play::{Ask, ThinkRequest};
use mnk_api::review::ReviewRequest;
use mnk_api::{Checked, Context, Job, Settings};
use mnk_engine::SystemClock;
use serde::Deserialize;
use serde_json::Value as Json;

use crate::body::ApiJson;
use crate::books::Books;
use crate::clients::Client;
use crate::error::ApiError;
use crate::pool::EnginePool;

/// What every handler shares: the engine pool and what mnk-api's checks allow.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Where engine work runs.
    pub pool: Arc<EnginePool>,
    /// Think times, threads per search and the solved books.
    pub settings: Arc<Settings>,
}

impl AppState {
    /// The state of an app on `pool` with the given limits and books.
    #[must_use]
    pub fn new(
        pool: Arc<EnginePool>,
        max_think: Duration,
        default_think: Duration,
        search_threads: usize,
        books: Books,
    ) -> AppState {
        AppState {
            pool,
            settings: Arc::new(Settings {
                max_think,
                default_think,
                search_threads,
                books,
                review_memo: Arc::default(),
            }),
        }
    }
}

/// The routes of this module.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/presets", get(presets))
        .route("/api/bots", get(list_bots))
        .route("/api/state", post(state))
        .route("/api/move", post(computer_move))
        .route("/api/hint", post(hint))
        .route("/api/explain", post(explain))
        .route("/api/opening", post(opening))
        .route("/api/weights", post(weights))
        .route("/api/solve", post(solve))
        .route("/api/tree", post(tree))
        .route("/api/review", post(review))
        .route("/api/import", post(import))
        .route("/api/export", post(export))
}

/// Runs `job` in an engine slot, within its budget and stopped when the client leaves.
pub(crate) async fn in_slot(app: &AppState, client: Client, job: Job) -> Result<Json, ApiError> {
    app.pool
        .run(client, move |stop: Arc<AtomicBool>| {
            let context = Context {
                clock: Arc::new(SystemClock::new()),
                stop: Some(stop),
            };
            Ok(job.run(&context)?)
        })
        .await
}

/// Answers a checked request: at once, or after thinking in a slot.
async fn answer(app: &AppState, client: Client, checked: Checked) -> Result<Reply<Json>, ApiError> {
    match checked {
        Checked::Answer(answer) => Ok(Reply(answer)),
        Checked::Job(job) => Ok(Reply(in_slot(app, client, *job).await?)),
    }
}

/// A seed for a request that gave none: different from game to game and move to move.
pub(crate) fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// `GET /api/bots?rules=R`: the query is optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotsQuery {
    /// Rules in text form (`15x15x5`, a preset id): each bot then says whether it plays them.
    pub rules: Option<String>,
}

/// `GET /api/presets`.
async fn presets() -> Reply<Json> {
    Reply(mnk_api::play::presets())
}

/// `GET /api/bots`: every bot and level, and whether each plays the rules.
async fn list_bots(Query(query): Query<BotsQuery>) -> Result<Reply<Json>, ApiError> {
    Ok(Reply(mnk_api::play::bots(query.rules.as_deref())?))
}

/// `POST /api/state`: the state of the game, with the step of its opening when it has one.
async fn state(ApiJson(request): ApiJson<StateRequest>) -> Result<Reply<Json>, ApiError> {
    Ok(Reply(mnk_api::opening::state(&request)?))
}

/// `POST /api/move`: the computer plays for the side to move.
async fn computer_move(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<ThinkRequest>,
) -> Result<Reply<Json>, ApiError> {
    let job = mnk_api::play::think(&app.settings, Ask::Move, request, fresh_seed())?;
    Ok(Reply(in_slot(&app, client, job).await?))
}

/// `POST /api/hint`: the move the computer suggests, not played.
async fn hint(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<ThinkRequest>,
) -> Result<Reply<Json>, ApiError> {
    let job = mnk_api::play::think(&app.settings, Ask::Hint, request, fresh_seed())?;
    Ok(Reply(in_slot(&app, client, job).await?))
}

/// `POST /api/explain`: the move the computer would play, not played, with why it chose it.
async fn explain(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<ThinkRequest>,
) -> Result<Reply<Json>, ApiError> {
    let job = mnk_api::play::think(&app.settings, Ask::Explain, request, fresh_seed())?;
    Ok(Reply(in_slot(&app, client, job).await?))
}

/// `POST /api/opening`: the computer places the opener's stones or makes the decision due.
async fn opening(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<OpeningThinkRequest>,
) -> Result<Reply<Json>, ApiError> {
    let job = mnk_api::opening::computer_opening(&app.settings, request, fresh_seed())?;
    Ok(Reply(in_slot(&app, client, job).await?))
}

/// `POST /api/weights`: the attack-weight heat map for the side to move.
async fn weights(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<GameRequest>,
) -> Result<Reply<Json>, ApiError> {
    let checked = mnk_api::play::weights(&app.settings, &request)?;
    answer(&app, client, checked).await
}

/// `POST /api/solve`: the exact value of the position and of every legal move.
async fn solve(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<SolveRequest>,
) -> Result<Reply<Json>, ApiError> {
    let checked = mnk_api::exact::solve(&app.settings, &request)?;
    answer(&app, client, checked).await
}

/// `POST /api/tree`: the game-tree explorer's view of a position.
async fn tree(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<SolveRequest>,
) -> Result<Reply<Json>, ApiError> {
    let checked = mnk_api::exact::tree(&app.settings, &request)?;
    answer(&app, client, checked).await
}

/// `POST /api/review`: a stretch of a game valued and its moves judged.
async fn review(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<ReviewRequest>,
) -> Result<Reply<Json>, ApiError> {
    let job = mnk_api::review::review(&app.settings, &request)?;
    Ok(Reply(in_slot(&app, client, job).await?))
}

/// `POST /api/import`: answered at once, outside the engine pool.
async fn import(ApiJson(request): ApiJson<ImportRequest>) -> Result<Reply<Json>, ApiError> {
    Ok(Reply(mnk_api::import::import(&request)?))
}

/// `POST /api/export`: answered at once, outside the engine pool.
async fn export(ApiJson(request): ApiJson<ExportRequest>) -> Result<Reply<Json>, ApiError> {
    Ok(Reply(mnk_api::import::export(&request)?))
}
