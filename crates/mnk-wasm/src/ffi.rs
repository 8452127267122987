//! The functions the worker's JavaScript calls, and the two it gives the module.
//!
//! Text crosses the boundary through two buffers the module owns: the worker asks for an input
//! buffer of some length ([`mnk_input`]), writes UTF-8 into it, and calls an entry point with
//! the lengths of the parts; the entry point leaves its answer in the output buffer and returns
//! its length, which the worker reads from [`mnk_output`]. So no pointer ever comes back into
//! Rust from outside, and the only unsafe code is the declaration of the imports and the
//! unmangled exports themselves.
//!
//! Imports (module `host`): `now_ms() -> f64`, the worker's `performance.now()`; and
//! `emit(kind, ptr, len)`, called while an analysis runs with each iteration's JSON (kind 0)
//! and, every [`PROGRESS_EVERY_MS`], with the nodes searched so far (kind 1), as the server's
//! stream sends `progress` events. The progress reports ride on the clock: the search reads it
//! every few thousand nodes, which is the only moment the module runs while it thinks.
#![allow(unsafe_code)]

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use mnk_engine::Clock;

use crate::{garbled, Device};

#[link(wasm_import_module = "host")]
extern "C" {
    /// Milliseconds from the worker's `performance.now()`.
    fn now_ms() -> f64;
    /// Posts `len` bytes of UTF-8 JSON at `ptr` to the page: an analysis iteration (`kind` 0) or
    /// its progress (1).
    fn emit(kind: u32, ptr: *const u8, len: usize);
}

/// Time between an analysis' progress reports, as the server's stream sends them.
const PROGRESS_EVERY_MS: u64 = 250;

/// The analysis under way: its node meter, when it started and when progress was last told.
struct Progress {
    meter: Arc<AtomicU64>,
    start_ms: u64,
    told_ms: Cell<u64>,
}

thread_local! {
    static PROGRESS: RefCell<Option<Progress>> = const { RefCell::new(None) };
}

/// Posts `text` to the page as a report of `kind`.
fn post(kind: u32, text: &str) {
    // SAFETY: the host copies the `len` bytes at `ptr` before it returns, while `text` lives.
    unsafe { emit(kind, text.as_ptr(), text.len()) }
}

/// The worker's clock: `performance.now()`, the only time the module reads.
struct HostClock;

impl Clock for HostClock {
    fn now_ms(&self) -> u64 {
        // SAFETY: an import without arguments that only reads the host's clock.
        let ms = unsafe { now_ms() }.max(0.0) as u64;
        PROGRESS.with(|progress| {
            if let Some(p) = progress.borrow().as_ref() {
                if ms >= p.told_ms.get() + PROGRESS_EVERY_MS {
                    p.told_ms.set(ms);
                    let nodes = p.meter.load(Ordering::Relaxed);
                    let time_ms = ms.saturating_sub(p.start_ms);
                    post(1, &format!(r#"{{"nodes":{nodes},"time_ms":{time_ms}}}"#));
                }
            }
        });
        ms
    }
}

/// What the module keeps between calls: the engine and the two buffers.
#[derive(Default)]
struct State {
    device: Device,
    input: Vec<u8>,
    output: Vec<u8>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Makes the input buffer `len` bytes long and answers where it starts, for the worker to write
/// into before its next call.
#[no_mangle]
pub extern "C" fn mnk_input(len: usize) -> *mut u8 {
    STATE.with(|state| {
        let mut state = state.borrow_mut();
        state.input.clear();
        state.input.resize(len, 0);
        state.input.as_mut_ptr()
    })
}

/// Where the last answer starts (its length was the call's result).
#[no_mangle]
pub extern "C" fn mnk_output() -> *const u8 {
    STATE.with(|state| state.borrow().output.as_ptr())
}

/// Answers the request whose path is the input's first `path_len` bytes and whose body the next
/// `body_len` (none when `has_body` is 0); `seed` seeds bots the request gives no seed.
#[no_mangle]
pub extern "C" fn mnk_respond(path_len: usize, body_len: usize, has_body: u32, seed: f64) -> usize {
    STATE.with(|state| {
        let mut state = state.borrow_mut();
        let answer = {
            let input = &state.input;
            let end = (path_len + body_len).min(input.len());
            let path = std::str::from_utf8(&input[..path_len.min(end)]);
            let body = std::str::from_utf8(&input[path_len.min(end)..end]);
            match (path, body) {
                (Ok(path), Ok(body)) => state.device.respond(
                    Arc::new(HostClock),
                    seed as u64,
                    path,
                    (has_body != 0).then_some(body),
                ),
                _ => garbled("a request"),
            }
        };
        finish(&mut state, answer)
    })
}

/// Runs the analysis whose query is the input's first `query_len` bytes, emitting each
/// iteration; answers the last report.
#[no_mangle]
pub extern "C" fn mnk_analyse(query_len: usize) -> usize {
    STATE.with(|state| {
        let mut state = state.borrow_mut();
        let answer = match std::str::from_utf8(&state.input[..query_len.min(state.input.len())]) {
            Ok(query) => {
                let meter = Arc::new(AtomicU64::new(0));
                let start_ms = HostClock.now_ms();
                PROGRESS.with(|p| {
                    *p.borrow_mut() = Some(Progress {
                        meter: meter.clone(),
                        start_ms,
                        told_ms: Cell::new(start_ms),
                    });
                });
                let answer =
                    state
                        .device
                        .analyse(Arc::new(HostClock), query, Some(meter), &mut |info| {
                            post(0, info)
                        });
                PROGRESS.with(|p| p.borrow_mut().take());
                answer
            }
            Err(_) => garbled("an analysis query"),
        };
        finish(&mut state, answer)
    })
}

/// Shelves the book whose name is the input's first `name_len` bytes and whose text the next
/// `text_len`; answers nothing, or why it was refused.
#[no_mangle]
pub extern "C" fn mnk_add_book(name_len: usize, text_len: usize) -> usize {
    STATE.with(|state| {
        let mut state = state.borrow_mut();
        let input = std::mem::take(&mut state.input);
        let end = (name_len + text_len).min(input.len());
        let name = std::str::from_utf8(&input[..name_len.min(end)]);
        let text = std::str::from_utf8(&input[name_len.min(end)..end]);
        let answer = match (name, text) {
            (Ok(name), Ok(text)) => state.device.add_book(name, text).err().unwrap_or_default(),
            _ => "the book is not UTF-8 text".to_string(),
        };
        finish(&mut state, answer)
    })
}

/// The fixed-depth bench to `depth`, one thread: `{"nodes", "ms", "nps"}`.
#[no_mangle]
pub extern "C" fn mnk_bench(depth: u32) -> usize {
    STATE.with(|state| {
        let mut state = state.borrow_mut();
        let answer = state.device.bench(&HostClock, depth);
        finish(&mut state, answer)
    })
}

/// Solves the empty board whose rules (`7x7x5`) are the input's first `rules_len` bytes:
/// `{"status", "body": {"value", "best", "nodes", "ms"}}`.
#[no_mangle]
pub extern "C" fn mnk_solve_board(rules_len: usize) -> usize {
    STATE.with(|state| {
        let mut state = state.borrow_mut();
        let answer = match std::str::from_utf8(&state.input[..rules_len.min(state.input.len())]) {
            Ok(rules) => state.device.solve_board(&HostClock, rules),
            Err(_) => garbled("rules"),
        };
        finish(&mut state, answer)
    })
}

/// Leaves `answer` in the output buffer and answers its length.
fn finish(state: &mut State, answer: String) -> usize {
    state.output = answer.into_bytes();
    state.output.len()
}
