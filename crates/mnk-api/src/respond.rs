//! One request in, one reply out, by the path the page would send to the server: what the
//! page's worker answers in its place. The status and the JSON are those the server answers for
//! the same request (`docs/api.md`), errors included, so the page cannot tell the two apart.
//!
//! Only the stateless requests are here: rooms live on the server, which is their referee. The
//! analysis stream is [`crate::analysis`]'s, since it answers more than once.

use serde::de::DeserializeOwned;
use serde_json::{json, Value as Json};

use crate::error::ApiError;
use crate::play::Ask;
use crate::{analysis, exact, game, import, opening, play, review, Checked, Context, Settings};

/// A reply: the HTTP status the server would answer, and the JSON body.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// 200, or the refusal's status.
    pub status: u16,
    /// The answer, or `{"error": {"code", "message", "index"?}}`.
    pub body: Json,
}

impl Reply {
    /// The reply to a request that was answered or refused.
    #[must_use]
    pub fn of(result: Result<Json, ApiError>) -> Reply {
        match result {
            Ok(body) => Reply { status: 200, body },
            Err(error) => Reply {
                status: error.status(),
                body: json!({ "error": error.error_json() }),
            },
        }
    }
}

/// Answers the request for `path` (`"move"`, `"bots?rules=15x15x5"`; without the `api/`
/// prefix) with `body` (`None` for a GET), thinking on `context` where it must. `fresh_seed`
/// seeds the bots of requests that give no seed.
pub fn respond(
    settings: &Settings,
    context: &Context,
    fresh_seed: u64,
    path: &str,
    body: Option<&str>,
) -> Reply {
    Reply::of(answer(settings, context, fresh_seed, path, body))
}

fn answer(
    settings: &Settings,
    context: &Context,
    fresh_seed: u64,
    path: &str,
    body: Option<&str>,
) -> Result<Json, ApiError> {
    let (name, query) = path.split_once('?').unwrap_or((path, ""));
    let checked = match (name, body) {
        ("presets", None) => Checked::Answer(play::presets()),
        ("bots", None) => Checked::Answer(play::bots(rules_query(query)?.as_deref())?),
        ("state", Some(body)) => Checked::Answer(opening::state(&read(body)?)?),
        ("import", Some(body)) => Checked::Answer(import::import(&read(body)?)?),
        ("export", Some(body)) => Checked::Answer(import::export(&read(body)?)?),
        ("move", Some(body)) => Checked::Job(Box::new(play::think(
            settings,
            Ask::Move,
            read(body)?,
            fresh_seed,
        )?)),
        ("hint", Some(body)) => Checked::Job(Box::new(play::think(
            settings,
            Ask::Hint,
            read(body)?,
            fresh_seed,
        )?)),
        ("explain", Some(body)) => Checked::Job(Box::new(play::think(
            settings,
            Ask::Explain,
            read(body)?,
            fresh_seed,
        )?)),
        ("opening", Some(body)) => Checked::Job(Box::new(opening::computer_opening(
            settings,
            read(body)?,
            fresh_seed,
        )?)),
        ("weights", Some(body)) => play::weights(settings, &read::<game::GameRequest>(body)?)?,
        ("solve", Some(body)) => exact::solve(settings, &read(body)?)?,
        ("tree", Some(body)) => exact::tree(settings, &read(body)?)?,
        ("review", Some(body)) => Checked::Job(Box::new(review::review(settings, &read(body)?)?)),
        _ => {
            return Err(ApiError::NotFound(format!(
                "there is no {} request \"{name}\" here: rooms and shared games are the server's",
                if body.is_some() { "POST" } else { "GET" }
            )))
        }
    };
    match checked {
        Checked::Answer(answer) => Ok(answer),
        Checked::Job(job) => job.run(context),
    }
}

/// A request body read into the request type, refused as the server refuses it.
fn read<T: DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    serde_json::from_str(body).map_err(|e| ApiError::bad_body(&e))
}

/// `bots`' query: nothing, or `rules=R`.
fn rules_query(query: &str) -> Result<Option<String>, ApiError> {
    let mut rules = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if analysis::percent_decode(name)? != "rules" || rules.is_some() {
            return Err(ApiError::BadQuery(
                "the bots are asked for with nothing or with rules=R".into(),
            ));
        }
        rules = Some(analysis::percent_decode(value)?);
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A clock that never moves: the requests below never run out of time.
    struct Still;
    impl mnk_engine::Clock for Still {
        fn now_ms(&self) -> u64 {
            0
        }
    }

    fn ask(path: &str, body: Option<Json>) -> Reply {
        let context = Context {
            clock: Arc::new(Still),
            stop: None,
        };
        let body = body.map(|b| b.to_string());
        respond(&Settings::default(), &context, 7, path, body.as_deref())
    }

    #[test]
    fn requests_are_answered_by_their_path() {
        let state = ask("state", Some(json!({"rules": "3x3x3", "moves": ["b2"]})));
        assert_eq!(state.status, 200);
        assert_eq!(state.body["to_move"], "O");
        let moved = ask(
            "move",
            Some(json!({"rules": "3x3x3", "moves": ["b2"], "opponent": {"bot": "perfect"}})),
        );
        assert_eq!(moved.status, 200, "{:?}", moved.body);
        assert_eq!(moved.body["state"]["ply"], 2);
        let bots = ask("bots?rules=renju", None);
        assert_eq!(bots.status, 200);
        assert!(bots.body["bots"].as_array().is_some_and(|b| !b.is_empty()));
        assert_eq!(ask("presets", None).status, 200);
    }

    #[test]
    fn refusals_carry_the_servers_codes_and_statuses() {
        let code = |reply: Reply| (reply.status, reply.body["error"]["code"].clone());
        assert_eq!(
            code(ask("state", Some(json!({"rules": 5})))),
            (422, json!("bad_rules"))
        );
        assert_eq!(
            code(ask("state", Some(json!([])))),
            (400, json!("bad_json"))
        );
        assert_eq!(
            code(ask("rooms", Some(json!({})))),
            (404, json!("not_found"))
        );
        assert_eq!(
            code(ask("bots?colour=red", None)),
            (400, json!("bad_query"))
        );
        let over = json!({"rules": "3x3x3", "moves": ["a1", "a2", "b1", "b2", "c1"]});
        assert_eq!(code(ask("hint", Some(over))), (409, json!("game_over")));
    }

    /// A game drawn because no line can be completed is over for every request (`state` said
    /// draw while `weights` and `solve` answered as if it went on): every drawn position of
    /// 3×1×3, 5×1×3 and 6×1×3.
    #[test]
    fn a_dead_draw_is_over_everywhere() {
        let mut drawn = 0;
        for width in [3, 5, 6] {
            let rules = json!({"width": width, "height": 1, "k": 3});
            let mut games = vec![Vec::<String>::new()];
            while let Some(moves) = games.pop() {
                let game = json!({"rules": rules, "moves": moves});
                let state = ask("state", Some(game.clone()));
                match state.body["outcome"]["status"].as_str() {
                    Some("draw") => drawn += 1,
                    Some("ongoing") => {
                        for x in 0..width {
                            let cell = format!("{x},0");
                            if !moves.contains(&cell) {
                                let mut next = moves.clone();
                                next.push(cell);
                                games.push(next);
                            }
                        }
                        continue;
                    }
                    _ => continue,
                }
                assert_eq!(ask("hint", Some(game.clone())).status, 409, "{game}");
                let mut against = game.clone();
                against["opponent"] = json!({"level": 1});
                assert_eq!(ask("move", Some(against)).status, 409, "{game}");
                assert_eq!(ask("solve", Some(game.clone())).status, 409, "{game}");
                let weights = ask("weights", Some(game.clone()));
                assert_eq!(weights.body["weights"], json!([]), "{game}");
            }
        }
        assert!(drawn >= 46, "{drawn} drawn positions");
    }
}
