//! Mail in: `ployd mail` reads one message (RFC 5322) on standard input, as a mail
//! server's alias pipes it, and runs the command lines of its text.
//!
//! - The text is the message's plain-text part (of a multipart message, the first one), or
//!   the text of its HTML part when it has no plain text; a message with neither is
//!   refused.
//! - Lines quoted with `>`, `#` comments and blank lines are skipped; a signature line
//!   (`-- `) ends the commands.
//! - The sender (`From:`) must be the confirmed address of some account, else the message
//!   is dropped without a reply (no mail to addresses that did not ask for it). Every line
//!   that acts as a USER (with a password) must name a USER whose confirmed address is the
//!   sender's; the password is checked as always. `signup` is refused by mail.
//! - The bounds of `POST /api/command` hold per message: at most
//!   [`MAX_COMMANDS`] command lines (more: nothing runs) and
//!   [`MAX_COMMAND_REPLY`] bytes of replies; a message is at
//!   most [`MAX_MESSAGE`] bytes.
//! - The replies go back to the sender in one mail (`In-Reply-To` the message), each after
//!   its command line with the password (and a new password) shown as `***`.
//! - Automatic mail (`Auto-Submitted:` other than `no`, `Precedence: bulk|junk|list`) is
//!   dropped, so that the server and an auto-responder never answer each other.

use std::io::Read;

use mail_parser::MessageParser;

use crate::command::{self, Caller, Reply};
use crate::http::{MAX_COMMAND_REPLY, MAX_COMMANDS};
use crate::service::{ApiError, Service};
use crate::store::NewMail;

/// The largest message `ployd mail` reads, bytes (1 MiB); a larger one is refused.
pub const MAX_MESSAGE: usize = 1024 * 1024;

/// Reads a message from `input`: its first [`MAX_MESSAGE`] bytes, and whether there was
/// more (the rest is read and dropped, so that the mail server's pipe does not break).
///
/// # Errors
/// Reading failed.
pub fn read_message(mut input: impl Read) -> std::io::Result<(Vec<u8>, bool)> {
    let mut raw = Vec::new();
    (&mut input)
        .take(u64::try_from(MAX_MESSAGE).unwrap_or(u64::MAX) + 1)
        .read_to_end(&mut raw)?;
    let too_large = raw.len() > MAX_MESSAGE;
    if too_large {
        raw.truncate(MAX_MESSAGE);
        std::io::copy(&mut input, &mut std::io::sink())?;
    }
    Ok((raw, too_large))
}

/// What became of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Received {
    /// The replies were queued to the sender: the number of command lines run (0 when the
    /// whole message was refused).
    Answered {
        /// The sender.
        to: String,
        /// The command lines run.
        commands: usize,
    },
    /// Dropped without a reply, and why.
    Dropped(String),
}

/// The word of a command line that names the user it acts as (its password follows), if
/// it acts as one; `Err` for a command not taken by mail.
fn acting_user(service: &Service, words: &[&str]) -> Result<Option<usize>, ApiError> {
    let Some(&first) = words.first() else {
        return Ok(None);
    };
    match first {
        "signup" => Err(ApiError::forbidden(
            "signup is not taken by mail: sign up on the server's page or with `ployd cmd`, \
             then give this address with `email`",
        )),
        "password" | "inbox" | "email" | "confirm" => Ok(Some(1)),
        game if service.registry().get(game).is_some() => match words.get(1).copied() {
            None | Some("show" | "history" | "games" | "help") => Ok(None),
            Some("move" | "resign" | "propose" | "accept" | "reject" | "join" | "decline") => {
                Ok(Some(3))
            }
            Some("challenge") => {
                // As the command language reads it: options up to the first word without
                // `-`, or up to `--`.
                let opts = words[2..]
                    .iter()
                    .take_while(|w| w.starts_with('-') && **w != "--")
                    .count();
                let at = 2 + opts;
                Ok(Some(if words.get(at) == Some(&"--") {
                    at + 1
                } else {
                    at
                }))
            }
            Some(verb) => Err(ApiError::bad_request(format!(
                "`{game} {}` is not taken by mail",
                crate::game::excerpt(verb)
            ))),
        },
        // Everything else (help, list, unknown words) needs no user; the command language
        // answers it.
        _ => Ok(None),
    }
}

/// The command lines of a message's text: no blank lines, `>` quotes or `#` comments, and
/// nothing from a signature line (`-- `) on.
#[must_use]
pub fn command_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if line == "-- " || trimmed == "--" {
            break;
        }
        if trimmed.is_empty() || trimmed.starts_with('>') || trimmed.starts_with('#') {
            continue;
        }
        out.push(trimmed);
    }
    out
}

/// Whether a message says it is automatic (RFC 3834's `Auto-Submitted`, or a `Precedence`
/// of bulk mail).
fn automatic(m: &mail_parser::Message<'_>) -> bool {
    let header = |name: &str| {
        m.header_raw(name)
            .map(|v| v.trim().to_ascii_lowercase())
            .unwrap_or_default()
    };
    let auto = header("Auto-Submitted");
    let precedence = header("Precedence");
    (!auto.is_empty() && !auto.starts_with("no"))
        || ["bulk", "junk", "list"].contains(&precedence.as_str())
}

impl Service {
    /// Runs the commands of one mail message (`ployd mail`): `raw` is the message, or its
    /// first [`MAX_MESSAGE`] bytes with `too_large` when there was more. The replies are
    /// queued for the sender in one mail; see [`inbound`](self) for the rules.
    ///
    /// # Errors
    /// Storage failure (the mail server should try again later).
    pub fn receive_mail(&self, raw: &[u8], too_large: bool) -> Result<Received, ApiError> {
        let Some(message) = MessageParser::default().parse(raw) else {
            return Ok(Received::Dropped("not a mail message".to_owned()));
        };
        let Some(sender) = message
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .map(str::to_owned)
        else {
            return Ok(Received::Dropped("no sender".to_owned()));
        };
        if automatic(&message) {
            return Ok(Received::Dropped(format!("automatic mail from {sender}")));
        }
        let users = self.store().users_of_address(&sender)?;
        let Some(owner) = users.first().cloned() else {
            return Ok(Received::Dropped(format!(
                "{sender} is no confirmed address"
            )));
        };
        let subject = message.subject().unwrap_or_default();
        let reply_subject = if subject.is_empty() {
            "ployd: your commands".to_owned()
        } else if subject.to_ascii_lowercase().starts_with("re:") {
            subject.to_owned()
        } else {
            format!("Re: {subject}")
        };
        let in_reply_to = message.message_id().map(|id| format!("<{id}>"));
        let answer = |body: String, commands: usize| -> Result<Received, ApiError> {
            self.store().queue_mail(
                &NewMail {
                    userid: Some(owner.clone()),
                    recipient: sender.clone(),
                    subject: reply_subject.clone(),
                    body: super::with_stop_line(&body, &owner),
                    thread: None,
                    in_reply_to: in_reply_to.clone(),
                },
                self.now(),
            )?;
            Ok(Received::Answered {
                to: sender.clone(),
                commands,
            })
        };
        let refuse =
            |e: ApiError| answer(format!("{}\nNothing was run.\n", Reply::error(&e).first), 0);

        if too_large {
            return refuse(ApiError::new(
                413,
                "too_large",
                format!("the message is larger than {MAX_MESSAGE} bytes"),
            ));
        }
        let Some(text) = message.body_text(0) else {
            return refuse(ApiError::bad_request(
                "the message has no text part: write the commands as plain text",
            ));
        };
        let lines = command_lines(&text);
        if lines.is_empty() {
            return refuse(ApiError::bad_request(
                "the message holds no command; `help` lists them",
            ));
        }
        if lines.len() > MAX_COMMANDS {
            return refuse(ApiError::new(
                413,
                "too_many_commands",
                format!(
                    "the message holds {} command lines; at most {MAX_COMMANDS} run in one message",
                    lines.len()
                ),
            ));
        }
        let caller = Caller::default();
        let mut body = String::new();
        for line in &lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            let user_at = acting_user(self, &words);
            let mut shown: Vec<&str> = words.clone();
            if let Ok(Some(at)) = user_at {
                // The password, and for `password` the new one too.
                let secrets = if words.first() == Some(&"password") {
                    2
                } else {
                    1
                };
                for w in shown.iter_mut().skip(at + 1).take(secrets) {
                    *w = "***";
                }
            }
            body.push_str(&format!("> {}\n", shown.join(" ")));
            let reply = if body.len() >= MAX_COMMAND_REPLY {
                Reply::error(&ApiError::new(413, "too_large", "reply too large"))
            } else {
                match user_at {
                    Err(e) => Reply::error(&e),
                    Ok(Some(at))
                        if words
                            .get(at)
                            .is_some_and(|u| !users.iter().any(|o| o.eq_ignore_ascii_case(u))) =>
                    {
                        Reply::error(&ApiError::forbidden(format!(
                            "{sender} is not the confirmed address of `{}`; nothing was run",
                            crate::game::excerpt(words[at])
                        )))
                    }
                    _ => command::execute_for(self, line, &caller),
                }
            };
            for l in std::iter::once(&reply.first).chain(&reply.body) {
                body.push_str(l);
                body.push('\n');
            }
            body.push('\n');
        }
        answer(body, lines.len())
    }
}

/// `ployd mail`: reads the message on standard input and runs it; says on standard error
/// what became of it.
///
/// # Errors
/// Reading failed, or storage failed (the mail server should try again: `ployd` then exits
/// with status 75, `EX_TEMPFAIL`).
pub fn run_mail(service: &Service) -> Result<(), String> {
    let (raw, too_large) =
        read_message(std::io::stdin().lock()).map_err(|e| format!("reading the message: {e}"))?;
    match service.receive_mail(&raw, too_large) {
        Ok(Received::Answered { to, commands }) => {
            eprintln!("ployd mail: {commands} command lines from {to}; the replies are queued");
            Ok(())
        }
        Ok(Received::Dropped(why)) => {
            eprintln!("ployd mail: dropped without a reply: {why}");
            Ok(())
        }
        Err(e) => Err(format!("mail: {e}")),
    }
}
