//! Helpers shared by the integration tests: an in-process router and a one-call request helper.

#![allow(dead_code)]

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderMap, Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use mnk_server::ServerConfig;
use serde_json::Value;
use tower::ServiceExt;

pub mod wire;

/// A configuration for tests: two engine slots, short waits.
pub fn config() -> ServerConfig {
    ServerConfig {
        threads: 2,
        queue_wait: Duration::from_millis(500),
        max_think: Duration::from_secs(2),
        default_think: Duration::from_millis(200),
        ..ServerConfig::default()
    }
}

/// Allowances no test reaches: the rooms' rate limits out of the way of tests about other things.
pub fn unlimited_rates() -> mnk_server::rooms::limits::AddressRates {
    let plenty = mnk_server::rooms::limits::Rate::per_minute(1_000_000);
    mnk_server::rooms::limits::AddressRates {
        creations: plenty,
        joins: plenty,
        actions: plenty,
        reads: plenty,
    }
}

/// The app under the test configuration.
pub fn app() -> Router {
    mnk_server::router(&config())
}

/// A response: status, headers, raw body and the body as JSON (`Null` if it is not JSON).
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub bytes: Vec<u8>,
    pub json: Value,
}

impl Reply {
    /// The error code of an error reply, asserting the error body's shape.
    pub fn code(&self) -> &str {
        let error = &self.json["error"];
        assert!(
            error["message"].as_str().is_some_and(|m| !m.is_empty()),
            "error without a message: {}",
            self.json
        );
        error["code"]
            .as_str()
            .unwrap_or_else(|| panic!("no error code in {}", self.json))
    }
}

/// Sends one request through the router.
pub async fn send(app: &Router, request: Request<Body>) -> Reply {
    let response = app
        .clone()
        .oneshot(request)
        .await
        .expect("the router is infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        bytes,
        json,
    }
}

/// `GET path`.
pub async fn get(app: &Router, path: &str) -> Reply {
    send(app, Request::get(path).body(Body::empty()).unwrap()).await
}

/// `POST path` with a JSON body.
pub async fn post(app: &Router, path: &str, body: Value) -> Reply {
    let request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    send(app, request).await
}

/// Asserts an error reply's status and code, and that it is JSON.
#[track_caller]
pub fn assert_error(reply: &Reply, status: u16, code: &str) {
    assert_eq!(
        reply.status.as_u16(),
        status,
        "body: {}",
        String::from_utf8_lossy(&reply.bytes)
    );
    assert_eq!(reply.code(), code, "body: {}", reply.json);
    assert!(
        reply.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("application/json"),
        "error replies are JSON"
    );
}
