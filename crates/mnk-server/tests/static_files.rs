//! The embedded UI: every file of web/ is served with its content type, ETag and caching rules.

use crate::common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::{app, get, send};
use mnk_server::assets::{content_type, ASSETS};

#[tokio::test]
async fn every_embedded_file_is_served_as_is() {
    let app = app();
    assert!(
        ASSETS.iter().any(|a| a.path == "index.html"),
        "web/index.html is embedded"
    );
    for asset in ASSETS {
        let reply = get(&app, &format!("/{}", asset.path)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", asset.path);
        assert_eq!(reply.bytes, asset.bytes, "{}", asset.path);
        assert_eq!(
            reply.headers[header::CONTENT_TYPE],
            content_type(asset.path)
        );
        assert_eq!(reply.headers[header::ETAG], format!("W/\"{}\"", asset.hash));
        assert_eq!(reply.headers[header::CACHE_CONTROL], "no-cache");
        assert_eq!(reply.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    }
}

#[tokio::test]
async fn the_root_is_the_page_and_revalidation_costs_nothing() {
    let app = app();
    let page = get(&app, "/").await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        page.headers[header::CONTENT_TYPE],
        "text/html; charset=utf-8"
    );
    assert_eq!(page.headers[header::CACHE_CONTROL], "no-cache");
    let etag = page.headers[header::ETAG].clone();

    let again = send(
        &app,
        Request::get("/")
            .header(header::IF_NONE_MATCH, etag.clone())
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.bytes.is_empty());
    assert_eq!(again.headers[header::ETAG], etag);

    let stale = send(
        &app,
        Request::get("/")
            .header(header::IF_NONE_MATCH, "W/\"0000000000000000\"")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(stale.status, StatusCode::OK);
}

#[tokio::test]
async fn a_versioned_url_may_be_cached_for_long() {
    let app = app();
    let asset = ASSETS.iter().find(|a| a.path == "index.html").unwrap();
    let reply = get(&app, &format!("/index.html?v={}", asset.hash)).await;
    assert_eq!(
        reply.headers[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    let wrong = get(&app, "/index.html?v=0123").await;
    assert_eq!(wrong.headers[header::CACHE_CONTROL], "no-cache");
}

#[tokio::test]
async fn text_is_gzipped_for_clients_that_accept_it() {
    let app = app();
    let reply = send(
        &app,
        Request::get("/")
            .header(header::ACCEPT_ENCODING, "gzip")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.headers[header::CONTENT_ENCODING], "gzip");
    let plain = get(&app, "/").await;
    assert!(plain.headers.get(header::CONTENT_ENCODING).is_none());
    let presets = send(
        &app,
        Request::get("/api/presets")
            .header(header::ACCEPT_ENCODING, "gzip")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(presets.headers[header::CONTENT_ENCODING], "gzip");
}

#[tokio::test]
async fn files_are_read_only() {
    let app = app();
    let reply = send(
        &app,
        Request::post("/index.html").body(Body::empty()).unwrap(),
    )
    .await;
    common::assert_error(&reply, 405, "method_not_allowed");
    let head = send(&app, Request::head("/").body(Body::empty()).unwrap()).await;
    assert_eq!(head.status, StatusCode::OK);
    assert!(head.bytes.is_empty());
}
