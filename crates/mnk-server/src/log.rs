//! Logging that an attacker cannot turn into a flood: repeated warnings and errors are written at
//! most once per interval, with the number of those left out, and panics are logged in one line.

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// A log line that is written at most once per interval.
#[derive(Debug)]
pub struct Throttled {
    every: Duration,
    last: Mutex<Option<Instant>>,
    left_out: AtomicU64,
}

impl Throttled {
    /// A line written at most once per `every`.
    #[must_use]
    pub const fn new(every: Duration) -> Throttled {
        Throttled {
            every,
            last: Mutex::new(None),
            left_out: AtomicU64::new(0),
        }
    }

    /// Logs `message()` as a warning, unless one was logged within the interval.
    pub fn warn(&self, message: impl FnOnce() -> String) {
        if let Some(left_out) = self.due() {
            tracing::warn!(left_out, "{}", message());
        }
    }

    /// Logs `message()` as an error, unless one was logged within the interval.
    pub fn error(&self, message: impl FnOnce() -> String) {
        if let Some(left_out) = self.due() {
            tracing::error!(left_out, "{}", message());
        }
    }

    /// Whether to write now, and how many lines were left out since the last one.
    fn due(&self) -> Option<u64> {
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = Instant::now();
        if last.is_some_and(|t| now.duration_since(t) < self.every) {
            self.left_out.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        *last = Some(now);
        Some(self.left_out.swap(0, Ordering::Relaxed))
    }
}

/// Replaces the default panic report (a message and, with `RUST_BACKTRACE`, a hundred lines of
/// backtrace on stderr) by one throttled error line. Panics inside requests are caught and
/// answered `internal`; this is the one place they are logged.
pub fn log_panics_in_one_line() {
    static PANICS: OnceLock<Throttled> = OnceLock::new();
    let panics = PANICS.get_or_init(|| Throttled::new(Duration::from_secs(10)));
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let what = panic_message(info.payload());
        panics.error(|| format!("panic{place}: {what} (please report it)"));
    }));
}

/// The text of a panic payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_line_within_the_interval_is_left_out_and_counted() {
        let line = Throttled::new(Duration::from_secs(60));
        assert_eq!(line.due(), Some(0));
        assert_eq!(line.due(), None);
        assert_eq!(line.due(), None);
        *line.last.lock().unwrap() = Some(Instant::now() - Duration::from_secs(61));
        assert_eq!(line.due(), Some(2));
    }
}
