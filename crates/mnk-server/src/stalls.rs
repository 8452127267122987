//! Writes that cannot stall for ever: every connection's writes are bounded in time.
//!
//! A client that stops reading (a closed laptop lid, a tab in the background on a poor network,
//! or someone holding sockets open on purpose) fills the kernel's send buffer, and every write to
//! it then waits. Without a bound, the task writing (an HTTP response, a room's socket) waits for
//! ever and holds its descriptor, its socket slot and the bytes the kernel has queued (some 1.6 MB
//! a socket on Linux, which grows the buffer while the window is shut). [`WriteDeadline`] fails a
//! write that has made no progress for its timeout with [`std::io::ErrorKind::TimedOut`], and a
//! connection dropped while a write is stalled is *reset* (`SO_LINGER` 0) rather than closed: a
//! graceful close would leave the unsent bytes queued in the kernel, still waiting for a reader
//! that is not there, for minutes. The bound is on progress, not on a whole response, so a slow
//! but live client is served at its own pace.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

/// How long a write may make no progress before the connection is given up, unless
/// [`crate::ConnectionLimits::write_timeout`] says otherwise.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// A stream that can be told to reset, rather than close gracefully, when dropped.
pub trait Reset {
    /// Makes the close abortive: what is still queued to send is dropped with the connection.
    fn reset_on_close(&self);
}

impl Reset for TcpStream {
    fn reset_on_close(&self) {
        // Failing leaves a graceful close: the kernel then gives up on its own, later.
        let _ = self.set_zero_linger();
    }
}

impl Reset for tokio::io::DuplexStream {
    fn reset_on_close(&self) {}
}

/// A stream whose writes fail once they have made no progress for `timeout` (see the module
/// documentation); reads are untouched.
#[derive(Debug)]
pub struct WriteDeadline<S: Reset> {
    inner: S,
    timeout: Duration,
    /// Armed when a write is refused for want of room, and disarmed by any progress: the write
    /// gives up when it fires.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S: Reset> WriteDeadline<S> {
    /// Bounds the writes to `inner` by `timeout`.
    pub fn new(inner: S, timeout: Duration) -> WriteDeadline<S> {
        WriteDeadline {
            inner,
            timeout,
            stalled: None,
        }
    }

    /// What a write that returned `poll` means under the deadline.
    fn judge<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let timeout = self.timeout;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(Instant::now() + timeout)));
        if stalled.as_mut().poll(cx).is_pending() {
            return Poll::Pending;
        }
        self.inner.reset_on_close();
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            format!(
                "the client read nothing for {} s: connection given up",
                timeout.as_secs_f64()
            ),
        )))
    }
}

impl<S: Reset> Drop for WriteDeadline<S> {
    fn drop(&mut self) {
        // Dropped while a write waits for room: what is queued will never be read.
        if self.stalled.is_some() {
            self.inner.reset_on_close();
        }
    }
}

impl<S: Reset + AsyncRead + Unpin> AsyncRead for WriteDeadline<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: Reset + AsyncWrite + Unpin> AsyncWrite for WriteDeadline<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.judge(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.judge(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.judge(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_shutdown(cx);
        self.judge(cx, poll)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    const TIMEOUT: Duration = Duration::from_millis(300);

    #[tokio::test]
    async fn a_write_nobody_reads_fails_after_the_timeout() {
        let (near, _far) = tokio::io::duplex(64);
        let mut near = WriteDeadline::new(near, TIMEOUT);
        let start = Instant::now();
        let error = near.write_all(&[7; 1000]).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert!(start.elapsed() >= TIMEOUT, "{:?}", start.elapsed());
        assert!(start.elapsed() < TIMEOUT * 3, "{:?}", start.elapsed());
    }

    #[tokio::test]
    async fn a_slow_reader_that_keeps_reading_is_served() {
        // 64 bytes every 100 ms: far slower than the writer, but never silent for the timeout.
        let (near, mut slow) = tokio::io::duplex(64);
        let mut near = WriteDeadline::new(near, TIMEOUT);
        let reader = tokio::spawn(async move {
            let mut buf = [0; 64];
            let mut total = 0;
            while total < 1000 {
                tokio::time::sleep(TIMEOUT / 3).await;
                total += slow.read(&mut buf).await.unwrap();
            }
            total
        });
        near.write_all(&[7; 1000]).await.unwrap();
        assert_eq!(reader.await.unwrap(), 1000);
    }
}
