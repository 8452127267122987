//! Every refusal on the wire is the API's JSON error with a stable code, including the ones hyper
//! would answer itself (a malformed request, a target or head too long), except a link to the page
//! too long to open, which a browser is shown as a page; 405 always names the allowed methods,
//! unknown fields are refused, and every response carries the security headers.

use crate::common;

use common::wire::{connect, exchange, http, request, Server};
use mnk_server::wire::{MAX_HEADERS, MAX_HEAD_BYTES, MAX_URI_BYTES, SECURITY_HEADERS};

async fn raw(server: &Server, bytes: &[u8]) -> common::wire::Response {
    exchange(&mut connect(server.addr).await, bytes).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_oversized_requests_get_json_errors() {
    let server = Server::start(common::config()).await;
    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        (
            "a NUL line",
            b"\0\0\0\0\r\n\r\n".to_vec(),
            400,
            "bad_request",
        ),
        ("garbage", b"HELLO?\r\n\r\n".to_vec(), 400, "bad_request"),
        (
            "a header without a colon",
            b"GET / HTTP/1.1\r\nHost mnk\r\n\r\n".to_vec(),
            400,
            "bad_request",
        ),
        (
            "a long target",
            format!(
                "GET /api/{} HTTP/1.1\r\nHost: mnk\r\n\r\n",
                "a".repeat(MAX_URI_BYTES)
            )
            .into_bytes(),
            414,
            "uri_too_long",
        ),
        (
            "a huge header",
            format!(
                "GET / HTTP/1.1\r\nHost: mnk\r\nX-Big: {}\r\n\r\n",
                "b".repeat(MAX_HEAD_BYTES)
            )
            .into_bytes(),
            431,
            "headers_too_large",
        ),
        (
            "too many headers",
            format!(
                "GET / HTTP/1.1\r\n{}\r\n",
                (0..=MAX_HEADERS)
                    .map(|i| format!("X-{i}: 1\r\n"))
                    .collect::<String>()
            )
            .into_bytes(),
            431,
            "headers_too_large",
        ),
    ];
    for (what, bytes, status, code) in cases {
        let reply = raw(&server, &bytes).await;
        assert_eq!(reply.status, status, "{what}: {reply:?}");
        assert_eq!(reply.code().as_deref(), Some(code), "{what}: {reply:?}");
        assert_eq!(
            reply.header("content-type"),
            Some("application/json"),
            "{what}"
        );
        for (name, _) in SECURITY_HEADERS {
            assert!(reply.header(name).is_some(), "{what}: no {name}");
        }
    }
    server.stop().await;
}

/// The same refusals for a request that follows a good one on a kept-alive connection: hyper
/// parses those heads, and its own bare answers are rewritten on their way out. Each refusal
/// closes the connection (the exchange reads until the server closes).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn later_requests_on_a_kept_alive_connection_get_the_same_json_errors() {
    let server = Server::start(common::config()).await;
    let beyond_hypers_buffer = format!(
        "GET / HTTP/1.1\r\nHost: mnk\r\nX-Big: {}\r\n\r\n",
        "b".repeat(300 * 1024)
    );
    let cases: Vec<(&str, String, u16, &str)> = vec![
        ("a NUL line", "\0\0\0\0\r\n\r\n".into(), 400, "bad_request"),
        (
            "a header without a colon",
            "GET / HTTP/1.1\r\nHost mnk\r\n\r\n".into(),
            400,
            "bad_request",
        ),
        (
            "a long target",
            format!(
                "GET /api/{} HTTP/1.1\r\nHost: mnk\r\n\r\n",
                "a".repeat(MAX_URI_BYTES)
            ),
            414,
            "uri_too_long",
        ),
        (
            "a huge header",
            format!(
                "GET / HTTP/1.1\r\nHost: mnk\r\nX-Big: {}\r\n\r\n",
                "b".repeat(MAX_HEAD_BYTES)
            ),
            431,
            "headers_too_large",
        ),
        (
            "a head beyond hyper's buffer",
            beyond_hypers_buffer,
            431,
            "headers_too_large",
        ),
    ];
    for (what, second, status, code) in cases {
        let mut stream = connect(server.addr).await;
        let first = "GET /api/health HTTP/1.1\r\nHost: mnk\r\n\r\n";
        let raw = exchange(&mut stream, format!("{first}{second}").as_bytes()).await;
        let whole = format!("{}\r\n\r\n{}", raw.head, raw.body).to_ascii_lowercase();
        let last = whole
            .rfind("http/1.1 ")
            .map(|at| &whole[at..])
            .unwrap_or_else(|| panic!("{what}: no second response in {whole:?}"));
        assert!(whole.starts_with("http/1.1 200"), "{what}: {whole:?}");
        assert!(
            last.starts_with(&format!("http/1.1 {status} ")),
            "{what}: {last:?}"
        );
        assert!(
            last.contains("content-type: application/json"),
            "{what}: {last:?}"
        );
        assert!(
            last.contains(&format!("\"code\":\"{code}\"")),
            "{what}: {last:?}"
        );
        for (name, _) in SECURITY_HEADERS {
            assert!(last.contains(&format!("\r\n{name}: ")), "{what}: no {name}");
        }
    }
    server.stop().await;
}

/// A link to the page too long to open is answered with a page a browser shows (414, HTML, the
/// reason in three languages), on a connection's first request and on a later one alike; the
/// API's JSON refusal stays for the API.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_too_long_to_open_gets_a_page_not_json() {
    let server = Server::start(common::config()).await;
    let link = format!(
        "GET /?r=15x15x5&m={} HTTP/1.1\r\nHost: mnk\r\nAccept: text/html\r\n\r\n",
        "h8.".repeat(MAX_URI_BYTES / 3)
    );
    let first = raw(&server, link.as_bytes()).await;
    let mut stream = connect(server.addr).await;
    let health = "GET /api/health HTTP/1.1\r\nHost: mnk\r\n\r\n";
    let later = exchange(&mut stream, format!("{health}{link}").as_bytes()).await;
    assert_eq!(later.status, 200, "{later:?}");
    // The second response follows the first's JSON body.
    let second = &later.body[later.body.rfind("HTTP/1.1 ").expect("a second response")..];
    let (later_head, later_body) = second.split_once("\r\n\r\n").unwrap();
    for (what, head, body) in [
        ("first", first.head.clone(), first.body.clone()),
        (
            "later",
            later_head.to_ascii_lowercase(),
            later_body.to_string(),
        ),
    ] {
        assert!(head.contains("414"), "{what}: {head}");
        assert!(
            head.contains("content-type: text/html; charset=utf-8"),
            "{what}: {head}"
        );
        assert!(head.contains("connection: close"), "{what}: {head}");
        assert!(
            body.contains("This link is too long to open"),
            "{what}: {body}"
        );
        assert!(body.contains(r#"<p lang="pl">"#) && body.contains(r#"<p lang="ru">"#));
        assert!(!body.contains("\"error\""), "{what}: {body}");
        for (name, _) in SECURITY_HEADERS {
            assert!(head.contains(&format!("{name}: ")), "{what}: no {name}");
        }
    }
    server.stop().await;
}

/// A client that handles refusals itself (the page) may ask for them with status 200, the real
/// status in `mnk-status` and the same JSON body, so that a browser does not note them as errors;
/// without the header nothing changes, and answers that are no refusal keep their status.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_come_with_status_200_to_a_client_that_asks() {
    let server = Server::start(common::config()).await;
    let illegal = r#"{"rules":"tictactoe","moves":["a1","a1"]}"#;
    let with_header = |body: &str| {
        request("POST", "/api/state", Some(body)).replacen(
            "Host: mnk\r\n",
            "Host: mnk\r\nMnk-Refusal-Status: 200\r\n",
            1,
        )
    };
    let plain = raw(
        &server,
        request("POST", "/api/state", Some(illegal)).as_bytes(),
    )
    .await;
    assert_eq!(plain.status, 422, "{plain:?}");
    assert_eq!(plain.header("mnk-status"), None);
    let asked = raw(&server, with_header(illegal).as_bytes()).await;
    assert_eq!(asked.status, 200, "{asked:?}");
    assert_eq!(asked.header("mnk-status"), Some("422"));
    assert_eq!(asked.code().as_deref(), Some("illegal_move"));
    assert_eq!(asked.body, plain.body);
    assert!(asked
        .header("vary")
        .is_some_and(|v| v.contains("mnk-refusal-status")));
    // A bad body (400) too; a good request is answered as ever.
    let bad = raw(&server, with_header("{").as_bytes()).await;
    assert_eq!((bad.status, bad.header("mnk-status")), (200, Some("400")));
    assert_eq!(bad.code().as_deref(), Some("bad_json"));
    let good = raw(
        &server,
        with_header(r#"{"rules":"tictactoe","moves":["a1"]}"#).as_bytes(),
    )
    .await;
    assert_eq!((good.status, good.header("mnk-status")), (200, None));
    assert_eq!(good.code(), None);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn method_not_allowed_always_names_the_allowed_methods() {
    let server = Server::start(common::config()).await;
    for (method, path, allowed) in [
        ("PUT", "/api/solve", "POST"),
        ("GET", "/api/move", "POST"),
        ("DELETE", "/api/health", "GET,HEAD"),
        ("POST", "/", "GET, HEAD"),
        ("POST", "/app.js", "GET, HEAD"),
    ] {
        let reply = http(server.addr, method, path, Some("{}")).await;
        assert_eq!(reply.status, 405, "{method} {path}");
        assert_eq!(reply.code().as_deref(), Some("method_not_allowed"));
        let allow = reply
            .header("allow")
            .unwrap_or_else(|| panic!("{method} {path}: no Allow"));
        assert_eq!(
            allow.replace(' ', ""),
            allowed.replace(' ', "").to_ascii_lowercase(),
            "{method} {path}"
        );
        let first = allowed.split(',').next().unwrap();
        assert!(
            reply.body.contains(&format!("use {first}")),
            "{}",
            reply.body
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_fields_are_refused() {
    let server = Server::start(common::config()).await;
    for (path, body) in [
        ("/api/state", r#"{"rules":"tictactoe","mvoes":["a1"]}"#),
        (
            "/api/move",
            r#"{"rules":"tictactoe","moves":[],"oponent":{"level":1}}"#,
        ),
        ("/api/solve", r#"{"rules":"tictactoe","moves":[],"time":5}"#),
        (
            "/api/weights",
            r#"{"rules":"tictactoe","moves":[],"seed":1}"#,
        ),
    ] {
        let reply = http(server.addr, "POST", path, Some(body)).await;
        assert_eq!(reply.status, 400, "{path}: {reply:?}");
        assert_eq!(reply.code().as_deref(), Some("bad_json"));
        assert!(reply.body.contains("unknown field"), "{}", reply.body);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_the_api_carry_security_headers() {
    let server = Server::start(common::config()).await;
    for path in ["/", "/api/health", "/no/such/page"] {
        let reply = http(server.addr, "GET", path, None).await;
        let csp = reply.header("content-security-policy").unwrap_or_default();
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(reply.header("x-frame-options"), Some("deny"));
        assert_eq!(reply.header("referrer-policy"), Some("no-referrer"));
    }
    // The page has no inline script for the policy to block.
    let page = http(server.addr, "GET", "/", None).await;
    assert!(!page.body.contains("<script>"), "an inline script");
    server.stop().await;
}
