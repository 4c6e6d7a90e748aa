//! An account's e-mail address: registering it (`email USER PASSWORD ADDRESS`, or
//! `"email"` at signup), removing it (`email USER PASSWORD none`) and confirming it with
//! the code mailed to it (`confirm USER PASSWORD CODE`).

use crate::auth;
use crate::service::{ApiError, Credentials, Service};
use crate::store::{Confirmation, NewMail};

/// How long a confirmation code is good for, seconds (24 hours).
pub const CODE_SECONDS: i64 = 24 * 3600;

/// How many times a confirmation code may be tried.
pub const CODE_TRIES: i64 = 5;

/// The longest address accepted, bytes (RFC 5321's limit on a path).
const MAX_ADDRESS_BYTES: usize = 254;

/// Checks an e-mail address as given to `email` or at signup; the address, trimmed.
///
/// # Errors
/// 400 for text that is not one plain address (`user@domain`, at most 254 bytes).
pub fn check_address(text: &str) -> Result<String, ApiError> {
    let bad = |why: &str| {
        ApiError::bad_request(format!(
            "`{}` is not an e-mail address: {why}",
            crate::game::excerpt(text)
        ))
    };
    if text.len() > MAX_ADDRESS_BYTES {
        return Err(bad("longer than 254 bytes"));
    }
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad("it holds spaces or control characters"));
    }
    let address: lettre::Address = text.parse().map_err(|e| {
        use lettre::address::AddressError as E;
        bad(match e {
            E::MissingParts => "no user and domain around an `@`",
            E::InvalidUser => "the part before the `@` is not valid",
            E::InvalidDomain => "the domain is not valid",
            _ => "not one plain address",
        })
    })?;
    Ok(address.to_string())
}

/// A random six-digit code.
fn new_code() -> Result<String, ApiError> {
    // Rejection sampling keeps every code equally likely.
    loop {
        let mut bytes = [0u8; 4];
        getrandom::fill(&mut bytes)
            .map_err(|e| ApiError::internal(format!("no random numbers: {e}")))?;
        let n = u32::from_le_bytes(bytes);
        if n < 4_294_000_000 {
            return Ok(format!("{:06}", n % 1_000_000));
        }
    }
}

fn code_hash(userid: &str, code: &str) -> String {
    auth::token_hash(&format!("{}:{code}", userid.to_ascii_lowercase()))
}

/// What `email` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EmailChange {
    /// A code was mailed to the new address.
    CodeSent {
        /// The userid as stored.
        userid: String,
        /// The address.
        address: String,
    },
    /// The address was removed (or there was none).
    Removed {
        /// The userid as stored.
        userid: String,
    },
}

impl Service {
    /// `email USER PASSWORD ADDRESS|none`: registers `address` for the user of
    /// `credentials` (unconfirmed, with a new code mailed to it), or removes the user's
    /// address (`none`), which also drops the user's mail not sent yet.
    ///
    /// # Errors
    /// 400 for a bad address; as [`Service::authenticate`]; nothing changes on any error.
    pub fn set_email(
        &self,
        credentials: &Credentials,
        address: &str,
    ) -> Result<EmailChange, ApiError> {
        if address.eq_ignore_ascii_case("none") {
            let userid = self.authenticate(credentials)?;
            self.store().remove_mail_address(&userid)?;
            return Ok(EmailChange::Removed { userid });
        }
        let address = check_address(address)?;
        let userid = self.authenticate(credentials)?;
        self.send_code(&userid, &address)?;
        Ok(EmailChange::CodeSent { userid, address })
    }

    /// Registers `address` (checked with [`check_address`]) for `userid`, which must
    /// exist, unconfirmed, and queues the mail with its code.
    ///
    /// # Errors
    /// 403 if there is no such user; storage failure.
    pub fn send_code(&self, userid: &str, address: &str) -> Result<(), ApiError> {
        let code = new_code()?;
        let now = self.now();
        let body = format!(
            "Someone, probably you, gave this address to the account {userid} of this ployd \
             server.\n\n\
             To have its mail sent here, send the command\n\n    confirm {userid} PASSWORD {code}\n\n\
             within 24 hours. If it was not you, ignore this mail: nothing else will be sent \
             to this address until the code is confirmed.\n"
        );
        let mail = NewMail {
            userid: Some(userid.to_owned()),
            recipient: address.to_owned(),
            subject: format!("ployd: confirm the address of {userid}"),
            body: super::with_stop_line(&body, userid),
            thread: None,
            in_reply_to: None,
        };
        if !self.store().set_mail_address(
            userid,
            address,
            &code_hash(userid, &code),
            now + CODE_SECONDS,
            CODE_TRIES,
            &mail,
            now,
        )? {
            return Err(ApiError::forbidden(format!("there is no user `{userid}`")));
        }
        Ok(())
    }

    /// `confirm USER PASSWORD CODE`: confirms the user's address with the code mailed to
    /// it; the userid as stored and the address.
    ///
    /// # Errors
    /// As [`Service::authenticate`]; 404 if the user has no address; 409 `expired` after 24
    /// hours, `no_tries` after 5 wrong codes (`email` sends a new code), `confirmed` if it
    /// is confirmed already; 403 `wrong_code` for a wrong code (one try fewer).
    pub fn confirm_email(
        &self,
        credentials: &Credentials,
        code: &str,
    ) -> Result<(String, String), ApiError> {
        let userid = self.authenticate(credentials)?;
        let Some(address) = self.store().mail_address(&userid)? else {
            return Err(ApiError::not_found(format!(
                "{userid} has no e-mail address; `email {userid} PASSWORD ADDRESS` gives one"
            )));
        };
        let again = format!(
            "`email {userid} PASSWORD {}` sends a new code",
            address.address
        );
        match self
            .store()
            .confirm_mail_address(&userid, &code_hash(&userid, code), self.now())?
        {
            Confirmation::Confirmed => Ok((userid, address.address)),
            Confirmation::Already => Err(ApiError::conflict(
                "confirmed",
                format!("{} is confirmed already", address.address),
            )),
            Confirmation::NoAddress => Err(ApiError::not_found(format!(
                "{userid} has no e-mail address"
            ))),
            Confirmation::Expired => Err(ApiError::conflict(
                "expired",
                format!("the code has expired (after 24 hours); {again}"),
            )),
            Confirmation::NoTriesLeft => Err(ApiError::conflict(
                "no_tries",
                format!("the code was tried {CODE_TRIES} times; {again}"),
            )),
            Confirmation::Wrong { tries_left } => Err(ApiError::new(
                403,
                "wrong_code",
                format!("wrong code; {tries_left} tries left"),
            )),
        }
    }
}
