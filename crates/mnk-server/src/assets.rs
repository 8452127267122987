//! The browser UI, embedded in the binary at build time (see `build.rs`), served with content
//! types and caching headers.
//!
//! Caching: every file carries a weak ETag (a hash of its bytes; weak because the compression
//! layer may gzip the body) and `Cache-Control: no-cache`, so browsers keep a copy but revalidate
//! it, and a new build is seen at once (a revalidation costs a `304 Not Modified` with no body).
//! A request whose query has `v=<the file's hash>` (its ETag without the quotes) may be cached for
//! a year: that URL can only ever mean these bytes.

use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// One embedded file of `web/`.
#[derive(Debug)]
pub struct Asset {
    /// Path below `web/`, with `/` separators (`index.html`, `js/board.js`).
    pub path: &'static str,
    /// The file's bytes.
    pub bytes: &'static [u8],
    /// A hex hash of the bytes (the ETag).
    pub hash: &'static str,
}

/// Every file of `web/`, sorted by path.
pub static ASSETS: &[Asset] = include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The embedded file a URL path names: `/` and paths ending in `/` mean their `index.html`.
#[must_use]
pub fn find(url_path: &str) -> Option<&'static Asset> {
    let path = url_path.trim_start_matches('/');
    let path = if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    };
    ASSETS
        .binary_search_by(|a| a.path.cmp(path.as_str()))
        .ok()
        .map(|i| &ASSETS[i])
}

/// The content type of a file, from its extension.
#[must_use]
pub fn content_type(path: &str) -> &'static str {
    let extension = path.rsplit_once('.').map_or("", |(_, e)| e);
    match extension.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "wasm" => "application/wasm",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Serves a GET or HEAD for an embedded file, honouring `If-None-Match`.
pub fn serve(method: &Method, uri: &Uri, headers: &HeaderMap) -> Result<Response, ApiError> {
    let asset = find(uri.path()).ok_or_else(|| {
        ApiError::Api(mnk_api::ApiError::NotFound(format!(
            "there is no page or file at {}",
            uri.path()
        )))
    })?;
    if method != Method::GET && method != Method::HEAD {
        return Err(ApiError::MethodNotAllowed {
            allow: "GET, HEAD".to_string(),
            message: format!(
                "{method} is not allowed on {}: use GET or HEAD to read a file",
                uri.path()
            ),
        });
    }
    let etag = format!("W/\"{}\"", asset.hash);
    let versioned = uri
        .query()
        .is_some_and(|q| q.split('&').any(|pair| pair == format!("v={}", asset.hash)));
    let cache = if versioned {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mut response = if matches(headers, asset.hash) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = asset.bytes.into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(content_type(asset.path)),
        );
        response
    };
    let h = response.headers_mut();
    h.insert(
        header::ETAG,
        HeaderValue::from_str(&etag).expect("hex is a valid header"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    Ok(response)
}

/// Whether `If-None-Match` lists this hash (weakly compared, as RFC 9110 says for this header).
fn matches(headers: &HeaderMap, hash: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/").trim_matches('"'))
        .any(|tag| tag == "*" || tag == hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_for_binary_search() {
        assert!(ASSETS.windows(2).all(|w| w[0].path < w[1].path));
        for asset in ASSETS {
            assert_eq!(find(asset.path).map(|a| a.path), Some(asset.path));
            assert_eq!(asset.hash.len(), 16);
        }
        assert!(find("/no/such/file.js").is_none());
    }

    #[test]
    fn content_types_follow_extensions() {
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("js/app.mjs"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("a.SVG"), "image/svg+xml");
        assert_eq!(content_type("LICENSE"), "application/octet-stream");
    }

    #[test]
    fn if_none_match_is_a_weak_list() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_static("\"x\", W/\"0123456789abcdef\""),
        );
        assert!(matches(&headers, "0123456789abcdef"));
        assert!(!matches(&headers, "fedcba9876543210"));
        assert!(!matches(&HeaderMap::new(), "0123456789abcdef"));
    }
}
