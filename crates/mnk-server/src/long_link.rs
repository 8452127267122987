//! The page a browser gets for a link too long to open.
//!
//! A game's link carries its moves and variations, and a long enough one is over the limit of a
//! request target ([`MAX_URI_BYTES`]). The API's clients get the JSON refusal (`uri_too_long`,
//! 414), but a browser opening such a link would show that JSON as text: a request for a page (a
//! GET outside `/api/`) gets this small page instead, with the same status and what to do, in the
//! page's three languages (the server cannot tell which one the reader reads). It has no script
//! and no style of its own, which the security headers would refuse anyway.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::wire::{self, MAX_URI_BYTES};

/// Whether a request head (what has arrived of it) asks for a page: a GET outside the API.
#[must_use]
pub fn is_page_head(head: &[u8]) -> bool {
    head.strip_prefix(b"GET ").is_some_and(is_page_target)
}

/// Whether a request target (what has arrived of it) is outside the API: `/`, `/index.html?r=…`,
/// but not `/api` or anything under `/api/`.
#[must_use]
pub fn is_page_target(target: &[u8]) -> bool {
    let api = target
        .strip_prefix(b"/api")
        .is_some_and(|rest| matches!(rest.first(), None | Some(b'/' | b'?' | b' ')));
    target.starts_with(b"/") && !api
}

/// The page, as an HTML document.
#[must_use]
pub fn html() -> String {
    let kib = MAX_URI_BYTES / 1024;
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mnk — this link is too long</title>
</head>
<body>
<main role="alert">
<h1>mnk</h1>
<p lang="en">This link is too long to open: its address is over {kib} KiB, more than the server reads (a game with very many moves or variations). <a href="./">Open mnk</a> without it, and bring the game in as a record or a .psq file (Import / export).</p>
<p lang="pl">Tego linku nie da się otworzyć: jego adres ma ponad {kib} KiB, więcej, niż serwer czyta (partia z bardzo wieloma ruchami lub wariantami). <a href="./">Otwórz mnk</a> bez niego i wczytaj partię jako zapis lub plik .psq (Import / eksport).</p>
<p lang="ru">Эту ссылку не открыть: её адрес длиннее {kib} КиБ — больше, чем читает сервер (партия с очень многими ходами или вариантами). <a href="./">Откройте mnk</a> без неё и загрузите партию как запись или файл .psq (Импорт / экспорт).</p>
</main>
</body>
</html>
"#
    )
}

/// The page as the bytes of a whole HTTP response that closes the connection (for the first
/// head of a connection, answered before hyper sees it).
#[must_use]
pub fn closing_response() -> Vec<u8> {
    wire::closing_response(
        StatusCode::URI_TOO_LONG,
        "text/html; charset=utf-8",
        &html(),
    )
}

/// The page as a response (for a later request on a kept-alive connection; the router's layers
/// add the security headers).
#[must_use]
pub fn response() -> Response {
    (
        StatusCode::URI_TOO_LONG,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            (header::CONNECTION, HeaderValue::from_static("close")),
        ],
        html(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_gets_outside_the_api() {
        assert!(is_page_head(b"GET /?r=15x15x5&m=h8"));
        assert!(is_page_head(b"GET /index.html?r=15x15x5 HTTP/1.1"));
        assert!(is_page_head(b"GET /apiary"));
        assert!(!is_page_head(b"GET /api/state?x"));
        assert!(!is_page_head(b"GET /api?x"));
        assert!(!is_page_head(b"GET /api HTTP/1.1"));
        assert!(!is_page_head(b"POST /?r=15x15x5"));
        assert!(!is_page_head(b"GET http://example.com/"));
        assert!(!is_page_head(b"GE"));
    }

    #[test]
    fn the_page_says_it_in_three_languages_and_closes() {
        let page = html();
        for lang in ["en", "pl", "ru"] {
            assert!(page.contains(&format!(r#"<p lang="{lang}">"#)), "{lang}");
        }
        assert!(page.contains("16 KiB"));
        let response = String::from_utf8(closing_response()).unwrap();
        assert!(response.starts_with("HTTP/1.1 414 URI Too Long\r\n"));
        assert!(response.contains("content-type: text/html; charset=utf-8\r\n"));
        assert!(response.contains("connection: close\r\n"));
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("content-length: {}\r\n", body.len())));
    }
}
