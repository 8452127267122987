//! Every refusal an engine request can earn, with its stable code and status in one table.
//!
//! The codes and statuses are those of `docs/api.md`: the server answers them as HTTP
//! responses, the page's worker answers them as the same JSON with the same status, so the page
//! cannot tell who refused. Core and engine errors are converted here.

use std::fmt;

use mnk_core::{PlayError, RulesError};
use mnk_engine::solver::SolveError;
use mnk_engine::BotError;
use serde_json::{json, Map, Value};

/// The words behind a refusal's message: which sentence it is (`reason`, stable like the code)
/// and the values it names, so that the page says it in the player's language
/// (`docs/api.md#refusals`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    /// The sentence, stable within its code (`k_does_not_fit` under `bad_rules`).
    pub reason: &'static str,
    /// The values the sentence names (`{"k": 6, "width": 3, "height": 3}`).
    pub params: Map<String, Value>,
}

impl Words {
    /// The sentence `reason` with the values of `params` (a JSON object; anything else is none).
    #[must_use]
    pub fn new(reason: &'static str, params: Value) -> Words {
        let params = match params {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        Words { reason, params }
    }
}

/// A refused request: a stable code, an HTTP status and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// The body is not JSON, or not the JSON this endpoint expects.
    BadJson(String),
    /// A query parameter is missing, unknown, repeated or out of range.
    BadQuery(String),
    /// The rules are impossible or unreadable.
    BadRules(String),
    /// Text to import is in no format recognised, or a file in a recognised format is damaged
    /// or does not fit the rules given with it.
    Import(String),
    /// A move is not a cell in either notation.
    BadCell {
        /// Which move, from 0.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// A move is off the board or on a taken cell.
    IllegalMove {
        /// Which move, from 0.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// A move after the end of the game, or a request for a move in a finished game.
    GameOver {
        /// Which move came after the end, if a move did.
        index: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A swap opening whose stones and decisions do not fit together, or rules it cannot take.
    BadOpening(String),
    /// A request for the computer's part of an opening at a step that is not the computer's to
    /// take (the colours are settled, or the stones are the other person's to place); in a
    /// room, an action the opening's step does not allow.
    OpeningStep(String),
    /// Too many moves, or a board too large for the asked analysis (422).
    TooLarge(String),
    /// No such bot or level.
    UnknownBot(String),
    /// The bot does not play these rules.
    Unsupported(String),
    /// The bot does not explain its moves (`explain`; every bot of the roster does).
    NotExplained(String),
    /// The computer could not finish within the time limit (the solver, the perfect player).
    OutOfTime(String),
    /// No such endpoint.
    NotFound(String),
    /// A bug on our side (an illegal move from a bot): never caused by valid input.
    Internal(String),
    /// A refusal with the words behind its message ([`ApiError::worded`]).
    Worded(Box<ApiError>, Words),
}

impl ApiError {
    /// The stable machine-readable code (the `code` field of the error body).
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadJson(_) => "bad_json",
            ApiError::BadQuery(_) => "bad_query",
            ApiError::BadRules(_) => "bad_rules",
            ApiError::Import(_) => "import",
            ApiError::BadCell { .. } => "bad_cell",
            ApiError::IllegalMove { .. } => "illegal_move",
            ApiError::GameOver { .. } => "game_over",
            ApiError::BadOpening(_) => "bad_opening",
            ApiError::OpeningStep(_) => "opening_step",
            ApiError::TooLarge(_) => "too_large",
            ApiError::UnknownBot(_) => "unknown_bot",
            ApiError::Unsupported(_) => "unsupported",
            ApiError::NotExplained(_) => "not_explained",
            ApiError::OutOfTime(_) => "out_of_time",
            ApiError::NotFound(_) => "not_found",
            ApiError::Internal(_) => "internal",
            ApiError::Worded(error, _) => error.code(),
        }
    }

    /// The HTTP status the refusal is answered with (the worker answers the same number).
    #[must_use]
    pub fn status(&self) -> u16 {
        match self {
            ApiError::BadJson(_)
            | ApiError::BadQuery(_)
            | ApiError::BadCell { .. }
            | ApiError::UnknownBot(_) => 400,
            ApiError::NotFound(_) => 404,
            ApiError::GameOver { .. } | ApiError::OpeningStep(_) => 409,
            ApiError::BadRules(_)
            | ApiError::Import(_)
            | ApiError::IllegalMove { .. }
            | ApiError::BadOpening(_)
            | ApiError::TooLarge(_)
            | ApiError::Unsupported(_)
            | ApiError::NotExplained(_)
            | ApiError::OutOfTime(_) => 422,
            ApiError::Internal(_) => 500,
            ApiError::Worded(error, _) => error.status(),
        }
    }

    /// The move the error is about, where there is one.
    #[must_use]
    pub fn index(&self) -> Option<usize> {
        match self {
            ApiError::BadCell { index, .. } | ApiError::IllegalMove { index, .. } => Some(*index),
            ApiError::GameOver { index, .. } => *index,
            ApiError::Worded(error, _) => error.index(),
            _ => None,
        }
    }

    /// The message for people.
    #[must_use]
    pub fn message(&self) -> &str {
        match self {
            ApiError::BadJson(m)
            | ApiError::BadQuery(m)
            | ApiError::BadRules(m)
            | ApiError::Import(m)
            | ApiError::BadOpening(m)
            | ApiError::OpeningStep(m)
            | ApiError::TooLarge(m)
            | ApiError::UnknownBot(m)
            | ApiError::Unsupported(m)
            | ApiError::NotExplained(m)
            | ApiError::OutOfTime(m)
            | ApiError::NotFound(m)
            | ApiError::Internal(m) => m,
            ApiError::BadCell { message, .. }
            | ApiError::IllegalMove { message, .. }
            | ApiError::GameOver { message, .. } => message,
            ApiError::Worded(error, _) => error.message(),
        }
    }

    /// The same refusal with the words behind its message: `reason` names the sentence,
    /// `params` (a JSON object) the values in it.
    #[must_use]
    pub fn worded(self, reason: &'static str, params: Value) -> ApiError {
        ApiError::Worded(Box::new(self), Words::new(reason, params))
    }

    /// The words behind the message, where the refusal has them.
    #[must_use]
    pub fn words(&self) -> Option<&Words> {
        match self {
            ApiError::Worded(_, words) => Some(words),
            _ => None,
        }
    }

    /// The error object of a refusal's body: `{"code", "message", "index"?, "reason"?,
    /// "params"?}`.
    #[must_use]
    pub fn error_json(&self) -> Value {
        let mut error = json!({ "code": self.code(), "message": self.message() });
        if let Some(index) = self.index() {
            error["index"] = json!(index);
        }
        if let Some(words) = self.words() {
            error["reason"] = json!(words.reason);
            error["params"] = Value::Object(words.params.clone());
        }
        error
    }

    /// The refusal of move `index` of a move list.
    #[must_use]
    pub fn from_play(index: usize, error: &PlayError) -> ApiError {
        let message = format!("move {} ({error})", index + 1);
        let mv = index + 1;
        match error {
            PlayError::GameOver => ApiError::GameOver {
                index: Some(index),
                message: format!("move {mv} comes after the end of the game"),
            }
            .worded("after_the_end", json!({ "move": mv })),
            PlayError::Occupied(cell) => ApiError::IllegalMove { index, message }
                .worded("occupied", json!({ "move": mv, "cell": cell.to_string() })),
            PlayError::OffBoard(cell) => ApiError::IllegalMove { index, message }
                .worded("off_board", json!({ "move": mv, "cell": cell.to_string() })),
            PlayError::Forbidden { cell, kind } => ApiError::IllegalMove { index, message }.worded(
                "forbidden",
                json!({ "move": mv, "cell": cell.to_string(), "kind": kind.name() }),
            ),
        }
    }

    /// The refusal of move `index`, `text`, which is not a cell (`message` says why).
    #[must_use]
    pub fn not_a_cell(index: usize, text: &str, message: String) -> ApiError {
        ApiError::BadCell { index, message }
            .worded("not_a_cell", json!({ "move": index + 1, "cell": text }))
    }

    /// The refusal of a request for thinking in a finished game.
    #[must_use]
    pub fn game_over() -> ApiError {
        ApiError::from(BotError::GameOver)
    }

    /// The refusal of a request body that is not the JSON an endpoint expects.
    #[must_use]
    pub fn bad_body(error: &serde_json::Error) -> ApiError {
        ApiError::BadJson(format!(
            "the request body is not the JSON expected: {error}"
        ))
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())
    }
}

impl std::error::Error for ApiError {}

impl From<RulesError> for ApiError {
    fn from(error: RulesError) -> ApiError {
        let message = error.to_string();
        let (reason, params) = match &error {
            RulesError::ZeroSize => ("zero_size", json!({})),
            RulesError::TooLarge { width, height } => (
                "board_too_large",
                json!({ "width": width, "height": height, "max": mnk_core::MAX_SIDE }),
            ),
            RulesError::ZeroK => ("zero_k", json!({})),
            RulesError::KTooLarge(k) => ("k_too_large", json!({ "k": k, "max": mnk_core::MAX_K })),
            RulesError::KDoesNotFit { k, width, height } => (
                "k_does_not_fit",
                json!({ "k": k, "width": width, "height": height }),
            ),
            RulesError::NotFive { win, k } => {
                ("not_five", json!({ "win": win.to_string(), "k": k }))
            }
            RulesError::NeedsBorders(win) => ("needs_borders", json!({ "win": win.to_string() })),
            RulesError::Syntax(_) => ("unreadable", json!({})),
        };
        ApiError::BadRules(message).worded(reason, params)
    }
}

impl From<BotError> for ApiError {
    fn from(error: BotError) -> ApiError {
        match error {
            BotError::GameOver => ApiError::GameOver {
                index: None,
                message: "the game is over: there is no move to make".to_string(),
            },
            BotError::Unsupported(_) => ApiError::Unsupported(error.to_string()),
            BotError::UnknownBot(_) => ApiError::UnknownBot(error.to_string()),
            BotError::OutOfTime { .. } => {
                ApiError::OutOfTime(error.to_string()).worded("not_proven_in_time", json!({}))
            }
            BotError::NotExplained(_) => ApiError::NotExplained(error.to_string()),
        }
    }
}

impl From<SolveError> for ApiError {
    fn from(error: SolveError) -> ApiError {
        match error {
            SolveError::TooLarge(ref rules) => {
                let params = json!({ "rules": rules, "max": mnk_engine::solver::MAX_SOLVE_CELLS });
                let reason = match rules.parse::<mnk_core::Rules>().map(|r| r.win()) {
                    Ok(mnk_core::Win::Renju | mnk_core::Win::Caro) => "solver_rules",
                    _ => "too_large_to_solve",
                };
                ApiError::TooLarge(error.to_string()).worded(reason, params)
            }
            SolveError::Aborted { .. } => {
                ApiError::OutOfTime(error.to_string()).worded("not_proven_in_time", json!({}))
            }
            SolveError::GameOver => ApiError::GameOver {
                index: None,
                message: "the game is over: there is nothing left to solve".to_string(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_errors_keep_their_index_and_code() {
        let e = ApiError::from_play(2, &PlayError::Occupied(mnk_core::Cell::new(0, 0)));
        assert_eq!((e.code(), e.index()), ("illegal_move", Some(2)));
        assert!(e.message().contains("move 3"), "{}", e.message());
        let e = ApiError::from_play(5, &PlayError::GameOver);
        assert_eq!((e.code(), e.status()), ("game_over", 409));
        assert_eq!(e.error_json()["index"], 5);
    }

    #[test]
    fn refusals_carry_the_words_behind_their_message() {
        let e = ApiError::from_play(1, &PlayError::Occupied(mnk_core::Cell::new(1, 1)));
        let json = e.error_json();
        assert_eq!(
            (json["code"].as_str(), json["index"].as_u64()),
            (Some("illegal_move"), Some(1))
        );
        assert_eq!(json["reason"], "occupied");
        assert_eq!(json["params"], json!({ "move": 2, "cell": "b2" }));
        let e = ApiError::from(RulesError::KDoesNotFit {
            k: 6,
            width: 3,
            height: 3,
        });
        assert_eq!((e.code(), e.status()), ("bad_rules", 422));
        assert_eq!(e.error_json()["reason"], "k_does_not_fit");
        assert_eq!(
            e.error_json()["params"],
            json!({ "k": 6, "width": 3, "height": 3 })
        );
        let e = ApiError::not_a_cell(0, "hello", "'hello' is not a cell".into());
        assert_eq!(
            e.error_json()["params"],
            json!({ "move": 1, "cell": "hello" })
        );
        // A refusal without words has neither field.
        let plain = ApiError::BadJson("x".into()).error_json();
        assert!(plain.get("reason").is_none() && plain.get("params").is_none());
    }
}
