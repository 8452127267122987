//! The JSON request body extractor: axum's own `Json` answers its rejections in plain text, this
//! one answers them with the API's JSON errors (`bad_json`, `bad_content_type`, `too_large`).

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// The largest request body the API reads.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// The longest a request body may take to arrive (a slow body holds a connection and a task).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// A request body read as JSON into `T`, refused with an [`ApiError`].
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        if !is_json(request.headers().get(header::CONTENT_TYPE)) {
            return Err(ApiError::BadContentType(
                "send the request body as JSON with the header Content-Type: application/json"
                    .to_string(),
            ));
        }
        let bytes = tokio::time::timeout(BODY_TIMEOUT, Bytes::from_request(request, state))
            .await
            .map_err(|_| {
                ApiError::Timeout(format!(
                    "the request body did not arrive within {} s",
                    BODY_TIMEOUT.as_secs()
                ))
            })?
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::BodyTooLarge(format!(
                        "the request body is larger than the limit of {} KiB",
                        MAX_BODY_BYTES / 1024
                    ))
                } else {
                    ApiError::Api(mnk_api::ApiError::BadJson(format!(
                        "the request body could not be read: {rejection}"
                    )))
                }
            })?;
        // Refused in the words the page's worker uses for the same body.
        serde_json::from_slice(&bytes)
            .map(ApiJson)
            .map_err(|e| ApiError::Api(mnk_api::ApiError::bad_body(&e)))
    }
}

/// Whether a Content-Type header names JSON (`application/json`, with parameters or a `+json`
/// suffix).
fn is_json(value: Option<&header::HeaderValue>) -> bool {
    let Some(text) = value.and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = text
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn json_content_types_are_recognised() {
        let ok = |t: &'static str| is_json(Some(&HeaderValue::from_static(t)));
        assert!(ok("application/json"));
        assert!(ok("Application/JSON; charset=utf-8"));
        assert!(ok("application/problem+json"));
        assert!(!ok("text/plain"));
        assert!(!ok("application/x-www-form-urlencoded"));
        assert!(!is_json(None));
    }
}
