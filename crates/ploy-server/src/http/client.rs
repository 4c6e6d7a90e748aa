//! Who sent a request: the client's address and whether it came over HTTPS, from the
//! socket or, under `--trust-proxy`, from the proxy's `X-Forwarded-For` and
//! `X-Forwarded-Proto`.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;

use super::AppState;

/// The client of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Client {
    /// The client's address: the socket's peer, or under `--trust-proxy` the last address
    /// of `X-Forwarded-For` (the one the proxy itself added), when it is one.
    pub ip: IpAddr,
    /// Whether the client reached us over HTTPS: only under `--trust-proxy`, from the last
    /// `X-Forwarded-Proto`.
    pub https: bool,
}

impl Client {
    /// The client of a request from `peer` with `headers`, trusting the proxy's headers
    /// when `trust_proxy`.
    pub(crate) fn of(peer: IpAddr, headers: &HeaderMap, trust_proxy: bool) -> Client {
        if !trust_proxy {
            return Client {
                ip: peer,
                https: false,
            };
        }
        let last = |name: &str| {
            headers
                .get_all(name)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .map(str::trim)
                .rfind(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let ip = last("x-forwarded-for")
            .and_then(|v| v.parse::<IpAddr>().ok())
            .unwrap_or(peer);
        let https = last("x-forwarded-proto").is_some_and(|p| p.eq_ignore_ascii_case("https"));
        Client { ip, https }
    }
}

impl FromRequestParts<AppState> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Client, std::convert::Infallible> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::from([127, 0, 0, 1]), |c| c.0.ip());
        Ok(Client::of(peer, &parts.headers, state.options.trust_proxy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn proxy_headers_count_only_when_trusted() {
        let peer = IpAddr::from([127, 0, 0, 9]);
        let mut h = HeaderMap::new();
        h.append(
            "x-forwarded-for",
            HeaderValue::from_static("6.6.6.6, 10.0.0.1"),
        );
        h.append("x-forwarded-for", HeaderValue::from_static("192.0.2.7"));
        h.append("x-forwarded-proto", HeaderValue::from_static("https"));
        assert_eq!(
            Client::of(peer, &h, false),
            Client {
                ip: peer,
                https: false
            }
        );
        assert_eq!(
            Client::of(peer, &h, true),
            Client {
                ip: IpAddr::from([192, 0, 2, 7]),
                https: true
            }
        );
        let mut bad = HeaderMap::new();
        bad.append(
            "x-forwarded-for",
            HeaderValue::from_static("not-an-address"),
        );
        assert_eq!(Client::of(peer, &bad, true).ip, peer);
    }
}
