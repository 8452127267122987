//! Every refusal the server can give, and the one place where errors become HTTP responses.
//!
//! Handlers return [`ApiError`]. The refusals of the stateless requests (bad rules, an illegal
//! move, a game over…) are mnk-api's, which the page's worker gives too, carried whole in
//! [`ApiError::Api`]; the server adds those of HTTP, of its limits and of rooms. The stable codes
//! of `docs/api.md` and their statuses live in these two tables ([`ApiError::code`] and
//! [`ApiError::status`]).

use std::fmt;
use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use mnk_api::Words;
use mnk_core::RulesError;
use mnk_engine::BotError;
use serde_json::json;

use crate::log::Throttled;

/// A refused request: a stable code, an HTTP status and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// Not an HTTP request that can be read (a malformed request line or header).
    BadRequest(String),
    /// The request target (path and query) is over the limit (414).
    UriTooLong(String),
    /// The request head is over its size or header-count limit (431).
    HeadersTooLarge(String),
    /// The request head or body did not arrive within its time (408).
    Timeout(String),
    /// The body is not declared as `application/json`.
    BadContentType(String),
    /// The request body is over the size limit (413).
    BodyTooLarge(String),
    /// This client is over its rate or has too many engine requests in progress (429).
    RateLimited {
        /// Seconds after which a retry will be admitted.
        retry_after_secs: u64,
        /// Which limit, for people.
        message: String,
    },
    /// Every engine slot stayed busy for the queueing limit.
    Busy {
        /// Seconds after which a retry is likely to find a free slot.
        retry_after_secs: u64,
    },
    /// The endpoint exists but not for this HTTP method.
    MethodNotAllowed {
        /// The methods the path takes, for the `Allow` header (`GET, HEAD`).
        allow: String,
        /// What is wrong.
        message: String,
    },
    /// No room has this id (or it is not an id at all).
    UnknownRoom(String),
    /// A seat token that holds no seat of this room (forged, mistyped, or another room's).
    BadToken(String),
    /// A move by the seat whose turn it is not.
    NotYourTurn(String),
    /// A move at a ply other than the game's: the client is behind (or ahead). Carries the room
    /// as it stands so the client can catch up.
    StalePly {
        /// What is wrong.
        message: String,
        /// The room's state, as `GET /api/rooms/ID` answers it.
        state: Box<serde_json::Value>,
    },
    /// A move, resignation or offer before the second seat is taken.
    Waiting(String),
    /// A rematch asked for while the game is still being played.
    GameNotOver(String),
    /// A room closed after a long time without players.
    RoomClosed(String),
    /// A bot invited to a seat someone already holds.
    SeatTaken(String),
    /// A claim on a game whose opponent has not left it: connected, away for less than the
    /// delay, a bot, or a game with a clock (whose flag ends it instead).
    NotAbandoned(String),
    /// The database could not be reached or failed (503): a fault that may pass.
    Unavailable(String),
    /// A refusal of a stateless request, as mnk-api (the server's and the worker's shared code)
    /// gives it: bad rules, a bad or illegal move, a game over, an unknown bot, out of time, an
    /// engine bug (`internal`), no such path.
    Api(mnk_api::ApiError),
    /// The database reports its storage damaged (500, no `Retry-After`): a fault that retrying
    /// does not mend, for the server's operator to repair.
    DatabaseDamaged(String),
    /// A panic in the server or the engine, caught: answered like an internal error, but
    /// logged by the panic hook ([`crate::log::log_panics_in_one_line`]), not here.
    Panicked(String),
    /// A refusal with the words behind its message ([`ApiError::worded`]).
    Worded(Box<ApiError>, Words),
}

impl ApiError {
    /// The stable machine-readable code (the `code` field of the error body).
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Api(refusal) => refusal.code(),
            ApiError::BadRequest(_) => "bad_request",
            ApiError::UriTooLong(_) => "uri_too_long",
            ApiError::HeadersTooLarge(_) => "headers_too_large",
            ApiError::Timeout(_) => "timeout",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::BadContentType(_) => "bad_content_type",
            ApiError::BodyTooLarge(_) => "too_large",
            ApiError::Busy { .. } => "busy",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
            ApiError::UnknownRoom(_) => "unknown_room",
            ApiError::BadToken(_) => "bad_token",
            ApiError::NotYourTurn(_) => "not_your_turn",
            ApiError::StalePly { .. } => "stale_ply",
            ApiError::Waiting(_) => "waiting_for_opponent",
            ApiError::GameNotOver(_) => "game_not_over",
            ApiError::RoomClosed(_) => "room_closed",
            ApiError::SeatTaken(_) => "seat_taken",
            ApiError::NotAbandoned(_) => "not_abandoned",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::DatabaseDamaged(_) => "database_damaged",
            ApiError::Panicked(_) => "internal",
            ApiError::Worded(error, _) => error.code(),
        }
    }

    /// The HTTP status of the response.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Api(refusal) => {
                StatusCode::from_u16(refusal.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            }
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::UriTooLong(_) => StatusCode::URI_TOO_LONG,
            ApiError::HeadersTooLarge(_) => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::BadContentType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::NotYourTurn(_)
            | ApiError::StalePly { .. }
            | ApiError::Waiting(_)
            | ApiError::GameNotOver(_)
            | ApiError::SeatTaken(_)
            | ApiError::NotAbandoned(_) => StatusCode::CONFLICT,
            ApiError::UnknownRoom(_) => StatusCode::NOT_FOUND,
            ApiError::BadToken(_) => StatusCode::FORBIDDEN,
            ApiError::RoomClosed(_) => StatusCode::GONE,
            ApiError::Unavailable(_) | ApiError::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::BodyTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Panicked(_) | ApiError::DatabaseDamaged(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            ApiError::Worded(error, _) => error.status(),
        }
    }

    /// The move the error is about, where there is one.
    #[must_use]
    pub fn index(&self) -> Option<usize> {
        match self {
            ApiError::Api(refusal) => refusal.index(),
            ApiError::Worded(error, _) => error.index(),
            _ => None,
        }
    }

    /// The message for people.
    #[must_use]
    pub fn message(&self) -> String {
        match self {
            ApiError::Api(refusal) => refusal.message().to_string(),
            ApiError::BadRequest(m)
            | ApiError::UriTooLong(m)
            | ApiError::HeadersTooLarge(m)
            | ApiError::Timeout(m)
            | ApiError::RateLimited { message: m, .. }
            | ApiError::BadContentType(m)
            | ApiError::BodyTooLarge(m)
            | ApiError::MethodNotAllowed { message: m, .. }
            | ApiError::UnknownRoom(m)
            | ApiError::BadToken(m)
            | ApiError::NotYourTurn(m)
            | ApiError::StalePly { message: m, .. }
            | ApiError::Waiting(m)
            | ApiError::GameNotOver(m)
            | ApiError::RoomClosed(m)
            | ApiError::SeatTaken(m)
            | ApiError::NotAbandoned(m)
            | ApiError::Unavailable(m)
            | ApiError::DatabaseDamaged(m)
            | ApiError::Panicked(m) => m.clone(),
            ApiError::Busy { retry_after_secs } => format!(
                "the server is busy thinking for other players: try again in {retry_after_secs} s"
            ),
            ApiError::Worded(error, _) => error.message(),
        }
    }

    /// The same refusal with the words behind its message: `reason` names the sentence,
    /// `params` (a JSON object) the values in it.
    #[must_use]
    pub fn worded(self, reason: &'static str, params: serde_json::Value) -> ApiError {
        ApiError::Worded(Box::new(self), Words::new(reason, params))
    }

    /// The words behind the message, so that the page says it in the player's language: those
    /// given by [`ApiError::worded`] or by mnk-api, or the wait of a refusal that names one.
    #[must_use]
    pub fn words(&self) -> Option<Words> {
        let wait = |secs: u64| Words::new("wait", json!({ "secs": secs.max(1) }));
        match self {
            ApiError::Worded(_, words) => Some(words.clone()),
            ApiError::Api(refusal) => refusal.words().cloned(),
            ApiError::Busy { retry_after_secs } => Some(wait(*retry_after_secs)),
            ApiError::RateLimited {
                retry_after_secs, ..
            } => Some(wait(*retry_after_secs)),
            _ => None,
        }
    }

    /// The room as it stands, for refusals that carry it (`stale_ply`).
    #[must_use]
    pub fn state(&self) -> Option<&serde_json::Value> {
        match self {
            ApiError::StalePly { state, .. } => Some(state),
            ApiError::Worded(error, _) => error.state(),
            _ => None,
        }
    }

    /// The JSON body of the error response: `{"error": {"code", "message", "index"?,
    /// "reason"?, "params"?}}`, and `"state"` beside `"error"` for refusals that carry the room.
    #[must_use]
    pub fn body(&self) -> String {
        let mut error = json!({ "code": self.code(), "message": self.message() });
        if let Some(index) = self.index() {
            error["index"] = json!(index);
        }
        if let Some(words) = self.words() {
            error["reason"] = json!(words.reason);
            error["params"] = serde_json::Value::Object(words.params);
        }
        let mut body = json!({ "error": error });
        if let Some(state) = self.state() {
            body["state"] = state.clone();
        }
        body.to_string()
    }

    /// Seconds after which a retry may succeed, for the errors that say so.
    #[must_use]
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            ApiError::Busy { retry_after_secs }
            | ApiError::RateLimited {
                retry_after_secs, ..
            } => Some((*retry_after_secs).max(1)),
            ApiError::Unavailable(_) => Some(2),
            _ => None,
        }
    }

    /// A bug on our side: logged, never caused by valid input (`internal`).
    #[must_use]
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::Api(mnk_api::ApiError::Internal(message.into()))
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())
    }
}

impl std::error::Error for ApiError {}

impl From<mnk_api::ApiError> for ApiError {
    fn from(refusal: mnk_api::ApiError) -> ApiError {
        ApiError::Api(refusal)
    }
}

impl From<RulesError> for ApiError {
    fn from(error: RulesError) -> ApiError {
        ApiError::Api(error.into())
    }
}

impl From<BotError> for ApiError {
    fn from(error: BotError) -> ApiError {
        ApiError::Api(error.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // Each kind of server fault is logged here, at most one line per 10 s with a count of
        // those left out (the trace layer logs none of them: a flood of refusals would flood the
        // log). Panics are logged by the panic hook; overload by the pool and the socket cap.
        static INTERNAL: Throttled = Throttled::new(Duration::from_secs(10));
        static UNAVAILABLE: Throttled = Throttled::new(Duration::from_secs(10));
        static DAMAGED: Throttled = Throttled::new(Duration::from_secs(10));
        let status = self.status();
        match &self {
            ApiError::Api(mnk_api::ApiError::Internal(message)) => {
                INTERNAL.error(|| format!("internal: {message}"));
            }
            ApiError::Unavailable(message) => UNAVAILABLE.error(|| format!("database: {message}")),
            ApiError::DatabaseDamaged(message) => DAMAGED.error(|| format!("database: {message}")),
            _ => {}
        }
        let mut response = (
            status,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            self.body(),
        )
            .into_response();
        if let ApiError::MethodNotAllowed { allow, .. } = &self {
            if let Ok(allow) = HeaderValue::from_str(allow) {
                response.headers_mut().insert(header::ALLOW, allow);
            }
        }
        if let Some(secs) = self.retry_after() {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_large_has_two_statuses_and_one_code() {
        assert_eq!(
            ApiError::BodyTooLarge(String::new()).status(),
            StatusCode::PAYLOAD_TOO_LARGE
        );
        assert_eq!(
            ApiError::Api(mnk_api::ApiError::TooLarge(String::new())).status(),
            StatusCode::UNPROCESSABLE_ENTITY
        );
        assert_eq!(ApiError::BodyTooLarge(String::new()).code(), "too_large");
    }

    #[test]
    fn a_damaged_database_is_a_fault_without_retry_after() {
        let response = ApiError::DatabaseDamaged("malformed".into()).into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(response.headers().get(header::RETRY_AFTER).is_none());
        assert_eq!(
            ApiError::DatabaseDamaged(String::new()).code(),
            "database_damaged"
        );
    }

    #[test]
    fn busy_sets_retry_after() {
        let response = ApiError::Busy {
            retry_after_secs: 2,
        }
        .into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "2");
    }
}
