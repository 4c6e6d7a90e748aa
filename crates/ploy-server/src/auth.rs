//! Accounts: userid and password rules, argon2id password hashes, session tokens.
//!
//! - A userid is 1 to 32 ASCII letters, digits, `_` or `-`; a new one begins with a letter
//!   or a digit ([`check_new_userid`]; older ones that begin with `_` or `-` keep working);
//!   userids are unique regardless of case (`Alice` cannot sign up once `alice` exists);
//!   `bot` (in any case) is reserved for the built-in bot.
//! - A new or changed password is 8 to 1,024 bytes of UTF-8, none of them whitespace or a
//!   control character (so that every account can also use the command language, whose
//!   words are separated by spaces). Passwords set before this rule (1 to 128 characters)
//!   still sign in: the rule is checked when a password is set, never when one is checked.
//! - Passwords are stored only as argon2id hashes in the PHC string format, with a random
//!   16-byte salt and the parameters [`HashParams`] (default: 19 MiB of memory, 2 passes, 1
//!   lane, the OWASP recommendation); the parameters travel inside each hash, so changing
//!   them affects new accounts only.
//! - A session token is 32 random bytes (64 hex digits); the database keeps only its
//!   SHA-256.

use std::fmt::Write as _;
use std::sync::OnceLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use sha2::{Digest, Sha256};

/// The userid the built-in bot plays under.
pub const BOT: &str = "bot";

/// Argon2id cost parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashParams {
    /// Memory in KiB.
    pub memory_kib: u32,
    /// Passes over the memory.
    pub iterations: u32,
    /// Lanes.
    pub parallelism: u32,
}

impl Default for HashParams {
    /// 19 MiB, 2 passes, 1 lane.
    fn default() -> HashParams {
        HashParams {
            memory_kib: 19 * 1024,
            iterations: 2,
            parallelism: 1,
        }
    }
}

/// Checks a userid.
///
/// # Errors
/// What is wrong with it.
pub fn check_userid(userid: &str) -> Result<(), String> {
    let ok_chars = userid
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if userid.is_empty() || userid.len() > 32 || !ok_chars {
        return Err(format!(
            "`{}` is not a userid: 1 to 32 letters, digits, `_` or `-`",
            crate::game::excerpt(userid)
        ));
    }
    Ok(())
}

/// Checks a userid for a new account: a userid ([`check_userid`]) that begins with a letter
/// or a digit, so that it can never be read as an option (`-x`) of a command.
///
/// # Errors
/// What is wrong with it.
pub fn check_new_userid(userid: &str) -> Result<(), String> {
    check_userid(userid)?;
    if !userid.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(format!(
            "`{}` is not a new userid: it must begin with a letter or a digit",
            crate::game::excerpt(userid)
        ));
    }
    Ok(())
}

/// The fewest bytes of a new password.
pub const MIN_PASSWORD_BYTES: usize = 8;

/// The most bytes of a password.
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// Checks a new password: [`MIN_PASSWORD_BYTES`] to [`MAX_PASSWORD_BYTES`] bytes, no
/// whitespace, no control character.
///
/// # Errors
/// What is wrong with it (never the password itself).
pub fn check_password(password: &str) -> Result<(), String> {
    let n = password.len();
    if !(MIN_PASSWORD_BYTES..=MAX_PASSWORD_BYTES).contains(&n)
        || password
            .chars()
            .any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(format!(
            "a password is {MIN_PASSWORD_BYTES} to {MAX_PASSWORD_BYTES} bytes without spaces or control characters"
        ));
    }
    Ok(())
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    // The operating system's generator; without it no account or session can be safe.
    getrandom::fill(&mut bytes).expect("the operating system's random generator works");
    bytes
}

/// The argon2id hash of `password` in PHC format.
///
/// # Errors
/// Parameters argon2 refuses.
pub fn hash_password(password: &str, params: HashParams) -> Result<String, String> {
    let p = Params::new(
        params.memory_kib,
        params.iterations,
        params.parallelism,
        None,
    )
    .map_err(|e| format!("argon2 parameters: {e}"))?;
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, p);
    let salt = SaltString::encode_b64(&random_bytes::<16>()).map_err(|e| e.to_string())?;
    argon
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("argon2: {e}"))
}

/// Whether `password` matches the PHC `hash` (with the parameters stored in it). The
/// comparison is argon2's, in constant time.
#[must_use]
pub fn verify_password(password: &str, hash: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else {
        return false;
    };
    Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok()
}

/// Spends the time of one verification against a hash of `params`, so that an unknown
/// userid takes as long to refuse as a wrong password.
pub fn verify_nothing(password: &str, params: HashParams) {
    static DUMMY: OnceLock<Option<String>> = OnceLock::new();
    if let Some(h) = DUMMY.get_or_init(|| hash_password("not a password", params).ok()) {
        let _ = verify_password(password, h);
    }
}

/// A new session token.
#[must_use]
pub fn new_token() -> String {
    hex(&random_bytes::<32>())
}

/// What the database keeps of a token.
#[must_use]
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userids_and_passwords() {
        assert!(check_userid("alice_1-x").is_ok());
        assert!(check_userid("").is_err());
        assert!(check_userid(&"a".repeat(33)).is_err());
        assert!(check_userid(&"a".repeat(32)).is_ok());
        assert!(check_userid("al ice").is_err());
        assert!(check_userid("alicé").is_err());
        assert!(check_userid("-x").is_ok());
        assert!(check_new_userid("-x").is_err());
        assert!(check_new_userid("_x").is_err());
        assert!(check_new_userid("7x").is_ok());
        assert!(check_new_userid("x-").is_ok());
        assert!(check_new_userid("al ice").is_err());
        assert!(check_password("s3cret!").is_err());
        assert!(check_password("s3cret!!").is_ok());
        assert!(check_password(&"é".repeat(4)).is_ok()); // 8 bytes
        assert!(check_password(&"x".repeat(1024)).is_ok());
        assert!(check_password(&"x".repeat(1025)).is_err());
        assert!(check_password("two words here").is_err());
        assert!(check_password("").is_err());
        assert!(
            !check_password("xxxxxxxx\u{7}")
                .unwrap_err()
                .contains('\u{7}')
        );
    }

    #[test]
    fn hashes_verify_and_hide_the_password() {
        let params = HashParams {
            memory_kib: 256,
            iterations: 1,
            parallelism: 1,
        };
        let h = hash_password("s3cret", params).unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=256,t=1,p=1$"));
        assert!(!h.contains("s3cret"));
        assert!(verify_password("s3cret", &h));
        assert!(!verify_password("s3cres", &h));
        assert!(!verify_password("s3cret", "garbage"));
        assert_ne!(hash_password("s3cret", params).unwrap(), h); // salted
        let t = new_token();
        assert_eq!(t.len(), 64);
        assert_eq!(token_hash(&t).len(), 64);
        assert_ne!(token_hash(&t), t);
    }
}
