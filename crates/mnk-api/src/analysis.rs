//! The analysis board: the engine's lines about a position, one report after each completed
//! iteration (the lines of [`Engine::analyse_lines`]), then a last report when the time is up
//! or the value is proven. The server streams the reports as server-sent events
//! (`GET /api/analyse`), the worker posts them to the page as messages; both read the same query
//! and run the same search here.
//!
//! The search uses two fixed tables of [`ANALYSIS_HASH_MB`] each.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use mnk_core::{Player, Position, Rules};
use mnk_engine::search::{Engine, MultiPv, MIN_K};
use serde_json::{json, Value as Json};

use crate::error::ApiError;
use crate::game::value_json;
use crate::game::{self, cell_json, cell_names};
use crate::{Context, Settings};

/// Lines searched when the query does not say.
pub const DEFAULT_LINES: usize = 3;
/// The most lines an analysis searches.
pub const MAX_LINES: usize = 5;
/// How long an analysis thinks when the query does not say, and the most it may.
pub const MAX_ANALYSIS: Duration = Duration::from_secs(30);
/// Size of each of the analysis engine's two transposition tables, in megabytes.
pub const ANALYSIS_HASH_MB: usize = 16;

/// What the query asks for.
#[derive(Debug, PartialEq)]
pub struct AnalyseQuery {
    /// The rules in text form.
    pub rules: String,
    /// The moves, as written in the query.
    pub moves: Vec<String>,
    /// How many lines to search.
    pub lines: usize,
    /// How long to think.
    pub budget: Duration,
}

impl AnalyseQuery {
    /// Reads `rules=…&moves=h8.i9&multipv=3&max_ms=30000` (percent-encoded as forms and
    /// `URLSearchParams` write it); `rules` is required, the rest optional.
    pub fn parse(query: &str) -> Result<AnalyseQuery, ApiError> {
        let mut rules = None;
        let mut moves = None;
        let mut lines = None;
        let mut max_ms = None;
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = percent_decode(name)?;
            let value = percent_decode(value)?;
            let slot = match name.as_str() {
                "rules" => &mut rules,
                "moves" => &mut moves,
                "multipv" => &mut lines,
                "max_ms" => &mut max_ms,
                _ => {
                    return Err(ApiError::BadQuery(format!(
                        "unknown query parameter \"{name}\": use rules, moves, multipv and max_ms"
                    )))
                }
            };
            if slot.replace(value).is_some() {
                return Err(ApiError::BadQuery(format!(
                    "the query parameter \"{name}\" is given twice"
                )));
            }
        }
        let rules = rules.ok_or_else(|| {
            ApiError::BadQuery(
                "say which game: rules=15x15x5 (or another rules string, as /api/state takes)"
                    .into(),
            )
        })?;
        let moves = match moves.as_deref() {
            None | Some("") => Vec::new(),
            Some(text) => text.split('.').map(str::to_string).collect(),
        };
        let lines = match lines {
            None => DEFAULT_LINES,
            Some(text) => match text.parse::<usize>() {
                Ok(n @ 1..=MAX_LINES) => n,
                _ => {
                    return Err(ApiError::BadQuery(format!(
                        "multipv={text}: ask for 1 to {MAX_LINES} lines"
                    )))
                }
            },
        };
        let budget = match max_ms {
            None => MAX_ANALYSIS,
            Some(text) => match text.parse::<u64>() {
                Ok(ms) => Duration::from_millis(ms).clamp(Duration::from_millis(1), MAX_ANALYSIS),
                Err(_) => {
                    return Err(ApiError::BadQuery(format!(
                        "max_ms={text}: give the thinking time in whole milliseconds"
                    )))
                }
            },
        };
        Ok(AnalyseQuery {
            rules,
            moves,
            lines,
            budget,
        })
    }

    /// The position to analyse, checked as the POST endpoints check theirs.
    pub fn position(&self) -> Result<Position, ApiError> {
        let moves: Vec<Json> = self.moves.iter().map(|m| Json::from(m.as_str())).collect();
        game::position(&Json::from(self.rules.as_str()), &moves)
    }
}

/// Decodes `%XX` escapes and `+` (a space in forms).
pub(crate) fn percent_decode(text: &str) -> Result<String, ApiError> {
    let bad = || ApiError::BadQuery(format!("{text:?} is not a well-formed query value"));
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = text.get(i + 1..i + 3).ok_or_else(bad)?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// An analysis, checked: the position, how many lines, for how long.
#[derive(Debug)]
pub struct AnalysisJob {
    pos: Position,
    lines: usize,
    threads: usize,
    /// How long the analysis may think.
    pub budget: Duration,
}

/// Checks an analysis query (`rules=…&moves=h8.i9&multipv=3&max_ms=30000`) as the other
/// requests are checked: the query, the rules, the moves, the game not over, a k the engine
/// takes.
pub fn check(settings: &Settings, query: &str) -> Result<AnalysisJob, ApiError> {
    let query = AnalyseQuery::parse(query)?;
    let pos = query.position()?;
    if game::finished(&pos) {
        return Err(ApiError::game_over());
    }
    if pos.rules().k() < MIN_K {
        return Err(ApiError::Unsupported(format!(
            "the analysis board needs k = {MIN_K} or more in a row: games of k = {} are decided within a few moves",
            pos.rules().k()
        )));
    }
    Ok(AnalysisJob {
        pos,
        lines: query.lines,
        threads: settings.search_threads,
        budget: query.budget,
    })
}

impl AnalysisJob {
    /// The rules of the position analysed.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        self.pos.rules()
    }

    /// Searches until the time is up, the value is proven or the context's flag stops it:
    /// `on_info` gets each completed iteration's lines, the answer is the last report with the
    /// `reason` the search ended for. `meter` counts the nodes as they are searched, for
    /// progress reports between iterations.
    pub fn run(
        self,
        context: &Context,
        meter: Option<Arc<AtomicU64>>,
        on_info: &mut dyn FnMut(Json),
    ) -> Result<Json, ApiError> {
        let start = context.now_ms();
        let limits = context.limits(self.budget);
        let rules = *self.pos.rules();
        let to_move = self.pos.to_move();
        let mut engine = Engine::with_threads(ANALYSIS_HASH_MB, self.threads);
        engine.set_node_meter(meter);
        let elapsed = || context.now_ms().saturating_sub(start);
        let found = engine.analyse_lines(&self.pos, &limits, self.lines, &mut |m| {
            on_info(lines_json(&rules, to_move, m, elapsed()));
        })?;
        // mnk-core referees the engine's lines too: an illegal one is our bug.
        for line in &found.lines {
            let mut after = self.pos.clone();
            for &cell in &line.pv {
                after.try_play(cell).map_err(|e| {
                    ApiError::Internal(format!("the engine's line {line:?} is illegal: {e}"))
                })?;
            }
        }
        let stopped = context
            .stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed));
        let reason = if stopped {
            "stopped"
        } else if found.lines[0].value.is_proven() {
            "proven"
        } else if limits.deadline.as_ref().is_some_and(|d| d.passed()) {
            "time"
        } else {
            "depth"
        };
        let mut done = lines_json(&rules, to_move, &found, elapsed());
        done["reason"] = json!(reason);
        Ok(done)
    }
}

/// An `info` (or `done`) event's data: the lines of an iteration, for the side to move.
fn lines_json(rules: &Rules, to_move: Player, found: &MultiPv, time_ms: u64) -> Json {
    let lines: Vec<Json> = found
        .lines
        .iter()
        .map(|line| {
            json!({
                "move": cell_json(rules, line.pv[0]),
                "value": value_json(rules, line.value),
                "pv": cell_names(rules, &line.pv),
            })
        })
        .collect();
    json!({
        "depth": found.depth,
        "nodes": found.nodes,
        "time_ms": time_ms,
        "to_move": to_move,
        "lines": lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_read_with_defaults_and_limits() {
        let q = AnalyseQuery::parse("rules=15x15x5&moves=h8.i9.g7").unwrap();
        assert_eq!(q.rules, "15x15x5");
        assert_eq!(q.moves, ["h8", "i9", "g7"]);
        assert_eq!((q.lines, q.budget), (DEFAULT_LINES, MAX_ANALYSIS));
        let q = AnalyseQuery::parse("rules=15x15x5%2Cexact&moves=&multipv=5&max_ms=99999").unwrap();
        assert_eq!(q.rules, "15x15x5,exact");
        assert!(q.moves.is_empty());
        assert_eq!((q.lines, q.budget), (5, MAX_ANALYSIS));
        let q = AnalyseQuery::parse("moves=0%2C0.-1%2C1&rules=infx5&max_ms=0").unwrap();
        assert_eq!(q.moves, ["0,0", "-1,1"]);
        assert_eq!(q.budget, Duration::from_millis(1));
        for bad in [
            "",
            "moves=h8",
            "rules=15x15x5&multipv=0",
            "rules=15x15x5&multipv=6",
            "rules=15x15x5&multipv=two",
            "rules=15x15x5&max_ms=-1",
            "rules=15x15x5&rules=9x9x5",
            "rules=15x15x5&colour=red",
            "rules=15x15x5%zz",
            "rules=%ff",
        ] {
            let e = AnalyseQuery::parse(bad).unwrap_err();
            assert_eq!(e.code(), "bad_query", "{bad}");
        }
    }

    #[test]
    fn positions_are_checked_as_the_post_endpoints_check_them() {
        let code = |query: &str| {
            AnalyseQuery::parse(query)
                .unwrap()
                .position()
                .map(|_| ())
                .map_err(|e| (e.code(), e.index()))
        };
        assert_eq!(code("rules=15x15x5&moves=h8.i9"), Ok(()));
        assert_eq!(code("rules=15x15x"), Err(("bad_rules", None)));
        assert_eq!(
            code("rules=15x15x5&moves=h8.zz"),
            Err(("bad_cell", Some(1)))
        );
        assert_eq!(
            code("rules=15x15x5&moves=h8.h8"),
            Err(("illegal_move", Some(1)))
        );
        assert_eq!(
            code("rules=3x3x3&moves=a1.a2.b1.b2.c1.c2"),
            Err(("game_over", Some(5)))
        );
    }
}
