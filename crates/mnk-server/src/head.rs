//! The first request head of a connection, read and checked before hyper takes the connection.
//!
//! hyper answers a request it cannot parse (a bad request line, a URI or head over its limits)
//! itself, with an empty body. Reading the first head here, with `httparse` (the parser hyper
//! itself uses), lets those refusals be the API's JSON errors with stable codes; a head that
//! parses is handed to hyper untouched, replayed in front of the rest of the stream. Requests
//! after the first on a kept-alive connection are checked by [`crate::api`]'s middleware (URI and
//! head size) and, where they do not parse, by hyper, whose bare answers
//! [`crate::refusals`] rewrites into the same JSON errors. A page's link too long to open is
//! answered with a page instead ([`crate::long_link`]).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;

use crate::error::ApiError;
use crate::long_link;
use crate::wire::{self, MAX_HEADERS, MAX_HEAD_BYTES, MAX_URI_BYTES};

/// What became of a connection's first request head.
#[derive(Debug)]
pub enum FirstHead {
    /// A well-formed head: the stream, replaying what was read.
    Ready(Replayed),
    /// Refused, and the refusal written: close the connection.
    Answered,
    /// The client went away, or sent nothing in time: close the connection.
    Closed,
}

/// A stream that first yields bytes already read from it.
#[derive(Debug)]
pub struct Replayed {
    read: Vec<u8>,
    at: usize,
    stream: TcpStream,
}

/// Reads the first request head within `timeout` and checks it.
pub async fn read_first_head(mut stream: TcpStream, timeout: Duration) -> FirstHead {
    let mut read = Vec::with_capacity(1024);
    let verdict = tokio::time::timeout(timeout, read_head(&mut stream, &mut read)).await;
    let refusal = match verdict {
        Ok(Ok(None)) => {
            return FirstHead::Ready(Replayed {
                read,
                at: 0,
                stream,
            })
        }
        Ok(Ok(Some(refusal))) => refusal,
        Ok(Err(_)) => return FirstHead::Closed,
        // Silent since it connected: nobody to answer.
        Err(_) if read.is_empty() => return FirstHead::Closed,
        Err(_) => ApiError::Timeout(format!(
            "the request head did not arrive within {} s",
            timeout.as_secs()
        )),
    };
    // A link too long to open gets a page a browser shows, not the API's JSON.
    let response = if matches!(refusal, ApiError::UriTooLong(_)) && long_link::is_page_head(&read) {
        long_link::closing_response()
    } else {
        closing_response(&refusal)
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), answer(&mut stream, &response)).await;
    FirstHead::Answered
}

/// Reads until a whole head is in `read`: `None` if it is acceptable, else the refusal.
async fn read_head(stream: &mut TcpStream, read: &mut Vec<u8>) -> io::Result<Option<ApiError>> {
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        read.extend_from_slice(&chunk[..n]);
        match check(read) {
            Check::Complete => return Ok(None),
            Check::Refused(refusal) => return Ok(Some(refusal)),
            Check::Partial => {}
        }
    }
}

/// What the bytes so far say about a head.
#[derive(Debug)]
enum Check {
    Complete,
    Partial,
    Refused(ApiError),
}

/// Checks a head that may not have fully arrived.
fn check(read: &[u8]) -> Check {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    let parsed = request.parse(read);
    let target_len = request.path.map_or(0, str::len);
    let line_len = read.iter().position(|&b| b == b'\n').unwrap_or(read.len());
    if target_len > MAX_URI_BYTES || (request.path.is_none() && line_len > MAX_URI_BYTES + 64) {
        return Check::Refused(uri_too_long());
    }
    match parsed {
        Ok(httparse::Status::Complete(len)) if len <= MAX_HEAD_BYTES => Check::Complete,
        Ok(httparse::Status::Partial) if read.len() <= MAX_HEAD_BYTES => Check::Partial,
        Ok(_) | Err(httparse::Error::TooManyHeaders) => Check::Refused(head_too_large()),
        Err(e) => Check::Refused(not_http(&e.to_string())),
    }
}

/// The refusal of a request target over [`MAX_URI_BYTES`].
pub fn uri_too_long() -> ApiError {
    ApiError::UriTooLong(format!(
        "the request target is longer than {} KiB",
        MAX_URI_BYTES / 1024
    ))
}

/// The refusal of a request head over [`MAX_HEAD_BYTES`] or [`MAX_HEADERS`].
pub fn head_too_large() -> ApiError {
    ApiError::HeadersTooLarge(format!(
        "the request head is over {} KiB or {MAX_HEADERS} header fields",
        MAX_HEAD_BYTES / 1024
    ))
}

/// The refusal of bytes that are not an HTTP/1 request head; `detail` says what is wrong.
pub fn not_http(detail: &str) -> ApiError {
    ApiError::BadRequest(format!("this is not an HTTP/1 request: {detail}"))
}

/// `refusal` as the bytes of a whole HTTP response that closes the connection.
pub fn closing_response(refusal: &ApiError) -> Vec<u8> {
    wire::closing_response(refusal.status(), "application/json", &refusal.body())
}

/// Writes a whole HTTP response that closes the connection.
async fn answer(stream: &mut TcpStream, response: &[u8]) -> io::Result<()> {
    stream.write_all(response).await?;
    stream.shutdown().await
}

impl crate::stalls::Reset for Replayed {
    fn reset_on_close(&self) {
        self.stream.reset_on_close();
    }
}

impl AsyncRead for Replayed {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.at < self.read.len() {
            let n = buf.remaining().min(self.read.len() - self.at);
            let at = self.at;
            buf.put_slice(&self.read[at..at + n]);
            self.at += n;
            if self.at == self.read.len() {
                self.read = Vec::new();
                self.at = 0;
            }
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Replayed {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(head: &[u8]) -> &'static str {
        match check(head) {
            Check::Complete => "complete",
            Check::Partial => "partial",
            Check::Refused(e) => e.code(),
        }
    }

    #[test]
    fn heads_are_sorted_into_complete_partial_and_refused() {
        assert_eq!(code(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "complete");
        assert_eq!(code(b"GET / HTTP/1.1\r\nHost: x\r\n"), "partial");
        assert_eq!(code(b"GET / HT"), "partial");
        assert_eq!(code(b"\x00\x00\x00\r\n\r\n"), "bad_request");
        assert_eq!(code(b"GET / HTTP/1.1\r\nBad Header\r\n\r\n"), "bad_request");
        let long_target = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_URI_BYTES));
        assert_eq!(code(long_target.as_bytes()), "uri_too_long");
        let unfinished_line = format!("GET /{}", "a".repeat(MAX_URI_BYTES + 100));
        assert_eq!(code(unfinished_line.as_bytes()), "uri_too_long");
        let many: String = (0..=MAX_HEADERS).map(|i| format!("X-{i}: 1\r\n")).collect();
        assert_eq!(
            code(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()),
            "headers_too_large"
        );
        let big = format!("GET / HTTP/1.1\r\nX: {}\r\n", "b".repeat(MAX_HEAD_BYTES));
        assert_eq!(code(big.as_bytes()), "headers_too_large");
        let whole = format!("{big}\r\n");
        assert_eq!(code(whole.as_bytes()), "headers_too_large");
    }
}
