//! The analysis board's endpoint: `GET /api/analyse` streams the engine's thinking about a
//! position as server-sent events, so that the page can draw the best lines as they deepen. The
//! query and the search are mnk-api's ([`mnk_api::analysis`]), which the page's worker runs too.
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
//! [`MAX_DEPTH`](mnk_engine::search::MAX_DEPTH) iterations.

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
use mnk_api::analysis::AnalysisJob;
use mnk_engine::SystemClock;
use serde_json::{json, Value as Json};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::{Interval, MissedTickBehavior};

use crate::clients::Client;
use crate::error::ApiError;
use crate::play::AppState;
use crate::pool::EnginePool;

/// Time between `progress` events.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// The routes of this module.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/analyse", get(analyse))
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
    let job = mnk_api::analysis::check(&app.settings, uri.query().unwrap_or(""))?;
    let (sender, mut messages) = mpsc::unbounded_channel();
    let meter = Arc::new(AtomicU64::new(0));
    let rules = *job.rules();
    let task = AbortOnDrop(tokio::spawn(run(
        app.pool.clone(),
        client,
        job,
        meter.clone(),
        sender,
    )));
    let (stop, start) = match messages.recv().await {
        Some(Message::Started { stop, start }) => (stop, start),
        Some(Message::Failed(error)) => return Err(error),
        _ => return Err(ApiError::internal("the analysis ended before it began")),
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
    client: Client,
    job: AnalysisJob,
    meter: Arc<AtomicU64>,
    sender: mpsc::UnboundedSender<Message>,
) {
    let job_sender = sender.clone();
    let result = pool
        .run(client, move |stop: Arc<AtomicBool>| {
            let _ = job_sender.send(Message::Started {
                stop: stop.clone(),
                start: Instant::now(),
            });
            let context = mnk_api::Context {
                clock: Arc::new(SystemClock::new()),
                stop: Some(stop),
            };
            Ok(job.run(&context, Some(meter), &mut |info| {
                let _ = job_sender.send(Message::Info(info));
            })?)
        })
        .await;
    let _ = sender.send(match result {
        Ok(done) => Message::Done(done),
        Err(error) => Message::Failed(error),
    });
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
