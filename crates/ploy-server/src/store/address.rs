//! The database address of `--db`: a SQLite file, or a PostgreSQL database, and the
//! PostgreSQL password (never part of the address, never printed).

use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where the database is (`ployd --db`).
///
/// - `FILE` or `sqlite:FILE`: a SQLite file (created if missing). A file whose name reads
///   like an address (`postgres://x`, `mysql://x`, `sqlite:x`) needs the `sqlite:` prefix.
/// - `postgres://USER@HOST:PORT/NAME` (or `postgresql://`): a PostgreSQL database. The
///   address holds no password: it comes from a file ([`PgAddress::password`]), from
///   libpq's `PGPASSWORD`, or from libpq's password file (`~/.pgpass`, or `PGPASSFILE`).
///
/// ```
/// use ploy_server::store::DbAddress;
/// let a: DbAddress = "postgres://ployd@127.0.0.1:5432/games".parse()?;
/// assert!(matches!(a, DbAddress::Postgres(_)));
/// let b: DbAddress = "sqlite:postgres://odd-file-name".parse()?;
/// assert!(matches!(b, DbAddress::Sqlite(_)));
/// # Ok::<(), ploy_server::store::AddressError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbAddress {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL database.
    Postgres(PgAddress),
}

/// A PostgreSQL database's address, without a password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgAddress {
    text: String,
    user: String,
    host: String,
    port: u16,
    dbname: String,
}

/// Why a database address or its password was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AddressError {
    /// Nothing was given.
    #[error("the database address is empty")]
    Empty,
    /// An address of a kind of database this server does not know.
    #[error(
        "`{0}://` is not a database this server knows (postgres:// or a file; a file of \
         that name needs the prefix sqlite:)"
    )]
    UnknownScheme(String),
    /// The PostgreSQL address does not parse.
    #[error("not a PostgreSQL address: {0}")]
    Invalid(String),
    /// The address holds a password.
    #[error(
        "the address holds a password: give it with --db-password-file, PGPASSWORD or \
         ~/.pgpass instead"
    )]
    PasswordInAddress,
    /// A part the address must name.
    #[error("the address names no {0} (postgres://USER@HOST:PORT/NAME)")]
    Missing(&'static str),
    /// The password file cannot be read or is empty.
    #[error("the password file {0}: {1}")]
    PasswordFile(PathBuf, String),
}

impl FromStr for DbAddress {
    type Err = AddressError;

    fn from_str(text: &str) -> Result<DbAddress, AddressError> {
        if let Some(file) = text.strip_prefix("sqlite:") {
            if file.is_empty() {
                return Err(AddressError::Empty);
            }
            return Ok(DbAddress::Sqlite(PathBuf::from(file)));
        }
        if text.is_empty() {
            return Err(AddressError::Empty);
        }
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return PgAddress::parse(text).map(DbAddress::Postgres);
        }
        if let Some((scheme, _)) = text.split_once("://") {
            let schemeish = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
            if schemeish {
                return Err(AddressError::UnknownScheme(scheme.to_owned()));
            }
        }
        Ok(DbAddress::Sqlite(PathBuf::from(text)))
    }
}

impl DbAddress {
    /// The address of a command-line argument: as [`FromStr`], except that a name that is
    /// not UTF-8 can only be a file.
    ///
    /// # Errors
    /// As [`FromStr`].
    pub fn from_os(text: &OsStr) -> Result<DbAddress, AddressError> {
        match text.to_str() {
            Some(t) => t.parse(),
            None => Ok(DbAddress::Sqlite(PathBuf::from(text))),
        }
    }
}

impl fmt::Display for DbAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbAddress::Sqlite(path) => write!(f, "{}", path.display()),
            DbAddress::Postgres(pg) => pg.fmt(f),
        }
    }
}

impl fmt::Display for PgAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl PgAddress {
    fn parse(text: &str) -> Result<PgAddress, AddressError> {
        let config =
            postgres::Config::from_str(text).map_err(|e| AddressError::Invalid(e.to_string()))?;
        if config.get_password().is_some() {
            return Err(AddressError::PasswordInAddress);
        }
        let user = config.get_user().ok_or(AddressError::Missing("user"))?;
        let dbname = config
            .get_dbname()
            .ok_or(AddressError::Missing("database"))?;
        let host = match config.get_hosts() {
            [postgres::config::Host::Tcp(h)] => h.clone(),
            #[cfg(unix)]
            [postgres::config::Host::Unix(_)] => "localhost".to_owned(),
            [] => return Err(AddressError::Missing("host")),
            _ => return Err(AddressError::Invalid("one host only".to_owned())),
        };
        let port = match config.get_ports() {
            [] => 5432,
            [p] => *p,
            _ => return Err(AddressError::Invalid("one port only".to_owned())),
        };
        Ok(PgAddress {
            text: text.to_owned(),
            user: user.to_owned(),
            host,
            port,
            dbname: dbname.to_owned(),
        })
    }

    /// The user name.
    #[must_use]
    pub fn user(&self) -> &str {
        &self.user
    }

    /// The database's name.
    #[must_use]
    pub fn dbname(&self) -> &str {
        &self.dbname
    }

    /// The password to connect with: the first line of `file` if given, else libpq's
    /// `PGPASSWORD`, else the first matching line of libpq's password file (`PGPASSFILE`,
    /// or `.pgpass` in the home directory; `hostname:port:database:username:password`,
    /// `*` matching anything, `\:` and `\\` escaped). `None`: no password (the server
    /// may not ask for one). The password is never part of an error.
    ///
    /// # Errors
    /// `file` cannot be read or is empty; the password file is readable by others than
    /// its owner (libpq ignores such a file; this server refuses it, saying so).
    pub fn password(&self, file: Option<&Path>) -> Result<Option<String>, AddressError> {
        if let Some(file) = file {
            let bad = |m: String| AddressError::PasswordFile(file.to_owned(), m);
            let text = std::fs::read_to_string(file).map_err(|e| bad(e.kind().to_string()))?;
            let line = text.lines().next().unwrap_or("");
            if line.is_empty() {
                return Err(bad("its first line is empty".to_owned()));
            }
            return Ok(Some(line.to_owned()));
        }
        if let Some(p) = std::env::var_os("PGPASSWORD").filter(|p| !p.is_empty()) {
            return Ok(Some(p.to_string_lossy().into_owned()));
        }
        let file = match std::env::var_os("PGPASSFILE") {
            Some(f) => PathBuf::from(f),
            None => match std::env::var_os("HOME") {
                Some(home) => PathBuf::from(home).join(".pgpass"),
                None => return Ok(None),
            },
        };
        let Ok(meta) = std::fs::metadata(&file) else {
            return Ok(None);
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if meta.permissions().mode() & 0o077 != 0 {
                return Err(AddressError::PasswordFile(
                    file,
                    "others than its owner may read it (chmod 0600)".to_owned(),
                ));
            }
        }
        #[cfg(not(unix))]
        let _ = meta;
        let text = std::fs::read_to_string(&file)
            .map_err(|e| AddressError::PasswordFile(file.clone(), e.kind().to_string()))?;
        Ok(self.pgpass_match(&text))
    }

    /// The password of the first line of a `.pgpass` text that matches this address.
    fn pgpass_match(&self, text: &str) -> Option<String> {
        let port = self.port.to_string();
        let wanted = [self.host.as_str(), &port, &self.dbname, &self.user];
        text.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .find_map(|line| {
                let fields = pgpass_fields(line)?;
                let matches = fields[..4]
                    .iter()
                    .zip(wanted)
                    .all(|(f, w)| f == "*" || f == w);
                matches.then(|| fields[4].clone())
            })
    }

    /// The client's settings, with `password` if any.
    pub(super) fn config(&self, password: Option<&str>) -> Result<postgres::Config, AddressError> {
        let mut config = postgres::Config::from_str(&self.text)
            .map_err(|e| AddressError::Invalid(e.to_string()))?;
        if let Some(p) = password {
            config.password(p);
        }
        if config.get_application_name().is_none() {
            config.application_name("ployd");
        }
        Ok(config)
    }
}

/// The five fields of a `.pgpass` line (`None`: not five).
fn pgpass_fields(line: &str) -> Option<[String; 5]> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => fields.last_mut()?.push(chars.next().unwrap_or('\\')),
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => fields.last_mut()?.push(c),
        }
    }
    fields.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pg(text: &str) -> PgAddress {
        match text.parse() {
            Ok(DbAddress::Postgres(p)) => p,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn files_and_addresses_are_told_apart() {
        let file = |t: &str| DbAddress::Sqlite(PathBuf::from(t));
        assert_eq!("ployd.db".parse(), Ok(file("ployd.db")));
        assert_eq!("./a:b.db".parse(), Ok(file("./a:b.db")));
        assert_eq!("sqlite:ployd.db".parse(), Ok(file("ployd.db")));
        assert_eq!(
            "sqlite:postgres://x@y/z".parse(),
            Ok(file("postgres://x@y/z"))
        );
        assert_eq!("sqlite:".parse::<DbAddress>(), Err(AddressError::Empty));
        assert_eq!("".parse::<DbAddress>(), Err(AddressError::Empty));
        assert_eq!(
            "mysql://u@h/db".parse::<DbAddress>(),
            Err(AddressError::UnknownScheme("mysql".into()))
        );
        let a = pg("postgres://ployd@127.0.0.1:5433/games");
        assert_eq!((a.user(), a.dbname(), a.port), ("ployd", "games", 5433));
        assert_eq!(a.to_string(), "postgres://ployd@127.0.0.1:5433/games");
        assert_eq!(pg("postgresql://u@h/d").port, 5432);
        // A folder is the Unix socket's; libpq's password file calls it `localhost`.
        assert_eq!(pg("postgres://u@%2Frun%2Fpostgresql/d").host, "localhost");
    }

    #[test]
    fn an_address_with_a_password_is_refused_without_repeating_it() {
        let e = "postgres://u:hunter2secret@h/d"
            .parse::<DbAddress>()
            .unwrap_err();
        assert_eq!(e, AddressError::PasswordInAddress);
        assert!(!e.to_string().contains("hunter2secret"));
        assert_eq!(
            "postgres://h/d".parse::<DbAddress>(),
            Err(AddressError::Missing("user"))
        );
        assert_eq!(
            "postgres://u@h".parse::<DbAddress>(),
            Err(AddressError::Missing("database"))
        );
    }

    #[test]
    fn pgpass_lines_match_as_libpq_reads_them() {
        let a = pg("postgres://ployd@db.example:5433/games");
        let text = "# comment\n\
                    db.example:5432:games:ployd:wrong-port\n\
                    *:5433:other:ployd:wrong-db\n\
                    db.example:*:games:ployd:pass\\:word\\\\\n\
                    *:*:*:*:catch-all\n";
        assert_eq!(a.pgpass_match(text).as_deref(), Some("pass:word\\"));
        assert_eq!(
            a.pgpass_match("*:*:*:*:catch-all").as_deref(),
            Some("catch-all")
        );
        assert_eq!(a.pgpass_match("too:few:fields"), None);
    }
}
