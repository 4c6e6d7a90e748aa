//! The mail queue as `ployd` runs it: listing it (`ployd outbox`), draining it once
//! (`ployd outbox --send`) and draining it all the time (`ployd serve --smtp`).

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use super::smtp::{Relay, RelayArgs};
use crate::service::Service;
use crate::store::QueuedMail;

/// How often `ployd serve` looks for mail to send.
const POLL: Duration = Duration::from_secs(1);

/// One line (and the relay's last answer, if any) of `ployd outbox` for `mail`.
#[must_use]
pub fn describe(mail: &QueuedMail) -> String {
    let state = match (mail.sent_at, mail.failed_at) {
        (Some(t), _) => format!("sent at {t}"),
        (None, Some(t)) => format!("refused at {t}"),
        (None, None) => format!("waiting, next try at {}", mail.next_try),
    };
    let mut out = format!(
        "[{}] to {}{}: {} ({state}, {} tries)",
        mail.id,
        mail.mail.recipient,
        mail.mail
            .userid
            .as_deref()
            .map_or_else(String::new, |u| format!(" ({u})")),
        mail.mail.subject,
        mail.attempts
    );
    if let Some(e) = &mail.last_error
        && mail.sent_at.is_none()
    {
        let _ = write!(out, "\n    last try: {}", e.replace(['\n', '\r'], " "));
    }
    out
}

/// `ployd outbox [--send] [--all]`: sends what is due (with `send`), then prints the
/// queue.
///
/// # Errors
/// A bad relay setting, storage failure, a closed standard output.
pub fn outbox(service: &Service, send: bool, all: bool, args: &RelayArgs) -> Result<(), String> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if send {
        let relay = args
            .relay()
            .map_err(|e| e.to_string())?
            .ok_or("--send needs --smtp HOST:PORT")?;
        let done = relay
            .drain(service.store(), || service.now())
            .map_err(|e| e.to_string())?;
        writeln!(
            out,
            "sent {}, refused {}{}",
            done.sent,
            done.refused,
            if done.deferred {
                "; the relay failed: the rest waits for a later try"
            } else {
                ""
            }
        )
        .map_err(|e| e.to_string())?;
    }
    let queue = service.store().mail_queue(all).map_err(|e| e.to_string())?;
    for mail in &queue {
        writeln!(out, "{}", describe(mail)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Starts the thread of `ployd serve --smtp` that sends the queue through `relay`, looking
/// for due mail every second.
///
/// # Errors
/// The thread cannot start.
pub fn start_sender(service: &Arc<Service>, relay: Relay) -> std::io::Result<()> {
    let weak = Arc::downgrade(service);
    std::thread::Builder::new()
        .name("mail".to_owned())
        .spawn(move || {
            loop {
                let Some(service) = weak.upgrade() else { break };
                match relay.drain(service.store(), || service.now()) {
                    Ok(done) if done.deferred => {
                        eprintln!("ployd: the mail relay failed; mail waits for a later try");
                    }
                    Ok(_) => {}
                    Err(e) => eprintln!("ployd: mail queue: {e}"),
                }
                drop(service);
                std::thread::sleep(POLL);
            }
        })
        .map(|_| ())
}
