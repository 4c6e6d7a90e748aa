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
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            timer_interval: Duration::from_secs(60),
            secure_cookies: false,
            trust_proxy: false,
        }
    }
}
