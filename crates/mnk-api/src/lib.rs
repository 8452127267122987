//! # mnk-api — what the page's engine requests compute, with no HTTP
//!
//! Every engine request of the page (`docs/api.md`) is answered here: the state of a game, the
//! computer's move, a hint, the computer's move explained, the computer's part of a swap
//! opening, the heat map, exact values, the game-tree explorer, the analysis board's
//! iterations, import and export, the lists of presets and bots. Two places answer them from
//! this same code: `mnk-server` (axum around it, in its engine pool) and `mnk-wasm` (compiled to
//! WebAssembly, in the page's Web Worker), so the page gets the same JSON, the same refusals and
//! the same moves from either.
//!
//! A request is answered in two steps, because thinking must happen where the caller can bound
//! it: the *checks* (rules, moves, opponent) run at once and refuse bad input with an
//! [`ApiError`]; what is left is a [`Job`] that thinks within [`Job::budget`], stopped by the
//! caller's flag, on the caller's clock ([`Context`]). Nothing here reads a clock, starts a
//! thread or draws a random number of its own, so it runs unchanged in WebAssembly.

pub mod analysis;
pub mod books;
pub mod error;
pub mod exact;
pub mod explain;
pub mod game;
pub mod import;
pub mod opening;
pub mod play;
pub mod respond;
pub mod review;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use mnk_engine::review::Memo;
use mnk_engine::{Clock, Deadline, Limits};
use serde_json::Value as Json;

pub use error::{ApiError, Words};
pub use respond::{respond, Reply};

/// What the answering side allows and keeps: think times, the books exact values come from, and
/// the review's latest values.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The longest a request may ask the computer to think (`time_ms` is capped to this).
    pub max_think: Duration,
    /// How long the computer thinks when a request does not say.
    pub default_think: Duration,
    /// Threads each search of the engine takes (Lazy SMP; 1 where threads do not exist).
    pub search_threads: usize,
    /// The solved books `solve` and `tree` answer from before asking the solver.
    pub books: books::Books,
    /// The review's latest values, shared by every review this side answers: a position two
    /// stretches share (or a review asked again) is searched once.
    pub review_memo: Arc<Memo>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            max_think: Duration::from_secs(10),
            default_think: Duration::from_secs(1),
            search_threads: 1,
            books: books::Books::none(),
            review_memo: Arc::default(),
        }
    }
}

impl Settings {
    /// The thinking time a request gets: its `time_ms` capped, or the default.
    #[must_use]
    pub fn think_time(&self, time_ms: Option<u64>) -> Duration {
        self.capped(time_ms, self.default_think)
    }

    /// The solving time a request gets: its `time_ms` capped, or the cap.
    #[must_use]
    pub fn solve_time(&self, time_ms: Option<u64>) -> Duration {
        self.capped(time_ms, self.max_think)
    }

    /// `time_ms` (or `absent` when not given) within 1 ms and the cap.
    fn capped(&self, time_ms: Option<u64>, absent: Duration) -> Duration {
        time_ms
            .map_or(absent, Duration::from_millis)
            .clamp(Duration::from_millis(1), self.max_think)
    }
}

/// Where a job runs: the caller's clock and the flag that stops it.
#[derive(Clone)]
pub struct Context {
    /// The clock deadlines and reported times are read on (the system's on the server,
    /// `performance.now()` in the worker).
    pub clock: Arc<dyn Clock>,
    /// Raised by the caller to stop the search (the client went away); none where the caller
    /// stops a job another way (the worker is terminated).
    pub stop: Option<Arc<AtomicBool>>,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("now_ms", &self.clock.now_ms())
            .field("stop", &self.stop)
            .finish()
    }
}

impl Context {
    /// The limits of a search of `budget` from now.
    #[must_use]
    pub fn limits(&self, budget: Duration) -> Limits {
        Limits {
            deadline: Some(self.deadline(budget)),
            stop: self.stop.clone(),
            ..Limits::default()
        }
    }

    /// `budget` from now on the context's clock.
    #[must_use]
    pub fn deadline(&self, budget: Duration) -> Deadline {
        Deadline::after(self.clock.clone(), budget)
    }

    /// Milliseconds on the context's clock.
    #[must_use]
    pub fn now_ms(&self) -> u64 {
        self.clock.now_ms()
    }
}

/// A checked request that is left to think: run it in an engine slot within its budget.
#[derive(Debug)]
pub enum Job {
    /// The computer's move, a hint, or the move explained ([`play`]).
    Think(play::ThinkJob),
    /// The computer's part of a swap opening ([`opening`]).
    Opening(opening::OpeningJob),
    /// The heat map ([`play`]).
    Weights(play::WeightsJob),
    /// Exact values ([`exact`]).
    Solve(exact::SolveJob),
    /// The game-tree explorer ([`exact`]).
    Tree(exact::TreeJob),
    /// A stretch of a game reviewed ([`review`]).
    Review(review::ReviewJob),
}

impl Job {
    /// How long the job may think.
    #[must_use]
    pub fn budget(&self) -> Duration {
        match self {
            Job::Think(job) => job.budget,
            Job::Opening(job) => job.budget,
            Job::Weights(job) => job.budget,
            Job::Solve(job) => job.budget,
            Job::Tree(job) => job.budget,
            Job::Review(job) => job.budget,
        }
    }

    /// Thinks and answers the endpoint's JSON.
    pub fn run(self, context: &Context) -> Result<Json, ApiError> {
        match self {
            Job::Think(job) => job.run(context),
            Job::Opening(job) => job.run(context),
            Job::Weights(job) => job.run(context),
            Job::Solve(job) => job.run(context),
            Job::Tree(job) => job.run(context),
            Job::Review(job) => job.run(context),
        }
    }
}

/// What a request comes to once checked: an answer at once, or a job to run.
#[derive(Debug)]
pub enum Checked {
    /// Answered without thinking (a game over, a book's values, a state).
    Answer(Json),
    /// Left to think.
    Job(Box<Job>),
}
