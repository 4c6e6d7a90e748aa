//! Rule options, variants, and outcomes.

use crate::{Seat, SeatSet};
use core::fmt;
use core::str::FromStr;

/// Start army per colour in the two-player game: `[shields, probes, lances, commanders]`.
pub const TWO_PLAYER_ARMY: [u32; 4] = [3, 5, 6, 1];
/// Start army per colour in the four-player games: `[shields, probes, lances, commanders]`.
pub const FOUR_PLAYER_ARMY: [u32; 4] = [3, 3, 2, 1];

/// The game being played: who sits at the table and who plays with whom.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Variant {
    /// Two players, Green (black, bottom, first) against Red (white, top), 15 pieces each.
    #[default]
    TwoPlayer,
    /// Four players, each for himself, one corner each, 9 pieces each. An eliminated
    /// player's colours pass to the player who made the eliminating capture.
    FreeForAll,
    /// Four players in two teams, Green + Yellow against Red + Blue, 9 pieces each. Partners
    /// block each other and never capture each other.
    Partnership,
}

impl Variant {
    /// The seats that take part, in turn order.
    #[must_use]
    pub const fn seats(self) -> SeatSet {
        match self {
            Variant::TwoPlayer => SeatSet::TWO_PLAYER,
            Variant::FreeForAll | Variant::Partnership => SeatSet::ALL,
        }
    }

    /// Whether four players take part.
    #[must_use]
    pub const fn is_four_player(self) -> bool {
        !matches!(self, Variant::TwoPlayer)
    }

    /// The seats on `seat`'s side: his team in a partnership game, else just him.
    #[must_use]
    pub const fn team(self, seat: Seat) -> SeatSet {
        match self {
            Variant::Partnership => SeatSet::only(seat).with(seat.partner()),
            _ => SeatSet::only(seat),
        }
    }

    /// Start army per colour: `[shields, probes, lances, commanders]`.
    #[must_use]
    pub const fn army(self) -> [u32; 4] {
        match self {
            Variant::TwoPlayer => TWO_PLAYER_ARMY,
            Variant::FreeForAll | Variant::Partnership => FOUR_PLAYER_ARMY,
        }
    }

    /// Every variant: two-player, free-for-all, partnership.
    pub const ALL: [Variant; 3] = [
        Variant::TwoPlayer,
        Variant::FreeForAll,
        Variant::Partnership,
    ];

    /// The variant's name as the score sheets, game records and engine protocol write it:
    /// `two-player`, `free-for-all` or `partnership` (also its `Display`, and what its
    /// `FromStr` reads).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Variant::TwoPlayer => "two-player",
            Variant::FreeForAll => "free-for-all",
            Variant::Partnership => "partnership",
        }
    }
}

/// Writes the variant's [name](Variant::name): `two-player`, `free-for-all` or
/// `partnership`.
///
/// ```
/// use ploy_core::Variant;
/// assert_eq!(Variant::FreeForAll.to_string(), "free-for-all");
/// assert_eq!("partnership".parse::<Variant>(), Ok(Variant::Partnership));
/// assert!("Partnership".parse::<Variant>().is_err()); // names are exact
/// ```
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads exactly one of the names [`Variant::name`] writes (no other case, no whitespace):
/// the way back from `Display`. Readers of hand-written text that want leniency squash the
/// text before (as the score sheets do).
impl FromStr for Variant {
    type Err = ParseVariantError;

    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| ParseVariantError {
                found: s.to_owned(),
            })
    }
}

/// Text that is not a variant's name (from [`Variant`]'s `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{found}`: expected `two-player`, `free-for-all` or `partnership`")]
pub struct ParseVariantError {
    /// The text that was refused.
    pub found: String,
}

/// When a player is eliminated (`docs/rules.md` sections 5 and 7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Elimination {
    /// No own commander on the board, or every piece he controls is a commander (default).
    #[default]
    Strict,
    /// Only when his commander is gone.
    Relaxed,
}

/// How far a piece may turn in one move (`docs/rules.md` section 3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rotation {
    /// Any multiple of 45 degrees (default).
    #[default]
    Any,
    /// Exactly one step (`r` = 1 or 7); a shield's turn after moving is 0, 1 or 7.
    SingleStep,
}

impl Rotation {
    /// Bit `r` set: a direction move may turn by `r`.
    #[inline]
    #[must_use]
    pub const fn turn_mask(self) -> u8 {
        match self {
            Rotation::Any => 0b1111_1110,
            Rotation::SingleStep => 0b1000_0010,
        }
    }

    /// Bit `r` set: a shield may turn by `r` after a motion move.
    #[inline]
    #[must_use]
    pub const fn shield_mask(self) -> u8 {
        match self {
            Rotation::Any => 0b1111_1111,
            Rotation::SingleStep => 0b1000_0011,
        }
    }
}

/// What happens to an eliminated player in a partnership game (`docs/rules.md` section 7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PartnerElimination {
    /// His partner, if still in play, takes control of his pieces and plays his turns
    /// (Tensi; default).
    #[default]
    Absorbed,
    /// He keeps moving his remaining pieces on his turns; once he has none, his partner plays
    /// his turns (3M sheet, Ludii).
    PlaysOn,
}

/// What happens to the commander of a player eliminated because only commanders are left
/// (four-player games; strict elimination).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BareCommander {
    /// It stays on the board and passes to the new controller (Tensi; default).
    #[default]
    Stays,
    /// It is removed from the board (3M sheet, Ludii).
    Removed,
}

/// The rules a position or game is played by.
///
/// Two presets: [`Rules::standard`] (the default: both draw rules on) and
/// [`Rules::university`] (no draw rules, as in the university task). Change single options
/// on either:
///
/// ```
/// use ploy_core::{Elimination, Rules};
/// let mut rules = Rules::university();
/// rules.elimination = Elimination::Relaxed;
/// assert_eq!(rules.no_capture_limit, None);
/// assert_eq!(Rules::default(), Rules::standard());
/// assert_eq!(Rules::standard().no_capture_limit, Some(200));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[non_exhaustive]
pub struct Rules {
    /// When a player is eliminated.
    pub elimination: Elimination,
    /// How far a piece may turn.
    pub rotation: Rotation,
    /// A position (board, side to move, controllers) occurring for the third time in a game
    /// is a draw.
    pub repetition_draw: bool,
    /// This many plies in a row without a capture is a draw (`None`: no such rule).
    pub no_capture_limit: Option<u16>,
    /// Partnership games: what happens to an eliminated player.
    pub partner_elimination: PartnerElimination,
    /// Four-player games: what happens to a bare commander.
    pub bare_commander: BareCommander,
}

impl Rules {
    /// Strict elimination, any rotation, both draw rules (threefold repetition, 200 plies
    /// without a capture). The library's default.
    #[must_use]
    pub const fn standard() -> Rules {
        Rules {
            elimination: Elimination::Strict,
            rotation: Rotation::Any,
            repetition_draw: true,
            no_capture_limit: Some(200),
            partner_elimination: PartnerElimination::Absorbed,
            bare_commander: BareCommander::Stays,
        }
    }

    /// The university task's rules: strict elimination, any rotation, no draw rules.
    #[must_use]
    pub const fn university() -> Rules {
        Rules {
            elimination: Elimination::Strict,
            rotation: Rotation::Any,
            repetition_draw: false,
            no_capture_limit: None,
            partner_elimination: PartnerElimination::Absorbed,
            bare_commander: BareCommander::Stays,
        }
    }

    /// The same rules with `elimination`.
    #[must_use]
    pub const fn with_elimination(mut self, elimination: Elimination) -> Rules {
        self.elimination = elimination;
        self
    }

    /// The same rules with `rotation`.
    #[must_use]
    pub const fn with_rotation(mut self, rotation: Rotation) -> Rules {
        self.rotation = rotation;
        self
    }

    /// The same rules with the repetition draw on or off.
    #[must_use]
    pub const fn with_repetition_draw(mut self, on: bool) -> Rules {
        self.repetition_draw = on;
        self
    }

    /// The same rules with `partner_elimination`.
    #[must_use]
    pub const fn with_partner_elimination(mut self, rule: PartnerElimination) -> Rules {
        self.partner_elimination = rule;
        self
    }

    /// The same rules with `bare_commander`.
    #[must_use]
    pub const fn with_bare_commander(mut self, rule: BareCommander) -> Rules {
        self.bare_commander = rule;
        self
    }

    /// The same rules with the no-capture draw after `limit` plies, or none.
    #[must_use]
    pub const fn with_no_capture_limit(mut self, limit: Option<u16>) -> Rules {
        self.no_capture_limit = limit;
        self
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard()
    }
}

/// Why a player or team won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum WinReason {
    /// The last opponent lost his commander.
    CommanderCaptured,
    /// The last opponent had only commanders left (strict elimination).
    OnlyCommanders,
    /// The opponent resigned.
    Resignation,
    /// The opponent ran out of time.
    TimeForfeit,
}

/// Why a game was drawn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum DrawReason {
    /// The same position occurred for the third time.
    Repetition,
    /// Too many plies in a row without a capture.
    NoCaptureLimit,
    /// The players agreed.
    Agreement,
}

/// How a game ended.
///
/// ```
/// use ploy_core::{Outcome, Seat, WinReason};
/// let o = Outcome::win(Seat::BLACK, WinReason::CommanderCaptured);
/// assert_eq!(o.winner(), Some(Seat::Green));
/// assert!(!o.is_draw());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Outcome {
    /// A player or a team won.
    Win {
        /// The winning seat, or both seats of a team.
        winners: SeatSet,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// `seat` won for `reason`.
    #[must_use]
    pub const fn win(seat: Seat, reason: WinReason) -> Outcome {
        Outcome::Win {
            winners: SeatSet::only(seat),
            reason,
        }
    }

    /// The winners (empty for a draw).
    #[must_use]
    pub const fn winners(self) -> SeatSet {
        match self {
            Outcome::Win { winners, .. } => winners,
            Outcome::Draw { .. } => SeatSet::EMPTY,
        }
    }

    /// The single winning seat, if one seat won alone.
    #[must_use]
    pub const fn winner(self) -> Option<Seat> {
        self.winners().single()
    }

    /// Whether the game was drawn.
    #[must_use]
    pub const fn is_draw(self) -> bool {
        matches!(self, Outcome::Draw { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::{ParseVariantError, Variant};

    #[test]
    fn variant_names_round_trip() {
        for variant in Variant::ALL {
            assert_eq!(variant.to_string().parse::<Variant>(), Ok(variant));
        }
        let names = Variant::ALL.map(|v| v.to_string());
        assert_eq!(names, ["two-player", "free-for-all", "partnership"]);
    }

    #[test]
    fn other_names_are_refused() {
        for text in ["ffa", "Two-Player", " partnership", "two player", ""] {
            assert_eq!(
                text.parse::<Variant>(),
                Err(ParseVariantError {
                    found: text.to_owned()
                })
            );
        }
        let err = "ffa".parse::<Variant>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variant `ffa`: expected `two-player`, `free-for-all` or `partnership`"
        );
    }
}
