//! Mail: the e-mail address of an account ([`address`]) and what the server mails to it.
//!
//! An account may register one address; nothing but the confirmation code goes to it until
//! the command `confirm` returns that code. Mail waits in a queue in the database
//! ([`Store::mail_queue`](crate::store::Store::mail_queue)); every mail ends with
//! [`stop_line`], the one line that says how to stop mail.

pub mod address;
pub mod inbound;
pub mod outbound;
pub mod smtp;

pub use address::{CODE_SECONDS, CODE_TRIES, EmailChange, check_address};
pub use smtp::{Drained, Relay, RelayArgs, RelayError};

/// The last line of every mail to `userid`: how to stop mail from the server.
#[must_use]
pub fn stop_line(userid: &str) -> String {
    format!("To stop mail from this server, send the command: email {userid} PASSWORD none")
}

/// `body` with the closing [`stop_line`] for `userid`, after a signature separator.
#[must_use]
pub fn with_stop_line(body: &str, userid: &str) -> String {
    let mut out = body.trim_end_matches('\n').to_owned();
    out.push_str("\n\n-- \n");
    out.push_str(&stop_line(userid));
    out.push('\n');
    out
}
