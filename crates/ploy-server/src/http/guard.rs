//! What a request must be before a handler sees it: no cross-site action with the session
//! cookie (`403 cross_origin`), JSON bodies marked as JSON (`415 unsupported_media_type`),
//! and bodies that arrive within the body timeout (`408 request_timeout`).

use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::bodies::{self, Empty};
use super::client::Client;
use super::{AppState, cookie_token};
use crate::service::ApiError;

/// An origin (`scheme://host[:port]`) as compared: lower case, without the scheme's
/// default port (`:80` for `http`, `:443` for `https`) and without a trailing `/`.
#[must_use]
pub(crate) fn normal_origin(origin: &str) -> String {
    let o = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    for (scheme, port) in [("http://", ":80"), ("https://", ":443")] {
        if o.starts_with(scheme)
            && let Some(bare) = o.strip_suffix(port)
        {
            return bare.to_owned();
        }
    }
    o
}

/// Checks a `--public-origin` URL: `http` or `https`, a host, an optional port, no path,
/// query or user. Gives it back as origins are compared: in lower case, without a trailing
/// `/` or the scheme's default port.
///
/// # Errors
/// The text is not such an origin.
pub fn parse_public_origin(text: &str) -> Result<String, String> {
    let o = normal_origin(text);
    let rest = o
        .strip_prefix("https://")
        .or_else(|| o.strip_prefix("http://"))
        .ok_or_else(|| format!("`{text}` is not an http:// or https:// origin"))?;
    let ok = !rest.is_empty()
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b));
    if ok {
        Ok(o)
    } else {
        Err(format!(
            "`{text}` is not an origin: give the scheme, the host and the port only, such as https://ployd.example.org"
        ))
    }
}

/// The server's own origin for a request: `--public-origin` when given, else the scheme
/// (`https` when the trusted proxy says so, else `http`) and the `Host` header.
fn server_origin(app: &AppState, client: Client, headers: &HeaderMap) -> Option<String> {
    if let Some(o) = &app.options.public_origin {
        return Some(o.clone());
    }
    let host = headers.get(header::HOST)?.to_str().ok()?;
    let scheme = if client.https { "https" } else { "http" };
    Some(normal_origin(&format!("{scheme}://{host}")))
}

/// Whether the method changes something (the methods the cross-origin check covers).
fn is_action(method: &Method) -> bool {
    matches!(
        *method,
        Method::POST | Method::PUT | Method::DELETE | Method::PATCH
    )
}

/// Why a cookie-bearing action is refused, or `None` when it may go on.
fn cross_origin(app: &AppState, client: Client, headers: &HeaderMap) -> Option<String> {
    let origin = headers.get(header::ORIGIN).map(HeaderValue::to_str);
    match origin {
        Some(Ok(origin)) => {
            if origin.trim() == "null" {
                return Some("a request from an opaque origin (`Origin: null`) may not use the session cookie".to_owned());
            }
            let ours = server_origin(app, client, headers);
            if ours.as_deref() == Some(normal_origin(origin).as_str()) {
                None
            } else {
                Some(format!(
                    "a request from {} may not act with this server's session cookie",
                    crate::game::excerpt(origin)
                ))
            }
        }
        Some(Err(_)) => Some("the `Origin` header is not text".to_owned()),
        None => {
            let site = headers
                .get("sec-fetch-site")
                .map(|v| v.to_str().unwrap_or("").trim().to_ascii_lowercase());
            match site.as_deref() {
                None | Some("same-origin" | "none") => None,
                Some(other) => Some(format!(
                    "a {} request (`Sec-Fetch-Site: {}`) may not act with this server's session cookie",
                    if other == "same-site" {
                        "same-site"
                    } else {
                        "cross-site"
                    },
                    crate::game::excerpt(other)
                )),
            }
        }
    }
}

/// The cross-origin check, as a middleware in front of every route: a POST, PUT, PATCH
/// or DELETE that carries the session cookie goes on only if its `Origin` is the
/// server's, or it has no `Origin` and its `Sec-Fetch-Site` is absent, `same-origin` or
/// `none`. Otherwise `403 cross_origin`, before anything is read or changed. Requests
/// without the cookie (the password in the body) are not checked.
pub(super) async fn same_origin(
    State(app): State<AppState>,
    client: Client,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    if is_action(request.method())
        && cookie_token(headers).is_some()
        && let Some(why) = cross_origin(&app, client, headers)
    {
        return ApiError::new(403, "cross_origin", why).into_response();
    }
    next.run(request).await
}

/// A request body, read whole within the body timeout (`ployd serve --body-timeout`),
/// with whether its `Content-Type` is JSON.
pub(super) struct RequestBody {
    /// The bytes.
    pub bytes: Bytes,
    /// Whether `Content-Type` is `application/json` (parameters such as `charset` allowed).
    json: bool,
}

impl RequestBody {
    /// The body of a JSON route as `T`: a non-empty body must be marked
    /// `Content-Type: application/json` (else `415 unsupported_media_type`); an empty one
    /// needs no type. Then [`bodies::read`].
    pub(super) fn read<T: bodies::Body>(&self, empty: Empty) -> Result<T, ApiError> {
        if !self.bytes.is_empty() && !self.json {
            return Err(ApiError::new(
                415,
                "unsupported_media_type",
                "a request body here must be JSON sent with `Content-Type: application/json`",
            ));
        }
        bodies::read(&self.bytes, empty)
    }
}

/// Whether a `Content-Type` value is `application/json`, parameters aside.
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

impl FromRequest<AppState> for RequestBody {
    type Rejection = Response;

    async fn from_request(request: Request, app: &AppState) -> Result<RequestBody, Response> {
        let json = is_json(request.headers());
        let limit = app.options.body_timeout;
        match tokio::time::timeout(limit, Bytes::from_request(request, app)).await {
            Ok(Ok(bytes)) => Ok(RequestBody { bytes, json }),
            Ok(Err(rejection)) => Err(rejection.into_response()),
            Err(_) => {
                let mut res = ApiError::new(
                    408,
                    "request_timeout",
                    format!(
                        "the request body did not arrive within {} s",
                        limit.as_secs_f64()
                    ),
                )
                .into_response();
                res.headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
                Err(res)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_compare_without_case_or_default_ports() {
        assert_eq!(normal_origin("HTTP://Example.org:80"), "http://example.org");
        assert_eq!(normal_origin("https://a.b:443/"), "https://a.b");
        assert_eq!(normal_origin("https://a.b:80"), "https://a.b:80");
        assert_eq!(
            normal_origin("http://127.0.0.1:8080"),
            "http://127.0.0.1:8080"
        );
    }

    #[test]
    fn public_origins_are_scheme_host_and_port() {
        assert_eq!(
            parse_public_origin("https://Ployd.example.org/").unwrap(),
            "https://ployd.example.org"
        );
        assert_eq!(
            parse_public_origin("http://[::1]:8080").unwrap(),
            "http://[::1]:8080"
        );
        for bad in [
            "ployd.example.org",
            "ftp://x",
            "https://",
            "https://x/games",
            "https://u@x",
            "https://x?y",
        ] {
            assert!(parse_public_origin(bad).is_err(), "{bad}");
        }
    }
}
