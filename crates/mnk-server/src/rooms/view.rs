//! What clients see of a room: the typed replies of the room API and the messages of its
//! WebSocket (`docs/api.md`, "Rooms").

use mnk_core::{Decision, Opening, Player, Step};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::reading::{self, clocks, colour_of};
use super::store::Snapshot;
use crate::error::ApiError;
use mnk_api::game::{cell_json, forbidden_json, game_outcome_json};
use mnk_api::opening::StepReply;

/// A room and its current game.
#[derive(Clone, Debug, Serialize)]
pub struct RoomView {
    /// The room's id (the link is `/r/ID`).
    pub room: String,
    /// Bumped by every change: a client that has seen version `v` asks for what comes after it.
    pub version: i64,
    /// `waiting` (a seat is free), `playing`, `over` (the current game ended) or `closed`.
    pub status: &'static str,
    /// The rules, as `/api/state` writes them.
    pub rules: mnk_core::Rules,
    /// The Fischer clock, if the room has one.
    pub clock: Option<ClockView>,
    /// The current game's number in the room, from 1 (a rematch is the next number).
    pub game: i64,
    /// Seat 0 (the creator's) and seat 1.
    pub seats: [SeatView; 2],
    /// The moves of the current game, oldest first.
    pub moves: Vec<String>,
    /// How many moves there are: the ply the next move must name.
    pub ply: usize,
    /// Whose turn it is (or would be, once the game is over).
    pub to_move: Player,
    /// The position's outcome, as `/api/state` answers it.
    pub outcome: Json,
    /// The last move, as `/api/state` answers it.
    pub last: Option<Json>,
    /// Under rules with forbidden moves (renju), as `/api/state` answers it: the cells the side
    /// to move may not play, each with its kind and reason (empty while white is to move, and
    /// once the game is over); absent under other rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forbidden: Option<Vec<Json>>,
    /// How the current game ended, once it has.
    pub result: Option<ResultView>,
    /// The clocks now, in games with a clock.
    pub clocks: Option<ClocksView>,
    /// A draw or rematch a seat offers.
    pub offer: Option<OfferView>,
    /// In a room with a swap opening: where the current game's opening stands; absent in rooms
    /// whose games open freely.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening: Option<OpeningView>,
    /// In a room without a clock, how long a player must be away before the opponent may claim
    /// the game (`claim`); absent with a clock, and where the server does not say (the state
    /// inside a `stale_ply` refusal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_after_ms: Option<u64>,
}

/// A swap opening in a room: its kind, the decisions made, and what comes next, as
/// `/api/state` says it (`step`, `seat` as `opener`/`chooser`, `left`, `options`, `black`), with
/// the room's seats named.
#[derive(Clone, Debug, Serialize)]
pub struct OpeningView {
    /// `swap` or `swap2`.
    pub kind: Opening,
    /// The decisions made so far, in order.
    pub decisions: Vec<Decision>,
    /// The room seat (0 or 1) that opens this game.
    pub opener: usize,
    /// What comes next.
    #[serde(flatten)]
    pub step: StepReply,
    /// The room seat that places or chooses now; `null` once the colours are settled.
    pub acts: Option<usize>,
}

/// The Fischer clock of a room.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClockView {
    /// Each player's time at the start, in milliseconds.
    pub initial_ms: u64,
    /// Time added after each of a player's moves, in milliseconds.
    pub increment_ms: u64,
}

/// One seat.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// 0 or 1.
    pub seat: usize,
    /// The colour it plays in the current game.
    pub colour: Player,
    /// Whether a person or a bot sits there.
    pub taken: bool,
    /// The bot sitting there, if it is one.
    pub bot: Option<String>,
    /// Whether the seat has a live connection (a socket, a recent long poll) to any server;
    /// absent where the server does not say (the state inside a `stale_ply` refusal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub here: Option<bool>,
    /// How long a person's seat has been away, in milliseconds, as the server answering counts
    /// it; absent while it is here, for a bot or a free seat, and where `here` is absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub away_ms: Option<u64>,
}

/// How a game ended.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    /// The winner; `null` for a draw.
    pub winner: Option<Player>,
    /// `line`, `full`, `no_line_left`, `resigned`, `agreed` or `time`.
    pub reason: String,
}

/// The clocks at the moment of the reply.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ClocksView {
    /// X's time left, in milliseconds.
    pub x_ms: i64,
    /// O's time left, in milliseconds.
    pub o_ms: i64,
    /// Whose clock runs (`null` before the game starts and after it ends).
    pub running: Option<Player>,
}

/// An offer on the table.
#[derive(Clone, Debug, Serialize)]
pub struct OfferView {
    /// `draw` or `rematch`.
    pub kind: String,
    /// The seat that offers it.
    pub seat: usize,
}

/// The answer to creating or joining a room: the seat taken (none for a spectator), its token,
/// and the room.
#[derive(Clone, Debug, Serialize)]
pub struct SeatedReply {
    /// The room's id.
    pub room: String,
    /// The seat this client holds, or `null` for a spectator.
    pub seat: Option<usize>,
    /// The colour that seat plays in the current game.
    pub colour: Option<Player>,
    /// The seat's token: keep it, it is the only way to play for the seat.
    pub token: Option<String>,
    /// The room.
    pub state: RoomView,
}

/// A finished game of a room, for its permanent page (`/g/ROOM-N`).
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// The room's id.
    pub room: String,
    /// The game's number in the room.
    pub game: i64,
    /// The rules, as `/api/state` writes them.
    pub rules: mnk_core::Rules,
    /// The moves, oldest first.
    pub moves: Vec<String>,
    /// How it ended.
    pub result: ResultView,
    /// The final position's outcome, as `/api/state` answers it (the winning line).
    pub outcome: Json,
    /// The room's Fischer clock, if it has one.
    pub clock: Option<ClockView>,
    /// Each side's time left when the game ended (nothing running), in games with a clock.
    pub clocks: Option<ClocksView>,
}

/// The record of a finished game (`game_not_over` while it is played).
pub fn game_record(snap: &Snapshot, now: i64) -> Result<GameRecord, ApiError> {
    let game = reading::game(snap)?;
    let result = result_view(snap).ok_or_else(|| {
        ApiError::GameNotOver("this game is still being played: watch it in its room".into())
    })?;
    Ok(GameRecord {
        room: snap.room.id.clone(),
        game: snap.game.number,
        rules: game.rules,
        moves: snap.moves.iter().map(|m| m.cell.clone()).collect(),
        result,
        outcome: game_outcome_json(&game.pos),
        clock: clock_view(snap),
        clocks: clocks_view(snap, &game, now),
    })
}

fn clock_view(snap: &Snapshot) -> Option<ClockView> {
    snap.room.clock.map(|(initial, increment)| ClockView {
        initial_ms: initial.max(0) as u64,
        increment_ms: increment.max(0) as u64,
    })
}

fn clocks_view(snap: &Snapshot, game: &reading::Game, now: i64) -> Option<ClocksView> {
    clocks(snap, game, now).map(|(x_ms, o_ms, running)| ClocksView {
        x_ms: x_ms.max(0),
        o_ms: o_ms.max(0),
        running,
    })
}

/// A message from the server on a room's WebSocket.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The room as it is now: sent on connecting and after every change.
    State {
        /// The room.
        state: Box<RoomView>,
    },
    /// The answer to `hello`: the seat the token holds (none for a spectator).
    Welcome {
        /// The seat, or `null`.
        seat: Option<usize>,
        /// Its colour in the current game.
        colour: Option<Player>,
    },
    /// A message refused; the room is unchanged.
    Error {
        /// `{"code", "message"}` as in HTTP error bodies.
        error: ErrorView,
        /// The room as it stands, for refusals that a stale client needs it for (`stale_ply`).
        #[serde(skip_serializing_if = "Option::is_none")]
        state: Option<Json>,
    },
    /// The answer to `ping`.
    Pong,
    /// Which seats have a live connection: sent on connecting and whenever it changes.
    Presence {
        /// Seats 0 and 1: here or not.
        here: [bool; 2],
    },
}

/// An error's code and message.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorView {
    /// The stable code.
    pub code: &'static str,
    /// For people.
    pub message: String,
    /// Which sentence the message is, for the page to say it in the player's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// The values the sentence names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<serde_json::Map<String, serde_json::Value>>,
}

impl ServerMessage {
    /// The message for a refusal.
    #[must_use]
    pub fn error(error: &ApiError) -> ServerMessage {
        ServerMessage::Error {
            error: {
                let words = error.words();
                ErrorView {
                    code: error.code(),
                    message: error.message(),
                    reason: words.as_ref().map(|w| w.reason),
                    params: words.map(|w| w.params),
                }
            },
            state: error.state().cloned(),
        }
    }

    /// The message as a line of JSON.
    #[must_use]
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }
}

/// A message from a client on a room's WebSocket.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Says who this client is: the seat's token (spectators need not say hello).
    Hello {
        /// The seat token from creating or joining the room.
        token: String,
    },
    /// A move at the ply the client expects.
    Move {
        /// The number of moves the client has seen.
        ply: usize,
        /// The cell, `h8` or `7,7`.
        cell: String,
    },
    /// A decision of the swap opening at the ply the client expects.
    Decide {
        /// The number of stones the client has seen.
        ply: usize,
        /// `black`, `white` or `place-two`.
        decision: Decision,
    },
    /// Resign the current game.
    Resign,
    /// Offer a draw, or accept the opponent's offer.
    Draw,
    /// Offer a rematch, or accept the opponent's offer.
    Rematch,
    /// Claim the game the opponent left: the win, or with `bot` the opponent's seat for it.
    Claim {
        /// The bot to seat, as `/api/move` names opponents; none to claim the win.
        #[serde(default)]
        bot: Option<Json>,
    },
    /// Keep-alive: answered with `pong`.
    Ping,
}

/// The room as clients see it at `now`.
pub fn state_view(snap: &Snapshot, now: i64) -> Result<RoomView, ApiError> {
    let game = reading::game(snap)?;
    let pos = &game.pos;
    let status = if snap.room.closed_ms.is_some() {
        "closed"
    } else if reading::is_over(snap) {
        "over"
    } else if snap.game.started_ms.is_none() {
        "waiting"
    } else {
        "playing"
    };
    let seats = [0, 1].map(|seat| SeatView {
        seat,
        colour: colour_of(snap, seat),
        taken: snap.seats[seat].is_taken(),
        bot: snap.seats[seat].bot.clone(),
        here: None,
        away_ms: None,
    });
    Ok(RoomView {
        room: snap.room.id.clone(),
        version: snap.room.version,
        status,
        rules: game.rules,
        clock: clock_view(snap),
        game: snap.game.number,
        seats,
        moves: snap.moves.iter().map(|m| m.cell.clone()).collect(),
        ply: pos.ply(),
        to_move: pos.to_move(),
        outcome: game_outcome_json(pos),
        last: pos.last_move().map(|c| cell_json(&game.rules, c)),
        forbidden: game.rules.has_forbidden_moves(game.rules.first()).then(|| {
            // A game ended by resignation, agreement or time has no move left to forbid.
            if reading::is_over(snap) {
                Vec::new()
            } else {
                forbidden_json(pos)
            }
        }),
        result: result_view(snap),
        clocks: clocks_view(snap, &game, now),
        offer: offer_view(snap),
        opening: opening_view(snap, &game)?,
        claim_after_ms: None,
    })
}

fn opening_view(snap: &Snapshot, game: &reading::Game) -> Result<Option<OpeningView>, ApiError> {
    if game.opening == Opening::Free {
        return Ok(None);
    }
    let step = game.step()?;
    let acts = match step {
        Step::Place { seat, .. } | Step::Choose { seat, .. } => {
            Some(reading::room_seat(snap, &game.rules, seat))
        }
        Step::Settled { .. } => None,
    };
    Ok(Some(OpeningView {
        kind: game.opening,
        decisions: game.decisions.clone(),
        opener: reading::opener_seat(snap, &game.rules),
        step: step.into(),
        acts,
    }))
}

fn result_view(snap: &Snapshot) -> Option<ResultView> {
    let result = snap.game.result.as_deref()?;
    Some(ResultView {
        winner: match result {
            "X" => Some(Player::X),
            "O" => Some(Player::O),
            _ => None,
        },
        reason: snap.game.reason.clone().unwrap_or_default(),
    })
}

fn offer_view(snap: &Snapshot) -> Option<OfferView> {
    let (kind, seat) = reading::offered(snap)?;
    Some(OfferView {
        kind: kind.to_string(),
        seat,
    })
}

/// The reply to a client seated in `seat` (or a spectator).
pub fn seated(
    snap: &Snapshot,
    seat: Option<usize>,
    token: Option<String>,
    now: i64,
) -> Result<SeatedReply, ApiError> {
    Ok(SeatedReply {
        room: snap.room.id.clone(),
        seat,
        colour: seat.map(|s| colour_of(snap, s)),
        token,
        state: state_view(snap, now)?,
    })
}

/// The seat that acts (moves, or in a swap opening places the stones or chooses), if the game
/// is on and a bot sits there: the bot is due.
#[must_use]
pub fn bot_due(snap: &Snapshot, game: &reading::Game) -> Option<(usize, String)> {
    if reading::is_over(snap) || snap.game.started_ms.is_none() || snap.room.closed_ms.is_some() {
        return None;
    }
    let seat = reading::acting_seat(snap, game).ok()?;
    snap.seats[seat].bot.clone().map(|bot| (seat, bot))
}

/// `error` with the room's state at `now` in it, where the refusal carries the state
/// (`stale_ply`): the referee refuses, the view says what the client missed.
#[must_use]
pub fn with_state(error: ApiError, snap: &Snapshot, now: i64) -> ApiError {
    match error {
        ApiError::StalePly { message, .. } => {
            let state = state_view(snap, now)
                .map_or(Json::Null, |v| serde_json::to_value(v).unwrap_or_default());
            ApiError::StalePly {
                message,
                state: Box::new(state),
            }
        }
        other => other,
    }
}
