//! # mnk-wasm — the page's engine, on the player's device
//!
//! mnk-api compiled to WebAssembly and run in a dedicated Web Worker (`web/engine-worker.js`):
//! the page sends it the requests it would send the server (`state`, `move`, `hint`, `explain`,
//! `opening`, `weights`, `solve`, `tree`, `import`, `export`, `presets`, `bots`, the analysis
//! stream) and gets the same JSON back, computed by the same code. Rooms stay on the server,
//! which referees them.
//!
//! [`Device`] is the whole of it in plain Rust, tested natively; `ffi` (compiled for WebAssembly
//! only) is the thin layer of exported functions the worker's JavaScript calls, with a clock and
//! an emitter imported from it. The module has no threads (Lazy SMP stays native), reads time
//! only from the worker's `performance.now()`, and is stopped by terminating the worker.

#[cfg(target_family = "wasm")]
mod ffi;

use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use mnk_api::analysis;
use mnk_api::{ApiError, Context, Reply, Settings};
use mnk_engine::bench::run_fixed_depth_on;
use mnk_engine::Clock;
use serde_json::json;

/// The engine as the worker holds it: the limits it answers under and the books it has been
/// given.
#[derive(Debug, Default)]
pub struct Device {
    settings: Settings,
}

impl Device {
    /// An engine with the server's default limits and no books yet.
    #[must_use]
    pub fn new() -> Device {
        Device::default()
    }

    /// Shelves a solved book fetched by the worker (`/books/NAME`), so exact values come from it
    /// as on the server; a malformed one is refused with its name and line.
    pub fn add_book(&mut self, name: &str, text: &str) -> Result<(), String> {
        self.settings
            .books
            .add_shipped(name, text)
            .map_err(|e| e.to_string())
    }

    /// How many rule sets have a book.
    #[must_use]
    pub fn books(&self) -> usize {
        self.settings.books.len()
    }

    /// Answers the request for `path` (`"move"`, `"bots?rules=renju"`) with `body` (`None`: a
    /// GET) as the server would: `{"status": 200, "body": …}` or the refusal with its status.
    #[must_use]
    pub fn respond(
        &self,
        clock: Arc<dyn Clock>,
        fresh_seed: u64,
        path: &str,
        body: Option<&str>,
    ) -> String {
        let context = Context { clock, stop: None };
        envelope(&mnk_api::respond(
            &self.settings,
            &context,
            fresh_seed,
            path,
            body,
        ))
    }

    /// Runs the analysis `query` (as `GET /api/analyse` takes it): `on_info` gets each
    /// iteration's lines as JSON text, `meter` counts the nodes as they are searched (for
    /// progress reports between iterations); the answer is the last report (`{"status": 200,
    /// "body": …}`) or the refusal.
    pub fn analyse(
        &self,
        clock: Arc<dyn Clock>,
        query: &str,
        meter: Option<Arc<AtomicU64>>,
        on_info: &mut dyn FnMut(&str),
    ) -> String {
        let context = Context { clock, stop: None };
        let result = analysis::check(&self.settings, query)
            .and_then(|job| job.run(&context, meter, &mut |info| on_info(&info.to_string())));
        envelope(&Reply::of(result))
    }

    /// The engine's fixed-depth bench (`mnk bench --depth D`, one thread) timed on `clock`:
    /// `{"nodes", "ms", "nps"}`, whose `nodes` must equal the native `Bench` signature.
    #[must_use]
    pub fn bench(&self, clock: &dyn Clock, depth: u32) -> String {
        let report = run_fixed_depth_on(Some(depth), 1, clock);
        json!({ "nodes": report.nodes(), "ms": report.ms(), "nps": report.nps() }).to_string()
    }

    /// The exact value of the empty board `rules` (`mnk solve W H K`: the value and a best move,
    /// not every move's), timed on `clock`: `{"value", "best", "nodes", "ms"}`, or the refusal.
    #[must_use]
    pub fn solve_board(&self, clock: &dyn Clock, rules: &str) -> String {
        let start = clock.now_ms();
        let solved = rules
            .parse::<mnk_core::Rules>()
            .map_err(ApiError::from)
            .and_then(|rules| {
                let pos = mnk_core::Position::new(rules);
                let mut solver = mnk_engine::solver::Solver::for_rules(&rules)?;
                let analysis = solver.solve(&pos, &mnk_engine::Limits::none())?;
                Ok(json!({
                    "value": analysis.value.to_string(),
                    "best": analysis.best.map(|c| rules.cell_name(c)),
                    "nodes": analysis.nodes,
                    "ms": clock.now_ms().saturating_sub(start),
                }))
            });
        envelope(&Reply::of(solved))
    }
}

/// A reply as the worker posts it: status and body together.
fn envelope(reply: &Reply) -> String {
    json!({ "status": reply.status, "body": reply.body }).to_string()
}

/// The answer to a call the worker's JavaScript got wrong (text that is not UTF-8): a bug of
/// ours, answered as such rather than trapping.
#[must_use]
pub fn garbled(what: &str) -> String {
    envelope(&Reply::of(Err(ApiError::Internal(format!(
        "the page's worker passed {what} that is not UTF-8 text"
    )))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// A clock that never moves: nothing here runs out of time.
    struct Still;
    impl Clock for Still {
        fn now_ms(&self) -> u64 {
            0
        }
    }

    fn reply(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn requests_are_answered_with_status_and_body() {
        let device = Device::new();
        let answer = reply(&device.respond(
            Arc::new(Still),
            1,
            "move",
            Some(r#"{"rules":"3x3x3","moves":["a1"],"opponent":{"bot":"perfect"}}"#),
        ));
        assert_eq!(answer["status"], 200);
        assert_eq!(answer["body"]["move"]["cell"], "b2");
        let refused = reply(&device.respond(Arc::new(Still), 1, "state", Some("{")));
        assert_eq!(refused["status"], 400);
        assert_eq!(refused["body"]["error"]["code"], "bad_json");
        let explained = reply(&device.respond(
            Arc::new(Still),
            1,
            "explain",
            Some(r#"{"rules":"3x3x3","moves":["a1"],"opponent":{"bot":"perfect"}}"#),
        ));
        assert_eq!(explained["status"], 200);
        assert_eq!(explained["body"]["move"]["cell"], "b2");
        assert_eq!(explained["body"]["explanation"]["kind"], "perfect");
    }

    #[test]
    fn analysis_reports_each_iteration_then_the_last() {
        let device = Device::new();
        let mut infos = Vec::new();
        let done = reply(&device.analyse(
            Arc::new(mnk_engine::SystemClock::new()),
            "rules=15x15x5&moves=h8.i9.h9&multipv=2&max_ms=200",
            None,
            &mut |info| infos.push(reply(info)),
        ));
        assert_eq!(done["status"], 200, "{done}");
        assert!(!infos.is_empty());
        assert_eq!(infos[0]["lines"].as_array().map(Vec::len), Some(2));
        assert!(done["body"]["depth"].as_u64() > Some(0), "{done}");
    }

    #[test]
    fn a_board_is_solved_as_mnk_solve_solves_it() {
        let answer = reply(&Device::new().solve_board(&Still, "4x3x3"));
        assert_eq!(answer["status"], 200, "{answer}");
        assert_eq!(answer["body"]["value"], "win in 7");
        // As `mnk solve 4 3 3` answers: b2, 69 nodes.
        assert_eq!(answer["body"]["best"], "b2");
        assert_eq!(answer["body"]["nodes"], 69);
        let refused = reply(&Device::new().solve_board(&Still, "15x15x5"));
        assert_eq!(refused["body"]["error"]["code"], "too_large");
    }

    #[test]
    fn books_are_shelved_or_refused_with_their_name() {
        let mut device = Device::new();
        device
            .add_book(
                "books/7x7x5.book",
                include_str!("../../../books/7x7x5.book"),
            )
            .unwrap();
        assert_eq!(device.books(), 1);
        let e = device.add_book("books/bad.book", "nonsense").unwrap_err();
        assert!(e.contains("books/bad.book"), "{e}");
    }
}
