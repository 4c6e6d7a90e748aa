//! How the programs end, write JSON and show progress.

use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Why a program stopped short, with the exit status it ends with.
///
/// Statuses: 1 when the work failed (input that is not valid, a failed write), 2 for a
/// usage error that clap could not see (a malformed position in an argument, say), 0 with no
/// message when standard output was closed by its reader (see [`Failure::closed_pipe`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    status: u8,
    message: Option<String>,
}

impl Failure {
    /// A usage error: exit status 2.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure::with_status(2, message)
    }

    /// The work failed: exit status 1.
    pub fn failed(message: impl Into<String>) -> Failure {
        Failure::with_status(1, message)
    }

    /// A failure with its own exit status.
    pub fn with_status(status: u8, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: Some(message.into()),
        }
    }

    /// Standard output was closed by its reader (`| head -1`): nobody wants the rest, so
    /// the program stops quietly, with status 0.
    #[must_use]
    pub fn closed_pipe() -> Failure {
        Failure {
            status: 0,
            message: None,
        }
    }

    /// The exit status.
    #[must_use]
    pub fn status(&self) -> u8 {
        self.status
    }

    /// What is printed (after `error: `) on standard error; `None` for a closed pipe.
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().unwrap_or("standard output was closed"))
    }
}

impl std::error::Error for Failure {}

impl From<io::Error> for Failure {
    /// A failed write: a closed pipe ends quietly, anything else is a failure.
    fn from(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::closed_pipe()
        } else {
            Failure::failed(format!("cannot write the output: {e}"))
        }
    }
}

/// The exit code of a program's result, after printing the failure's message (if any) as
/// `error: <message>` on standard error.
pub fn finish(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if let Some(message) = failure.message() {
                // Nothing more can be done when standard error itself is gone.
                let _ = writeln!(io::stderr(), "error: {message}");
            }
            ExitCode::from(failure.status())
        }
    }
}

/// Writes `value` as one line of JSON.
pub(crate) fn write_json(out: &mut impl Write, value: &serde_json::Value) -> Result<(), Failure> {
    writeln!(out, "{value}")?;
    out.flush()?;
    Ok(())
}

/// A progress bar of `len` steps on standard error, drawn with `template` (an indicatif
/// template); hidden when standard error is not a terminal.
pub(crate) fn progress_bar(len: u64, template: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    // The templates are this crate's constants; a bad one would only lose the styling.
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// `n` with thousands separators (`1,234,567`), for progress messages.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A rate per second, short: `850/s`, `62.4k/s`, `4.21M/s`.
pub(crate) fn rate(count: u64, time: std::time::Duration) -> String {
    let r = count as f64 / time.as_secs_f64().max(1e-9);
    if r >= 1e6 {
        format!("{:.2}M/s", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1}k/s", r / 1e3)
    } else {
        format!("{r:.0}/s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_pipes_end_quietly() {
        let f = Failure::from(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!((f.status(), f.message()), (0, None));
        let f = Failure::from(io::Error::other("disk full"));
        assert_eq!(f.status(), 1);
        assert!(f.message().unwrap().contains("disk full"));
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(437_350_639), "437,350,639");
    }

    #[test]
    fn rates() {
        let s = std::time::Duration::from_secs(1);
        assert_eq!(rate(850, s), "850/s");
        assert_eq!(rate(62_400, s), "62.4k/s");
        assert_eq!(rate(4_210_000, s), "4.21M/s");
    }
}
