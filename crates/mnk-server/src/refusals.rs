//! hyper's own answers to request heads it cannot parse, rewritten as the API's JSON errors.
//!
//! The first head of a connection is checked before hyper sees it ([`crate::head`]); a later
//! head on a kept-alive connection is parsed by hyper, which answers a malformed one, a target
//! past its limit or a head past its buffer itself: a bare status line, `connection: close`,
//! `content-length: 0`. This stream recognises exactly that response on its way out and writes
//! the JSON error with the stable code in its place. None of the server's own responses can be
//! mistaken for it: they all carry a content type, and no JSON body holds a raw line break.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::error::ApiError;
use crate::head;

/// A stream whose outgoing bare refusals from hyper become JSON errors.
#[derive(Debug)]
pub struct JsonRefusals<S> {
    inner: S,
    /// A rewritten refusal not yet fully written, and how much of it has been.
    pending: Vec<u8>,
    sent: usize,
}

impl<S> JsonRefusals<S> {
    /// Wraps `inner`, a connection's stream.
    pub fn new(inner: S) -> Self {
        JsonRefusals {
            inner,
            pending: Vec::new(),
            sent: 0,
        }
    }
}

/// A bare refusal found in outgoing bytes: where it starts, how long it is, what it means.
#[derive(Debug)]
struct Bare {
    at: usize,
    len: usize,
    refusal: ApiError,
}

/// Makes the API's refusal for one of hyper's bare statuses.
type Refusal = fn() -> ApiError;

/// The status lines hyper sends for a head it cannot parse, and what each means in the API.
const BARE_STATUSES: [(&[u8], Refusal); 3] = [
    (b"HTTP/1.1 400 Bad Request", || {
        head::not_http("its request line or a header does not parse")
    }),
    (b"HTTP/1.1 414 URI Too Long", head::uri_too_long),
    (
        b"HTTP/1.1 431 Request Header Fields Too Large",
        head::head_too_large,
    ),
];

/// What follows the status line in hyper's bare refusal, up to the date.
const BARE_HEADERS: &[u8] = b"\r\nconnection: close\r\ncontent-length: 0\r\n";

/// Finds hyper's bare refusal in `bytes`, if there is one.
fn find_bare(bytes: &[u8]) -> Option<Bare> {
    let mut from = 0;
    while let Some(offset) = find(&bytes[from..], b"HTTP/1.1 4") {
        let at = from + offset;
        let rest = &bytes[at..];
        for (status, refusal) in BARE_STATUSES {
            let Some(after_status) = rest.strip_prefix(status) else {
                continue;
            };
            if !after_status.starts_with(BARE_HEADERS) {
                continue;
            }
            if let Some(end) = find(rest, b"\r\n\r\n") {
                return Some(Bare {
                    at,
                    len: end + 4,
                    refusal: refusal(),
                });
            }
        }
        from = at + 1;
    }
    None
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

impl<S: AsyncWrite + Unpin> JsonRefusals<S> {
    /// Writes what is left of a rewritten refusal.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.pending.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.sent..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        Poll::Ready(Ok(()))
    }

    /// Takes a bare refusal at the start of the outgoing bytes, to write its rewrite instead.
    fn replace(&mut self, bare: Bare) -> usize {
        self.pending = head::closing_response(&bare.refusal);
        self.sent = 0;
        bare.len
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonRefusals<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        match find_bare(buf) {
            None => Pin::new(&mut self.inner).poll_write(cx, buf),
            // What comes before goes out as it is; the refusal is then at the start of a write.
            Some(bare) if bare.at > 0 => Pin::new(&mut self.inner).poll_write(cx, &buf[..bare.at]),
            Some(bare) => Poll::Ready(Ok(self.replace(bare))),
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        // hyper writes a head in one piece, so a refusal lies within one slice.
        let found = bufs
            .iter()
            .enumerate()
            .find_map(|(i, slice)| find_bare(slice).map(|bare| (i, bare)));
        match found {
            None => Pin::new(&mut self.inner).poll_write_vectored(cx, bufs),
            Some((0, bare)) if bare.at == 0 => Poll::Ready(Ok(self.replace(bare))),
            Some((0, bare)) => Pin::new(&mut self.inner).poll_write(cx, &bufs[0][..bare.at]),
            Some((i, _)) => Pin::new(&mut self.inner).poll_write_vectored(cx, &bufs[..i]),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HYPER_400: &[u8] =
        b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\ndate: Mon, 23 Nov 2026 20:39:10 GMT\r\n\r\n";

    #[test]
    fn only_hypers_bare_refusals_are_found() {
        let bare = find_bare(HYPER_400).expect("found");
        assert_eq!((bare.at, bare.len), (0, HYPER_400.len()));
        assert_eq!(bare.refusal.code(), "bad_request");
        let after_a_body = [b"{\"status\":\"ok\"}".as_slice(), HYPER_400].concat();
        assert_eq!(find_bare(&after_a_body).map(|b| b.at), Some(15));
        let ours = head::closing_response(&head::uri_too_long());
        assert!(find_bare(&ours).is_none());
        let json_400 = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
        assert!(find_bare(json_400).is_none());
        assert!(find_bare(
            b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n"
        )
        .is_none());
    }

    #[test]
    fn no_page_file_looks_like_a_bare_refusal() {
        for asset in crate::assets::ASSETS {
            assert!(find_bare(asset.bytes).is_none(), "{}", asset.path);
        }
    }

    #[tokio::test]
    async fn a_bare_refusal_goes_out_as_json_and_the_rest_untouched() {
        use tokio::io::AsyncWriteExt;
        let mut out = JsonRefusals::new(Vec::new());
        out.write_all(b"before;").await.unwrap();
        out.write_all(HYPER_400).await.unwrap();
        out.flush().await.unwrap();
        let written = String::from_utf8(out.inner).unwrap();
        let (before, refusal) = written.split_at("before;".len());
        assert_eq!(before, "before;");
        assert!(refusal.starts_with("HTTP/1.1 400 Bad Request\r\ncontent-type: application/json"));
        assert!(refusal.contains("\"code\":\"bad_request\""), "{refusal}");
    }
}
