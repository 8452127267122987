//! What every request and response on the wire is held to: the limits of a request's head and
//! the security headers every response carries. Kept apart so that the first head's reader
//! (`head.rs`), the router (`api.rs`) and the long link's page (`long_link.rs`) share them without
//! importing one another.

/// The longest request head (request line and headers) accepted.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;
/// The longest request target (path and query) accepted.
pub const MAX_URI_BYTES: usize = 16 * 1024;
/// The most header fields a request may have.
pub const MAX_HEADERS: usize = 64;

/// The headers every response carries, the server's own refusals on the wire included. What the
/// page may load and who may frame it: only its own scripts, styles and API, never in a frame;
/// no MIME sniffing; no referrer sent to other sites. `'wasm-unsafe-eval'` lets the page compile
/// its own engine (`engine/mnk.wasm`, from `'self'` like everything else) and nothing more: it
/// allows no `eval` of JavaScript; `worker-src 'self'` the engine's worker and the service
/// worker.
pub const SECURITY_HEADERS: [(&str, &str); 4] = [
    (
        "content-security-policy",
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; manifest-src 'self'; \
object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
];

/// A whole HTTP/1.1 response that closes the connection, written before hyper sees the
/// connection (a refused first head): `status`, `content_type`, the security headers, `body`.
#[must_use]
pub fn closing_response(status: axum::http::StatusCode, content_type: &str, body: &str) -> Vec<u8> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\ncache-control: no-store\r\nconnection: close\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    );
    for (name, value) in SECURITY_HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    [head.as_bytes(), body.as_bytes()].concat()
}
