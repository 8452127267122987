//! The router: the endpoints of `docs/api.md`, the embedded UI, and the layers around them
//! (tracing, gzip, body limit, panic catching, JSON for every error axum would answer in text).

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::trace::{DefaultOnFailure, TraceLayer};

use crate::body::MAX_BODY_BYTES;
use crate::error::ApiError;
use crate::head;
use crate::log::panic_message;
use crate::long_link;
use crate::play::AppState;
use crate::pool::EnginePool;
use crate::rooms::Rooms;
use crate::wire::{self, MAX_HEADERS, MAX_HEAD_BYTES, MAX_URI_BYTES};
use crate::{assets, ServerConfig};

/// The whole app as an axum router (no listener: tests drive it with `oneshot`).
pub fn router(config: &ServerConfig) -> Router {
    app(config).0
}

/// The app without rooms and its engine pool (which shutting down needs to reach).
pub fn app(config: &ServerConfig) -> (Router, Arc<EnginePool>) {
    let pool = engine_pool(config);
    (assemble(config, pool.clone(), None), pool)
}

/// The engine pool `config` asks for.
pub fn engine_pool(config: &ServerConfig) -> Arc<EnginePool> {
    Arc::new(EnginePool::new(
        config.threads,
        config.queue_wait,
        config.clients,
    ))
}

/// The app on `pool`, with the room endpoints when there are `rooms` (a database).
pub fn assemble(config: &ServerConfig, pool: Arc<EnginePool>, rooms: Option<Arc<Rooms>>) -> Router {
    let state = AppState::new(
        pool,
        config.max_think,
        config.default_think,
        config.search_threads,
        config.books.clone(),
    );
    let routes = Router::new()
        .route("/api/health", get(health))
        .route("/api/ready", crate::rooms::http::readiness(rooms.clone()))
        .merge(crate::play::routes())
        .merge(crate::analysis::routes())
        .merge(rooms.map(crate::rooms::http::routes).unwrap_or_default())
        .fallback(fallback)
        .with_state(state)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES));
    // The layers below wrap the routes as one service (not each route), so they see the answers
    // the method router completes itself, such as its `Allow` header on 405.
    let router = Router::new()
        .fallback_service(routes)
        .layer(middleware::from_fn(json_errors))
        .layer(middleware::from_fn(refusal_status))
        .layer(middleware::from_fn(request_limits))
        .layer(CatchPanicLayer::custom(
            |panic: Box<dyn std::any::Any + Send>| {
                ApiError::Panicked(format!(
                    "the server failed on this request ({}); please report it",
                    panic_message(panic.as_ref())
                ))
                .into_response()
            },
        ))
        .layer(CompressionLayer::new())
        .layer(middleware::from_fn(security_headers))
        // Failures at debug level only: each 5xx is logged, rate-limited, where it is answered
        // (`ApiError::into_response`), so that a flood of refusals is a line per 10 s.
        .layer(
            TraceLayer::new_for_http()
                .on_failure(DefaultOnFailure::new().level(tracing::Level::DEBUG)),
        );
    router
}

/// Adds the security headers to every response.
async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in wire::SECURITY_HEADERS {
        headers.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    response
}

/// Refuses a request whose target or head is over the limits of [`crate::head`] (the first
/// request of a connection is checked there already; this catches the later ones), and closes
/// the connection as a refusal there does.
async fn request_limits(request: Request, next: Next) -> Response {
    match over_limits(&request) {
        None => next.run(request).await,
        // A link too long to open gets a page a browser shows, not the API's JSON.
        Some(ApiError::UriTooLong(_))
            if request.method() == Method::GET
                && long_link::is_page_target(request.uri().path().as_bytes()) =>
        {
            long_link::response()
        }
        Some(refusal) => {
            let mut response = refusal.into_response();
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
}

/// The refusal a request's head earns, if it is over the limits.
fn over_limits(request: &Request) -> Option<ApiError> {
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if target > MAX_URI_BYTES {
        return Some(head::uri_too_long());
    }
    let headers = request.headers();
    let head: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    (head + target > MAX_HEAD_BYTES || headers.len() > MAX_HEADERS).then(head::head_too_large)
}

/// `GET /api/health`.
async fn health() -> Json<Value> {
    Json(json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION") }))
}

/// Everything no route matched: the embedded UI, or a JSON `not_found`.
async fn fallback(method: Method, uri: Uri, headers: HeaderMap) -> Result<Response, ApiError> {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return Err(ApiError::Api(mnk_api::ApiError::NotFound(format!(
            "there is no endpoint {method} {path}: see docs/api.md for the API"
        ))));
    }
    assets::serve(&method, &uri, &headers)
}

/// The request header by which a client that handles refusals itself asks for them with status
/// 200 (its only value is `200`): the page does, since a browser notes every response with an
/// error status as an error in its console, even one the page expected and explained.
pub const REFUSAL_STATUS_REQUEST: HeaderName = HeaderName::from_static("mnk-refusal-status");
/// The response header that then carries a refusal's real status.
pub const REFUSAL_STATUS: HeaderName = HeaderName::from_static("mnk-status");

/// Answers a refusal (4xx) with status 200 and its real status in [`REFUSAL_STATUS`] when the
/// request asks so with [`REFUSAL_STATUS_REQUEST`]; the body, the error's JSON, is the same.
/// Failures of the server (5xx) keep their status.
async fn refusal_status(request: Request, next: Next) -> Response {
    let asked = request
        .headers()
        .get(&REFUSAL_STATUS_REQUEST)
        .is_some_and(|v| v.as_bytes() == b"200");
    let api = request.uri().path().starts_with("/api");
    let mut response = next.run(request).await;
    if api {
        response
            .headers_mut()
            .append(header::VARY, HeaderValue::from_static("mnk-refusal-status"));
    }
    let status = response.status();
    if asked && status.is_client_error() {
        *response.status_mut() = StatusCode::OK;
        response
            .headers_mut()
            .insert(REFUSAL_STATUS, HeaderValue::from(status.as_u16()));
    }
    response
}

/// Gives a JSON body to the errors axum and tower answer on their own (405 from the method
/// router, a 413 from a limit, …), so clients always see `{"error": {"code", "message"}}`.
async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let error = match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            let allowed = response
                .headers()
                .get(header::ALLOW)
                .and_then(|a| a.to_str().ok())
                .unwrap_or("")
                .to_string();
            let allowed = if allowed.is_empty() {
                "GET".to_string()
            } else {
                allowed
            };
            ApiError::MethodNotAllowed {
                message: format!("{method} is not allowed on {path}: use {allowed}"),
                allow: allowed,
            }
        }
        StatusCode::NOT_FOUND => ApiError::Api(mnk_api::ApiError::NotFound(format!(
            "there is nothing at {path}"
        ))),
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::BodyTooLarge(format!(
            "the request body is larger than the limit of {} KiB",
            MAX_BODY_BYTES / 1024
        )),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::BadContentType(
            "send the request body as JSON with the header Content-Type: application/json".into(),
        ),
        StatusCode::REQUEST_TIMEOUT => {
            ApiError::Timeout("the request took too long to arrive".into())
        }
        s if s.is_server_error() => ApiError::Api(mnk_api::ApiError::Internal(format!(
            "the server failed ({s})"
        ))),
        s => ApiError::Api(mnk_api::ApiError::BadJson(format!(
            "the request was refused ({s})"
        ))),
    };
    let mut replaced = error.into_response();
    replaced
        .headers_mut()
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    replaced
}
