//! How a sheet and a record write a game's result ([`ResultText`]) and a seat's name.

use core::fmt;

use ploy_core::{DrawReason, Outcome, Seat, WinReason};

/// A seat's name with a capital letter, as the sheet's columns and results write it.
pub(crate) const fn seat_title(s: Seat) -> &'static str {
    match s {
        Seat::Green => "Green",
        Seat::Red => "Red",
        Seat::Yellow => "Yellow",
        Seat::Blue => "Blue",
    }
}

/// A game's result as the sheet and the record write it: `unfinished`, `Green wins,
/// commander captured`, `Green and Yellow win, only commanders left`, `draw, repetition`.
///
/// ```
/// use ploy_core::{Outcome, Seat, WinReason};
/// use ploy_sheet::ResultText;
/// let won = Outcome::win(Seat::Red, WinReason::TimeForfeit);
/// assert_eq!(ResultText(Some(won)).to_string(), "Red wins, time forfeit");
/// assert_eq!(ResultText(None).to_string(), "unfinished");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultText(pub Option<Outcome>);

impl ResultText {
    /// The winners part (`Green wins`, `draw`, `unfinished`).
    pub(crate) fn who(self) -> String {
        match self.0 {
            None => "unfinished".to_owned(),
            Some(Outcome::Draw { .. }) => "draw".to_owned(),
            Some(Outcome::Win { winners, .. }) => {
                let names: Vec<&str> = winners.iter().map(seat_title).collect();
                if names.is_empty() {
                    "nobody wins".to_owned()
                } else if names.len() == 1 {
                    format!("{} wins", names[0])
                } else {
                    format!("{} win", names.join(" and "))
                }
            }
        }
    }

    /// The reason part, if any.
    pub(crate) fn reason(self) -> Option<&'static str> {
        Some(match self.0? {
            Outcome::Win { reason, .. } => match reason {
                WinReason::CommanderCaptured => "commander captured",
                WinReason::OnlyCommanders => "only commanders left",
                WinReason::Resignation => "resignation",
                WinReason::TimeForfeit => "time forfeit",
                _ => "unknown",
            },
            Outcome::Draw { reason } => match reason {
                DrawReason::Repetition => "repetition",
                DrawReason::NoCaptureLimit => "no-capture limit",
                DrawReason::Agreement => "agreement",
                _ => "unknown",
            },
        })
    }
}

impl fmt::Display for ResultText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.who())?;
        if let Some(r) = self.reason() {
            write!(f, ", {r}")?;
        }
        Ok(())
    }
}
