//! The server tests that time the whole process, read its memory or set its global log: one
//! binary for the four files (each a module), so the test build links the server once for them,
//! and one test at a time inside it ([`one_at_a_time`]), so no other test's load falls inside
//! their measurements. The other socket tests are in `wire`, which runs its tests side by side.

mod common;

mod log_lines;
mod shutdown;
mod slow_clients;
mod slow_readers;

/// Held for the whole of a test of this binary: the tests run one after another, whatever the
/// harness's threads. An async lock, as the tests hold it across their awaits (each test has a
/// runtime of its own; tokio's lock serves any runtime, and a failing test does not poison it).
pub async fn one_at_a_time() -> tokio::sync::MutexGuard<'static, ()> {
    static ALONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    ALONE.lock().await
}
