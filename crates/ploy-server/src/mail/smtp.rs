//! Sending the mail queue through an SMTP relay (`ployd serve --smtp`, `ployd outbox
//! --send`), with `lettre`.
//!
//! Mail leaves in the order it was queued. A mail is marked sent only once the relay has
//! accepted it; a relay that cannot be reached, or answers with a temporary refusal
//! (4xx), or refuses the server's login or its lack of STARTTLS, leaves the mail in the
//! queue for a later try, after a wait that doubles with every failed try
//! ([`Relay::retry`], at most an hour). A permanent refusal of one mail (5xx, such as an
//! unknown recipient) marks that mail refused and lets the rest go on.

use std::path::PathBuf;
use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::{Mailbox, Message};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{SmtpTransport, Transport};

use crate::store::{Job, QueuedMail, Store, StoreError};

/// The environment variable that may hold the relay's password.
pub const PASSWORD_VARIABLE: &str = "PLOYD_SMTP_PASSWORD";

/// The longest wait between two tries of a mail.
const MAX_RETRY: Duration = Duration::from_secs(3600);

/// The `Auto-Submitted` header (RFC 3834): the server's mail is automatic, so that
/// auto-responders leave it alone.
#[derive(Clone, Debug)]
struct AutoSubmitted(String);

impl lettre::message::header::Header for AutoSubmitted {
    fn name() -> lettre::message::header::HeaderName {
        lettre::message::header::HeaderName::new_from_ascii_str("Auto-Submitted")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(AutoSubmitted(s.to_owned()))
    }

    fn display(&self) -> lettre::message::header::HeaderValue {
        lettre::message::header::HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// The relay flags of `ployd serve` and `ployd outbox`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RelayArgs {
    /// Sends the mail queue through the SMTP relay at HOST:PORT.
    #[arg(long, value_name = "HOST:PORT")]
    pub smtp: Option<String>,
    /// The sender of the server's mail (`From:`), such as `ployd@example.org`; the domain
    /// also names the messages (`Message-ID:`). Needed with `--smtp`.
    #[arg(long, value_name = "ADDRESS")]
    pub mail_from: Option<String>,
    /// Requires STARTTLS before anything is sent (the relay's certificate is checked
    /// against the system's roots and `--smtp-ca`).
    #[arg(long)]
    pub smtp_starttls: bool,
    /// Also trusts the certificate(s) in FILE (PEM) for STARTTLS.
    #[arg(long, value_name = "FILE")]
    pub smtp_ca: Option<PathBuf>,
    /// Authenticates to the relay as USER; the password is read from
    /// `--smtp-password-file` or the environment variable `PLOYD_SMTP_PASSWORD`.
    #[arg(long, value_name = "USER")]
    pub smtp_user: Option<String>,
    /// The file holding the relay password (its first line).
    #[arg(long, value_name = "FILE")]
    pub smtp_password_file: Option<PathBuf>,
    /// How long to wait for the relay before a try fails, seconds.
    #[arg(long, default_value_t = 30, value_name = "SECONDS")]
    pub smtp_timeout: u64,
    /// The wait after a first failed try, seconds; it doubles with every further failure,
    /// up to an hour.
    #[arg(long, default_value_t = 60, value_name = "SECONDS")]
    pub smtp_retry: u64,
}

/// Why a relay cannot be set up.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct RelayError(String);

/// An SMTP relay and the server's sender address.
pub struct Relay {
    transport: SmtpTransport,
    from: Mailbox,
    domain: String,
    retry: Duration,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Relay")
            .field("from", &self.from.to_string())
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

impl RelayArgs {
    /// The relay these flags name (`None` without `--smtp`).
    ///
    /// # Errors
    /// A bad `HOST:PORT` or sender, `--smtp-user` without a password, an unreadable
    /// password or certificate file.
    pub fn relay(&self) -> Result<Option<Relay>, RelayError> {
        let Some(target) = &self.smtp else {
            return Ok(None);
        };
        let (host, port) = target
            .rsplit_once(':')
            .and_then(|(h, p)| Some((h.trim_matches(['[', ']']), p.parse::<u16>().ok()?)))
            .filter(|(h, _)| !h.is_empty())
            .ok_or_else(|| RelayError(format!("--smtp {target}: not HOST:PORT")))?;
        let from_text = self
            .mail_from
            .as_deref()
            .ok_or_else(|| RelayError("--smtp needs --mail-from ADDRESS".to_owned()))?;
        let from: Mailbox = from_text
            .parse()
            .map_err(|e| RelayError(format!("--mail-from {from_text}: {e}")))?;
        let domain = from.email.domain().to_owned();
        let mut builder = SmtpTransport::builder_dangerous(host)
            .port(port)
            .timeout(Some(Duration::from_secs(self.smtp_timeout.max(1))))
            .hello_name(ClientId::Domain(domain.clone()));
        if self.smtp_starttls {
            let mut tls = TlsParameters::builder(host.to_owned());
            if let Some(ca) = &self.smtp_ca {
                let pem = std::fs::read(ca)
                    .map_err(|e| RelayError(format!("--smtp-ca {}: {e}", ca.display())))?;
                let cert = Certificate::from_pem(&pem)
                    .map_err(|e| RelayError(format!("--smtp-ca {}: {e}", ca.display())))?;
                tls = tls.add_root_certificate(cert);
            }
            let tls = tls
                .build_rustls()
                .map_err(|e| RelayError(format!("STARTTLS: {e}")))?;
            builder = builder.tls(Tls::Required(tls));
        } else if self.smtp_ca.is_some() {
            return Err(RelayError("--smtp-ca needs --smtp-starttls".to_owned()));
        }
        if let Some(user) = &self.smtp_user {
            let password = match &self.smtp_password_file {
                Some(file) => std::fs::read_to_string(file)
                    .map_err(|e| {
                        RelayError(format!("--smtp-password-file {}: {e}", file.display()))
                    })?
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
                None => std::env::var(PASSWORD_VARIABLE).map_err(|_| {
                    RelayError(format!(
                        "--smtp-user needs --smtp-password-file or {PASSWORD_VARIABLE}"
                    ))
                })?,
            };
            builder = builder.credentials(Credentials::new(user.clone(), password));
        }
        Ok(Some(Relay {
            transport: builder.build(),
            from,
            domain,
            retry: Duration::from_secs(self.smtp_retry.max(1)),
        }))
    }
}

/// Whether a relay's answer refuses one mail for good: a permanent refusal (5xx) other
/// than those about the server's own session (530 STARTTLS or authentication required,
/// 534, 535 and 538 authentication refused), which are the relay's setup and leave the
/// whole queue waiting.
fn refuses_mail(e: &lettre::transport::smtp::Error) -> bool {
    e.is_permanent() && !matches!(e.status().map(u16::from), Some(530 | 534 | 535 | 538))
}

/// What one pass over the queue did ([`Relay::drain`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drained {
    /// Mail the relay accepted.
    pub sent: usize,
    /// Mail the relay refused for good.
    pub refused: usize,
    /// Whether the pass stopped at a mail that must wait for a later try.
    pub deferred: bool,
}

impl Relay {
    /// The wait before the next try of a mail tried `attempts` times (the first wait,
    /// doubled with every further failure, at most an hour), seconds.
    #[must_use]
    pub fn retry(&self, attempts: i64) -> i64 {
        let doublings = u32::try_from(attempts.clamp(1, 20) - 1).unwrap_or(0);
        let wait = self
            .retry
            .saturating_mul(1u32 << doublings)
            .min(MAX_RETRY.max(self.retry));
        i64::try_from(wait.as_secs()).unwrap_or(i64::MAX)
    }

    /// The `Message-ID` of queued mail `id`.
    #[must_use]
    pub fn message_id(&self, id: i64) -> String {
        format!("<ployd.{id}@{}>", self.domain)
    }

    /// The message for a queued mail: from the server's sender, a `Message-ID` made of its
    /// number, `Auto-Submitted`, and `In-Reply-To` and `References` naming the mail it
    /// answers, or (after the first mail of its thread) that first mail.
    ///
    /// # Errors
    /// A recipient that is not an address (the mail is refused for good).
    pub fn message(&self, mail: &QueuedMail, thread_start: i64) -> Result<Message, String> {
        let to: Mailbox = mail
            .mail
            .recipient
            .parse()
            .map_err(|e| format!("bad recipient: {e}"))?;
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.mail.subject.clone())
            .message_id(Some(self.message_id(mail.id)))
            .header(ContentType::TEXT_PLAIN);
        let answers = match &mail.mail.in_reply_to {
            Some(id) => Some(id.clone()),
            None if thread_start != mail.id => Some(self.message_id(thread_start)),
            None => None,
        };
        if let Some(first) = answers {
            builder = builder.in_reply_to(first.clone()).references(first);
        }
        let auto = if mail.mail.in_reply_to.is_some() {
            "auto-replied"
        } else {
            "auto-generated"
        };
        builder = builder.header(AutoSubmitted(auto.to_owned()));
        builder
            .body(mail.mail.body.clone())
            .map_err(|e| format!("cannot build the message: {e}"))
    }

    /// Sends the mail due at the time `now()` gives, oldest first, until the queue is
    /// empty or the oldest mail must wait. On PostgreSQL one process at a time sends
    /// (an advisory lock): when another is sending, this sends nothing.
    ///
    /// # Errors
    /// Storage failure.
    pub fn drain(&self, store: &Store, now: impl Fn() -> i64) -> Result<Drained, StoreError> {
        store
            .exclusive(Job::Mail, || self.drain_now(store, now))?
            .unwrap_or_else(|| Ok(Drained::default()))
    }

    fn drain_now(&self, store: &Store, now: impl Fn() -> i64) -> Result<Drained, StoreError> {
        let mut done = Drained::default();
        while let Some(mail) = store.next_mail(now())? {
            let start = store.thread_start(mail.id)?;
            let message = match self.message(&mail, start) {
                Ok(m) => m,
                Err(e) => {
                    store.mail_failed(mail.id, now(), &e, None)?;
                    done.refused += 1;
                    continue;
                }
            };
            match self.transport.send(&message) {
                Ok(_) => {
                    store.mail_sent(mail.id, now())?;
                    done.sent += 1;
                }
                Err(e) if refuses_mail(&e) => {
                    store.mail_failed(mail.id, now(), &e.to_string(), None)?;
                    done.refused += 1;
                }
                Err(e) => {
                    let t = now();
                    let retry_at = t.saturating_add(self.retry(mail.attempts + 1));
                    store.mail_failed(mail.id, t, &e.to_string(), Some(retry_at))?;
                    done.deferred = true;
                    break;
                }
            }
        }
        Ok(done)
    }
}
