//! The room endpoints (`docs/api.md`, "Rooms"): create, join, read (with the long-poll
//! fallback), and the actions a seat takes with its token.

use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Redirect;
use axum::routing::{get, post};
use axum::{Json as Reply, Router};
use mnk_core::{Decision, Opening};
use serde::Deserialize;
use serde_json::Value as Json;

use super::limits::Ask;
use super::referee::Action;
use super::store::NewRoom;
use super::view::{game_record, ClockView, GameRecord, RoomView, SeatedReply};
use super::{ids, Rooms};
use crate::body::ApiJson;
use crate::clients::Client;
use crate::error::ApiError;
use mnk_api::game::parse_rules;
use mnk_api::play::parse_opponent;

/// The longest a long poll waits for a change.
pub const MAX_WAIT: Duration = Duration::from_secs(30);
/// The longest clock a room may have: 3 hours a player, 10 minutes an increment.
const MAX_CLOCK_MS: u64 = 3 * 60 * 60 * 1000;
const MAX_INCREMENT_MS: u64 = 10 * 60 * 1000;
/// The longest token read: anything longer holds no seat.
const MAX_TOKEN_LEN: usize = 256;

/// The routes of the rooms.
pub fn routes<S: Clone + Send + Sync + 'static>(rooms: Arc<Rooms>) -> Router<S> {
    Router::new()
        .route("/api/rooms", post(create))
        .route("/api/rooms/{id}", get(read))
        .route("/api/rooms/{id}/join", post(join))
        .route("/api/rooms/{id}/move", post(play))
        .route("/api/rooms/{id}/decide", post(decide))
        .route("/api/rooms/{id}/resign", post(resign))
        .route("/api/rooms/{id}/draw", post(draw))
        .route("/api/rooms/{id}/rematch", post(rematch))
        .route("/api/rooms/{id}/bot", post(invite))
        .route("/api/rooms/{id}/claim", post(claim))
        .route("/api/rooms/{id}/socket", get(super::socket::upgrade))
        .route("/api/rooms/{id}/games/{number}", get(record))
        .route("/g/{game}", get(permanent_page))
        .with_state(rooms)
}

/// `GET /api/ready`, the readiness probe: 200 while the rooms' database answers (always, on a
/// server without rooms), `unavailable` (503) while it does not. Liveness, `GET /api/health`,
/// answers whatever the database does: a load balancer takes a server out of rotation on this
/// one, and restarts it only on that one.
pub fn readiness<S: Clone + Send + Sync + 'static>(
    rooms: Option<Arc<Rooms>>,
) -> axum::routing::MethodRouter<S> {
    get(move || {
        let rooms = rooms.clone();
        async move {
            let database = match rooms {
                Some(rooms) => {
                    rooms.ready().await?;
                    "ok"
                }
                None => "none",
            };
            Ok::<_, ApiError>((
                [(header::CACHE_CONTROL, "no-store")],
                Reply(serde_json::json!({ "status": "ready", "database": database })),
            ))
        }
    })
}

/// `POST /api/rooms`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// The rules, as every endpoint takes them.
    pub rules: Json,
    /// The creator's colour: `"X"`, `"O"` or `"random"` (the default).
    #[serde(default)]
    pub colour: Option<String>,
    /// A Fischer clock, or none.
    #[serde(default)]
    pub clock: Option<ClockView>,
    /// A bot for the other seat, as `/api/move` names opponents.
    #[serde(default)]
    pub bot: Option<Json>,
    /// How the room's games open: `free` (the default), `swap` or `swap2`. With a swap opening
    /// the seat given the first player's colour opens.
    #[serde(default)]
    pub opening: Opening,
}

/// A body that carries only a seat's token (or none, to join as a newcomer).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// The seat's token.
    #[serde(default)]
    pub token: Option<String>,
}

/// `POST /api/rooms/ID/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The seat's token.
    pub token: String,
    /// The ply the client expects to play (its number of moves seen).
    pub ply: usize,
    /// The cell, `h8` or `7,7`.
    pub cell: String,
}

/// `POST /api/rooms/ID/decide`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecideRequest {
    /// The seat's token.
    pub token: String,
    /// The ply the client expects the decision at (its number of stones seen).
    pub ply: usize,
    /// `black`, `white` or `place-two`.
    pub decision: Decision,
}

/// `POST /api/rooms/ID/bot`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InviteRequest {
    /// A seated player's token.
    pub token: String,
    /// The bot, as `/api/move` names opponents.
    pub bot: Json,
}

/// `POST /api/rooms/ID/claim`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// The token of the seat left.
    pub token: String,
    /// A bot for the opponent's seat, as `/api/move` names opponents; none to claim the win.
    #[serde(default)]
    pub bot: Option<Json>,
}

/// `GET /api/rooms/ID?after=V&wait_ms=W`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadQuery {
    /// Answer once the room's version is past this one.
    pub after: Option<i64>,
    /// How long to wait for that, in milliseconds (default and cap 30,000).
    pub wait_ms: Option<u64>,
}

async fn create(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    ApiJson(request): ApiJson<CreateRequest>,
) -> Result<(StatusCode, Reply<SeatedReply>), ApiError> {
    let rules = parse_rules(&request.rules)?;
    let clock = request.clock.map(check_clock).transpose()?;
    let x_seat = creator_plays_x(request.colour.as_deref())?;
    let bot = request.bot.as_ref().map(parse_opponent).transpose()?;
    if let Some(bot) = &bot {
        mnk_engine::roster::check_rules(bot, &rules)?;
    }
    check_opening(request.opening, &rules)?;
    let token = ids::new_token();
    let new = NewRoom {
        id: ids::new_room_id(),
        rules: rules.to_string(),
        clock,
        x_seat: if x_seat { 0 } else { 1 },
        creator: ids::token_hash(&token),
        bot: bot.map(|b| b.to_string()),
        opening: request.opening.name().to_string(),
    };
    let snap = rooms.create(client, new).await?;
    let reply = rooms.seated(&snap, Some(0), Some(token))?;
    Ok((StatusCode::CREATED, Reply(reply)))
}

/// An opening that suits the rules (every swap opening goes with clocks and bots).
fn check_opening(opening: Opening, rules: &mnk_core::Rules) -> Result<(), ApiError> {
    opening
        .check_rules(rules)
        .map_err(|e| ApiError::Api(mnk_api::ApiError::BadOpening(e.to_string())))
}

/// A clock within the limits, in milliseconds.
fn check_clock(clock: ClockView) -> Result<(i64, i64), ApiError> {
    if !(1000..=MAX_CLOCK_MS).contains(&clock.initial_ms) || clock.increment_ms > MAX_INCREMENT_MS {
        return Err(ApiError::Api(mnk_api::ApiError::BadJson(format!(
            "a clock gives each player 1 s to 3 h (initial_ms 1000 to {MAX_CLOCK_MS}) and adds \
             at most 10 min a move (increment_ms up to {MAX_INCREMENT_MS})"
        ))));
    }
    Ok((clock.initial_ms as i64, clock.increment_ms as i64))
}

/// Whether the creator plays X: as asked, or at random.
fn creator_plays_x(colour: Option<&str>) -> Result<bool, ApiError> {
    match colour.unwrap_or("random") {
        "X" | "x" => Ok(true),
        "O" | "o" => Ok(false),
        "random" => {
            let mut byte = [0u8];
            getrandom::fill(&mut byte).expect("the operating system gives random bytes");
            Ok(byte[0] & 1 == 0)
        }
        other => Err(ApiError::Api(mnk_api::ApiError::BadJson(format!(
            "{other:?} is not a colour: choose \"X\", \"O\" or \"random\""
        )))),
    }
}

async fn read(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<ReadQuery>, QueryRejection>,
) -> Result<Reply<RoomView>, ApiError> {
    rooms.limits.check(Ask::Read, client)?;
    let Query(query) =
        query.map_err(|e| ApiError::Api(mnk_api::ApiError::BadQuery(e.body_text())))?;
    let snap = match query.after {
        Some(after) => {
            let wait = query
                .wait_ms
                .map_or(MAX_WAIT, Duration::from_millis)
                .min(MAX_WAIT);
            // A seat's long poll (its token as a bearer credential) keeps the seat here.
            let seat = match bearer(&headers) {
                Some(token) => Some(rooms.seat(&id, checked_token(token)?).await?),
                None => None,
            };
            rooms.after(&id, after, wait, seat).await?
        }
        None => rooms.current(&id).await?,
    };
    Ok(Reply(rooms.view(&snap)?))
}

async fn join(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<TokenRequest>,
) -> Result<Reply<SeatedReply>, ApiError> {
    rooms.limits.check(Ask::Join, client)?;
    let token = request.token.as_deref().map(checked_token).transpose()?;
    let (snap, seat) = rooms.join(&id, token).await?;
    let (seat, token) = seat.unzip();
    Ok(Reply(rooms.seated(&snap, seat, token)?))
}

/// The token of an `Authorization: Bearer TOKEN` header, if there is one.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// A token of a sensible length (a longer one holds no seat, and is not hashed).
fn checked_token(token: &str) -> Result<&str, ApiError> {
    if token.is_empty() || token.len() > MAX_TOKEN_LEN {
        return Err(ApiError::BadToken(
            "this token holds no seat in this room: you can watch, not play".into(),
        ));
    }
    Ok(token)
}

/// Takes `action` for the seat `token` holds.
async fn seat_acts(
    rooms: &Arc<Rooms>,
    client: Client,
    id: &str,
    token: &str,
    action: Action,
) -> Result<Reply<RoomView>, ApiError> {
    rooms.limits.check(Ask::Act, client)?;
    let snap = rooms.act_for(id, checked_token(token)?, &action).await?;
    Ok(Reply(rooms.view(&snap)?))
}

async fn play(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<MoveRequest>,
) -> Result<Reply<RoomView>, ApiError> {
    let action = Action::Move {
        ply: request.ply,
        cell: request.cell,
    };
    seat_acts(&rooms, client, &id, &request.token, action).await
}

async fn decide(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<DecideRequest>,
) -> Result<Reply<RoomView>, ApiError> {
    let action = Action::Decide {
        ply: request.ply,
        decision: request.decision,
    };
    seat_acts(&rooms, client, &id, &request.token, action).await
}

/// The token of a body that must carry one.
fn required(request: TokenRequest) -> Result<String, ApiError> {
    request.token.ok_or_else(|| {
        ApiError::Api(mnk_api::ApiError::BadJson(
            "say which seat acts: {\"token\": \"...\"}".into(),
        ))
    })
}

async fn resign(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<TokenRequest>,
) -> Result<Reply<RoomView>, ApiError> {
    seat_acts(&rooms, client, &id, &required(request)?, Action::Resign).await
}

async fn draw(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<TokenRequest>,
) -> Result<Reply<RoomView>, ApiError> {
    seat_acts(&rooms, client, &id, &required(request)?, Action::Draw).await
}

async fn rematch(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<TokenRequest>,
) -> Result<Reply<RoomView>, ApiError> {
    seat_acts(&rooms, client, &id, &required(request)?, Action::Rematch).await
}

async fn invite(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<InviteRequest>,
) -> Result<Reply<RoomView>, ApiError> {
    rooms.limits.check(Ask::Act, client)?;
    rooms.seat(&id, checked_token(&request.token)?).await?;
    let bot = parse_opponent(&request.bot)?;
    let snap = rooms.invite(&id, &bot).await?;
    Ok(Reply(rooms.view(&snap)?))
}

/// `POST /api/rooms/ID/claim`: the game an opponent left, won or handed to a bot.
async fn claim(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<ClaimRequest>,
) -> Result<Reply<RoomView>, ApiError> {
    rooms.limits.check(Ask::Act, client)?;
    let token = checked_token(&request.token)?;
    let bot = request.bot.as_ref().map(parse_opponent).transpose()?;
    let snap = rooms.claim(&id, token, bot.as_ref()).await?;
    Ok(Reply(rooms.view(&snap)?))
}

/// `GET /api/rooms/ID/games/N`: a finished game.
async fn record(
    State(rooms): State<Arc<Rooms>>,
    client: Client,
    Path((id, number)): Path<(String, String)>,
) -> Result<Reply<GameRecord>, ApiError> {
    rooms.limits.check(Ask::Read, client)?;
    let number: i64 = number.parse().map_err(|_| {
        ApiError::UnknownRoom(format!("room {id} has no game {number:?}"))
            .worded("no_game", json!({ "id": id, "number": number }))
    })?;
    let snap = rooms.load_game(&id, number).await?;
    Ok(Reply(game_record(&snap, super::now_ms())?))
}

/// `GET /g/ROOM-N`: a finished game's permanent address, which the page replays
/// (`/?game=ROOM-N`). A mistyped one leads to the page too, which says there is no such game
/// (a person following a link reads the page, not JSON): only its letters, digits and dashes
/// are passed on, at most 40.
async fn permanent_page(Path(game): Path<String>) -> Redirect {
    let shown: String = game
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(40)
        .collect();
    Redirect::to(&format!("/?game={shown}"))
}
