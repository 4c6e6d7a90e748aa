//! What `ployd serve` was told: its limits, timeouts and how far it trusts a proxy. Every
//! limit of the public server is a field here and a `ployd serve` flag, so that tests can
//! set it.

use std::time::Duration;

/// The settings of [`serve`](super::serve).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ServeOptions {
    /// How often deadlines and other timers are applied.
    pub timer_interval: Duration,
    /// The session cookie carries `Secure` (always; under `trust_proxy` it also does when
    /// the proxy says the request came over HTTPS).
    pub secure_cookies: bool,
    /// Take the client's address and scheme from the proxy's `X-Forwarded-For` and
    /// `X-Forwarded-Proto` (`ployd serve --trust-proxy`).
    pub trust_proxy: bool,
    /// The server's origin (`https://host[:port]`, as [`parse_public_origin`] gives it)
    /// against which a cookie-bearing action's `Origin` is checked; `None`: the scheme and
    /// the request's `Host` (`ployd serve --public-origin`).
    ///
    /// [`parse_public_origin`]: super::parse_public_origin
    pub public_origin: Option<String>,
    /// How long a client may take to send a request's headers, counted from the connection's
    /// start or, on a kept-alive connection, from its first byte (`--header-timeout`).
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body, counted from when a handler
    /// starts reading it (`--body-timeout`): `408 request_timeout` and the connection closes.
    pub body_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request (`--idle-timeout`).
    pub idle_timeout: Duration,
    /// The most connections open at once, event streams included (`--max-connections`);
    /// beyond it a new connection gets `503 busy` and is closed at once.
    pub max_connections: usize,
    /// How often an event stream sends a comment line when it has nothing else to send
    /// (`--stream-keepalive`).
    pub stream_keep_alive: Duration,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            timer_interval: Duration::from_secs(60),
            secure_cookies: false,
            trust_proxy: false,
            public_origin: None,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            max_connections: 1024,
            stream_keep_alive: Duration::from_secs(25),
        }
    }
}
