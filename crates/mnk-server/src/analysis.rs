//! The analysis board's endpoint: `GET /api/analyse` streams the engine's thinking about a
//! position as server-sent events, so that the page can draw the best lines as they deepen.
//!
//! The request is checked like every other before anything is streamed (its query, the rules,
//! the moves, the game not over), and the search must get an engine slot from the
//! [`crate::pool::EnginePool`] under the usual per-client limits, so every refusal is still a
//! JSON error with its status. Only then does the response start: an `info` event after each
//! completed iteration (the lines of [`mnk_engine::search::Engine::analyse_lines`]), a
//! `progress` event every [`PROGRESS_EVERY`] in between (nodes read from the engine's node
//! meter), and a last `done` event when the time is up or the value is proven, after which the
//! stream ends. The stream holds its slot as long as the search runs.
//!
//! The search stops when nobody listens: the response body raises the job's stop flag when it
//! is dropped, which hyper does as soon as it sees the client's connection close (it watches
//! for that while a response is being streamed), so the slot frees within a few milliseconds.
//! The job's messages go through an unbounded channel, bounded in practice by the engine's
//! [`MAX_DEPTH`](mnk_engine::search::MAX_DEPTH) iterations; the search itself uses two fixed
//! tables of [`ANALYSIS_HASH_MB`] each.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderValue, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use hyper::body::Frame;
use mnk_core::{Player, Position, Rules};
use mnk_engine::search::{Engine, MultiPv, MIN_K};
use mnk_engine::{BotError, Deadline, Limits};
use serde_json::{json, Value as Json};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::{Interval, MissedTickBehavior};

use crate::clients::Client;
use crate::error::ApiError;
use crate::game::{self, cell_json, cell_names};
use crate::play::{value_json, AppState};
use crate::pool::EnginePool;

/// Lines searched when the query does not say.
pub const DEFAULT_LINES: usize = 3;
/// The most lines an analysis searches.
pub const MAX_LINES: usize = 5;
/// How long an analysis thinks when the query does not say, and the most it may.
pub const MAX_ANALYSIS: Duration = Duration::from_secs(30);
/// Time between `progress` events.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(250);
/// Size of each of the analysis engine's two transposition tables, in megabytes.
pub const ANALYSIS_HASH_MB: usize = 16;

/// The routes of this module.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/analyse", get(analyse))
}

/// What the query asks for.
#[derive(Debug, PartialEq)]
struct AnalyseQuery {
    rules: String,
    moves: Vec<String>,
    lines: usize,
    budget: Duration,
}

impl AnalyseQuery {
    /// Reads `rules=…&moves=h8.i9&multipv=3&max_ms=30000` (percent-encoded as forms and
    /// `URLSearchParams` write it); `rules` is required, the rest optional.
    fn parse(query: &str) -> Result<AnalyseQuery, ApiError> {
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
    fn position(&self) -> Result<Position, ApiError> {
        let moves: Vec<Json> = self.moves.iter().map(|m| Json::from(m.as_str())).collect();
        game::position(&Json::from(self.rules.as_str()), &moves)
    }
}

/// Decodes `%XX` escapes and `+` (a space in forms).
fn percent_decode(text: &str) -> Result<String, ApiError> {
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

/// What the search job tells the stream, in order.
enum Message {
    /// The job has its slot: the stream may start.
    Started {
        stop: Arc<AtomicBool>,
        start: Instant,
    },
    /// An iteration is complete.
    Info(Json),
    /// The search ended: the `done` event.
    Done(Json),
    /// The job failed: before [`Message::Started`], the request's error; after, an `error`
    /// event.
    Failed(ApiError),
}

/// Aborts the task driving the pool request when dropped: the pool then raises the job's stop
/// flag and releases the client's admission (for a handler dropped before the stream started).
struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// `GET /api/analyse`.
async fn analyse(
    State(app): State<AppState>,
    client: Client,
    uri: Uri,
) -> Result<Response, ApiError> {
    let query = AnalyseQuery::parse(uri.query().unwrap_or(""))?;
    let pos = query.position()?;
    if game::finished(&pos) {
        return Err(BotError::GameOver.into());
    }
    if pos.rules().k() < MIN_K {
        return Err(ApiError::Unsupported(format!(
            "the analysis board needs k = {MIN_K} or more in a row: games of k = {} are decided within a few moves",
            pos.rules().k()
        )));
    }
    let (sender, mut messages) = mpsc::unbounded_channel();
    let meter = Arc::new(AtomicU64::new(0));
    let rules = *pos.rules();
    let task = AbortOnDrop(tokio::spawn(run(
        app.pool.clone(),
        app.search_threads,
        client,
        pos,
        query,
        meter.clone(),
        sender,
    )));
    let (stop, start) = match messages.recv().await {
        Some(Message::Started { stop, start }) => (stop, start),
        Some(Message::Failed(error)) => return Err(error),
        _ => {
            return Err(ApiError::Internal(
                "the analysis ended before it began".into(),
            ))
        }
    };
    tracing::debug!(%rules, "analysis started");
    let mut progress = tokio::time::interval_at(
        tokio::time::Instant::from_std(start) + PROGRESS_EVERY,
        PROGRESS_EVERY,
    );
    progress.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let stream = EventStream {
        messages,
        progress,
        meter,
        start,
        stop,
        _task: task,
        ended: false,
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/event-stream"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            // Proxies such as nginx would otherwise hold events back in their buffers.
            (
                header::HeaderName::from_static("x-accel-buffering"),
                HeaderValue::from_static("no"),
            ),
        ],
        Body::new(stream),
    )
        .into_response())
}

/// Runs the analysis in the pool, then tells the stream how it ended.
async fn run(
    pool: Arc<EnginePool>,
    threads: usize,
    client: Client,
    pos: Position,
    query: AnalyseQuery,
    meter: Arc<AtomicU64>,
    sender: mpsc::UnboundedSender<Message>,
) {
    let job_sender = sender.clone();
    let result = pool
        .run(client, move |stop: Arc<AtomicBool>| {
            let start = Instant::now();
            let _ = job_sender.send(Message::Started {
                stop: stop.clone(),
                start,
            });
            let deadline = Deadline::from_now(query.budget);
            let limits = Limits {
                deadline: Some(deadline.clone()),
                stop: Some(stop.clone()),
                ..Limits::default()
            };
            let rules = *pos.rules();
            let to_move = pos.to_move();
            let mut engine = Engine::with_threads(ANALYSIS_HASH_MB, threads);
            engine.set_node_meter(Some(meter));
            let found = engine.analyse_lines(&pos, &limits, query.lines, &mut |m| {
                let _ = job_sender.send(Message::Info(lines_json(&rules, to_move, m, start)));
            })?;
            // mnk-core referees the engine's lines too: an illegal one is our bug.
            for line in &found.lines {
                let mut after = pos.clone();
                for &cell in &line.pv {
                    after.try_play(cell).map_err(|e| {
                        ApiError::Internal(format!("the engine's line {line:?} is illegal: {e}"))
                    })?;
                }
            }
            let reason = if stop.load(Ordering::Relaxed) {
                "stopped"
            } else if found.lines[0].value.is_proven() {
                "proven"
            } else if deadline.passed() {
                "time"
            } else {
                "depth"
            };
            let mut done = lines_json(&rules, to_move, &found, start);
            done["reason"] = json!(reason);
            Ok(done)
        })
        .await;
    let _ = sender.send(match result {
        Ok(done) => Message::Done(done),
        Err(error) => Message::Failed(error),
    });
}

/// An `info` (or `done`) event's data: the lines of an iteration, for the side to move.
fn lines_json(rules: &Rules, to_move: Player, found: &MultiPv, start: Instant) -> Json {
    let lines: Vec<Json> = found
        .lines
        .iter()
        .map(|line| {
            json!({
                "move": cell_json(rules, line.pv[0]),
                "value": value_json(line.value),
                "pv": cell_names(rules, &line.pv),
            })
        })
        .collect();
    json!({
        "depth": found.depth,
        "nodes": found.nodes,
        "time_ms": start.elapsed().as_millis() as u64,
        "to_move": to_move,
        "lines": lines,
    })
}

/// The response body: the job's messages as events, with `progress` events between them.
/// Dropping it (the client went away) stops the search.
struct EventStream {
    messages: mpsc::UnboundedReceiver<Message>,
    progress: Interval,
    meter: Arc<AtomicU64>,
    start: Instant,
    stop: Arc<AtomicBool>,
    _task: AbortOnDrop,
    ended: bool,
}

impl Drop for EventStream {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// One server-sent event (`data` is one line: JSON as serde_json writes it has no newline).
fn event(name: &str, data: &Json) -> Frame<Bytes> {
    Frame::data(Bytes::from(format!("event: {name}\ndata: {data}\n\n")))
}

impl hyper::body::Body for EventStream {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        if this.ended {
            return Poll::Ready(None);
        }
        loop {
            match this.messages.poll_recv(cx) {
                Poll::Ready(Some(Message::Info(info))) => {
                    return Poll::Ready(Some(Ok(event("info", &info))));
                }
                Poll::Ready(Some(Message::Done(done))) => {
                    this.ended = true;
                    return Poll::Ready(Some(Ok(event("done", &done))));
                }
                Poll::Ready(Some(Message::Failed(error))) => {
                    this.ended = true;
                    let body: Json = serde_json::from_str(&error.body()).unwrap_or(Json::Null);
                    return Poll::Ready(Some(Ok(event("error", &body))));
                }
                // Read by the handler already; nothing else comes twice.
                Poll::Ready(Some(Message::Started { .. })) => continue,
                Poll::Ready(None) => {
                    this.ended = true;
                    return Poll::Ready(None);
                }
                Poll::Pending => break,
            }
        }
        if this.progress.poll_tick(cx).is_ready() {
            let progress = json!({
                "nodes": this.meter.load(Ordering::Relaxed),
                "time_ms": this.start.elapsed().as_millis() as u64,
            });
            return Poll::Ready(Some(Ok(event("progress", &progress))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.ended
    }
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
