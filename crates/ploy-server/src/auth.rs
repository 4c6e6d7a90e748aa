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

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
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

/// Memory for argon2id computations, kept from one to the next: a password-hash worker
/// keeps one, so that the memory of a computation (19 MiB by default) is not allocated and
/// given back every time (which, with many threads, leaves the allocator holding a copy
/// per thread).
#[derive(Default)]
pub struct HashMemory(Vec<Block>);

impl std::fmt::Debug for HashMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HashMemory({} KiB)", self.0.len())
    }
}

impl HashMemory {
    /// No memory yet; it grows to the largest computation made with it.
    #[must_use]
    pub fn new() -> HashMemory {
        HashMemory::default()
    }

    fn blocks(&mut self, n: usize) -> &mut [Block] {
        if self.0.len() < n {
            self.0.resize(n, Block::new());
        }
        &mut self.0[..n]
    }
}

/// The argon2id hash of `password` in PHC format.
///
/// # Errors
/// Parameters argon2 refuses.
pub fn hash_password(password: &str, params: HashParams) -> Result<String, String> {
    hash_password_in(password, params, &mut HashMemory::new())
}

/// [`hash_password`] with `memory` for the computation.
///
/// # Errors
/// Parameters argon2 refuses.
pub fn hash_password_in(
    password: &str,
    params: HashParams,
    memory: &mut HashMemory,
) -> Result<String, String> {
    let p = Params::new(
        params.memory_kib,
        params.iterations,
        params.parallelism,
        None,
    )
    .map_err(|e| format!("argon2 parameters: {e}"))?;
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, p.clone());
    let salt_bytes = random_bytes::<16>();
    let salt = SaltString::encode_b64(&salt_bytes).map_err(|e| e.to_string())?;
    let mut out = vec![0u8; p.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN)];
    argon
        .hash_password_into_with_memory(
            password.as_bytes(),
            &salt_bytes,
            &mut out,
            memory.blocks(p.block_count()),
        )
        .map_err(|e| format!("argon2: {e}"))?;
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&p).map_err(|e| format!("argon2: {e}"))?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| format!("argon2: {e}"))?),
    };
    Ok(hash.to_string())
}

/// Whether `password` matches the PHC `hash` (with the parameters stored in it). The
/// comparison is argon2's, in constant time.
#[must_use]
pub fn verify_password(password: &str, hash: &str) -> bool {
    verify_password_in(password, hash, &mut HashMemory::new())
}

/// [`verify_password`] with `memory` for the computation.
#[must_use]
pub fn verify_password_in(password: &str, hash: &str, memory: &mut HashMemory) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm) else {
        return false;
    };
    let version = match parsed.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let mut salt_buf = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_buf) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    let blocks = memory.blocks(params.block_count());
    Argon2::new(algorithm, version, params)
        .hash_password_into_with_memory(password.as_bytes(), salt, &mut out, blocks)
        .is_ok()
        // `Output`'s comparison takes the same time wherever the outputs differ.
        && Output::new(&out).is_ok_and(|computed| computed == expected)
}

/// Spends the time of one verification against a hash of `params`, so that an unknown
/// userid takes as long to refuse as a wrong password.
pub fn verify_nothing(password: &str, params: HashParams) {
    verify_nothing_in(password, params, &mut HashMemory::new());
}

/// [`verify_nothing`] with `memory` for the computation.
pub fn verify_nothing_in(password: &str, params: HashParams, memory: &mut HashMemory) {
    static DUMMY: OnceLock<Option<String>> = OnceLock::new();
    if let Some(h) = DUMMY.get_or_init(|| hash_password_in("not a password", params, memory).ok()) {
        let _ = verify_password_in(password, h, memory);
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
        // The same PHC strings as argon2's own hasher and verifier, both ways.
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let argon = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(256, 1, 1, None).unwrap(),
        );
        let salt = SaltString::encode_b64(&[7u8; 16]).unwrap();
        let theirs = argon.hash_password(b"s3cret", &salt).unwrap().to_string();
        let mut memory = HashMemory::new();
        assert!(verify_password_in("s3cret", &theirs, &mut memory));
        assert!(!verify_password_in("s3cres", &theirs, &mut memory));
        let ours = hash_password_in("s3cret", params, &mut memory).unwrap();
        assert!(
            argon
                .verify_password(b"s3cret", &PasswordHash::new(&ours).unwrap())
                .is_ok()
        );
        // A hash of older, larger parameters verifies with the same memory.
        let big = HashParams {
            memory_kib: 1024,
            iterations: 2,
            parallelism: 2,
        };
        let h2 = hash_password_in("other-pw", big, &mut memory).unwrap();
        assert!(h2.starts_with("$argon2id$v=19$m=1024,t=2,p=2$"));
        assert!(verify_password_in("other-pw", &h2, &mut memory));
        assert!(verify_password_in("s3cret", &h, &mut memory));
        let t = new_token();
        assert_eq!(t.len(), 64);
        assert_eq!(token_hash(&t).len(), 64);
        assert_ne!(token_hash(&t), t);
    }
}
