//! Text shared by both formats: header keys and values, results, lines.

use ploy_core::{
    BareCommander, DrawReason, Elimination, Outcome, PartnerElimination, Rotation, Rules, Seat,
    SeatSet, Variant, WinReason,
};

use crate::error::ReadErrorKind;
pub(crate) use crate::result::{ResultText, seat_title};

/// The lines of `text` with their 1-based numbers, a trailing `\r` removed.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
}

/// The 1-based character column of byte `at` in `line`.
pub(crate) fn column(line: &str, at: usize) -> usize {
    line.get(..at).map_or(at, |s| s.chars().count()) + 1
}

/// What an error quotes of the text: a bounded excerpt ([`ploy_notation::excerpt`]).
pub(crate) fn quote(s: &str) -> String {
    ploy_notation::excerpt(s.as_bytes())
}

/// `s` in lower case with spaces, `-` and `_` removed: how keys and values are compared.
pub(crate) fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '\t'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A seat from its name (any case; `black` and `white` name Green and Red).
pub(crate) fn seat_from_name(squashed: &str) -> Option<Seat> {
    Some(match squashed {
        "green" | "black" => Seat::Green,
        "red" | "white" => Seat::Red,
        "yellow" => Seat::Yellow,
        "blue" => Seat::Blue,
        _ => return None,
    })
}

/// A header line's key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Key {
    Event,
    Date,
    TimeControl,
    Variant,
    Rules,
    Elimination,
    Rotation,
    RepetitionDraw,
    NoCaptureLimit,
    PartnerElimination,
    BareCommander,
    Start,
    Player(Seat),
    Result,
}

impl Key {
    /// Every key that the sheet and the record share, in the order they are written.
    pub(crate) const HEADER: [Key; 12] = [
        Key::Event,
        Key::Date,
        Key::TimeControl,
        Key::Variant,
        Key::Rules,
        Key::Elimination,
        Key::Rotation,
        Key::RepetitionDraw,
        Key::NoCaptureLimit,
        Key::PartnerElimination,
        Key::BareCommander,
        Key::Start,
    ];

    pub(crate) fn from_text(text: &str) -> Option<Key> {
        let s = squash(text);
        if let Some(seat) = seat_from_name(&s) {
            return Some(Key::Player(seat));
        }
        Key::HEADER
            .into_iter()
            .chain([Key::Result])
            .find(|k| squash(k.sheet_label()) == s)
    }

    /// The label in a sheet's first column.
    pub(crate) const fn sheet_label(self) -> &'static str {
        match self {
            Key::Event => "Event",
            Key::Date => "Date",
            Key::TimeControl => "Time control",
            Key::Variant => "Variant",
            Key::Rules => "Rules",
            Key::Elimination => "Elimination",
            Key::Rotation => "Rotation",
            Key::RepetitionDraw => "Repetition draw",
            Key::NoCaptureLimit => "No-capture limit",
            Key::PartnerElimination => "Partner elimination",
            Key::BareCommander => "Bare commander",
            Key::Start => "Start",
            Key::Player(s) => seat_title(s),
            Key::Result => "Result",
        }
    }

    /// The key in a record.
    pub(crate) const fn record_key(self) -> &'static str {
        match self {
            Key::Event => "event",
            Key::Date => "date",
            Key::TimeControl => "time-control",
            Key::Variant => "variant",
            Key::Rules => "rules",
            Key::Elimination => "elimination",
            Key::Rotation => "rotation",
            Key::RepetitionDraw => "repetition-draw",
            Key::NoCaptureLimit => "no-capture-limit",
            Key::PartnerElimination => "partner-elimination",
            Key::BareCommander => "bare-commander",
            Key::Start => "start",
            Key::Player(s) => s.name(),
            Key::Result => "result",
        }
    }

    /// Which keys collide: `black` and `green` are the same key.
    fn slot(self) -> usize {
        match self {
            Key::Player(s) => 20 + s.index(),
            k => Key::HEADER
                .iter()
                .position(|&h| h == k)
                .unwrap_or(Key::HEADER.len()),
        }
    }
}

/// A key-value header as read, before its values are interpreted: every value with its line
/// and column.
#[derive(Default)]
pub(crate) struct RawHeader<'a> {
    entries: Vec<(Key, &'a str, usize, usize)>,
}

/// Where a header value stands, for errors.
pub(crate) type At = (usize, usize);

impl<'a> RawHeader<'a> {
    /// Adds an entry; a key given twice is an error.
    pub(crate) fn add(
        &mut self,
        key: Key,
        value: &'a str,
        line: usize,
        column: usize,
        written: &str,
    ) -> Result<(), ReadErrorKind> {
        if self.entries.iter().any(|e| e.0.slot() == key.slot()) {
            return Err(ReadErrorKind::DuplicateKey(quote(written)));
        }
        self.entries.push((key, value, line, column));
        Ok(())
    }

    fn get(&self, key: Key) -> Option<(&'a str, At)> {
        self.entries
            .iter()
            .find(|e| e.0 == key)
            .map(|e| (e.1, (e.2, e.3)))
    }

    /// Interprets the values: the game's variant, rules and start text, and the header.
    pub(crate) fn interpret(&self) -> Result<Interpreted<'a>, (At, ReadErrorKind)> {
        let text = |key: Key| {
            self.get(key)
                .map(|(v, _)| v.trim())
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let variant = match self.get(Key::Variant) {
            None => Variant::TwoPlayer,
            Some((v, at)) => parse_variant(v).map_err(|e| (at, e))?,
        };
        let mut rules = match self.get(Key::Rules) {
            None => Rules::standard(),
            Some((v, at)) => match squash(v).as_str() {
                "standard" => Rules::standard(),
                "university" => Rules::university(),
                _ => return Err((at, value_error(Key::Rules, "`standard` or `university`", v))),
            },
        };
        for &(key, value, line, col) in &self.entries {
            let at = (line, col);
            let wrap = |e| (at, e);
            match key {
                Key::Elimination => rules.elimination = parse_elimination(value).map_err(wrap)?,
                Key::Rotation => rules.rotation = parse_rotation(value).map_err(wrap)?,
                Key::RepetitionDraw => {
                    rules.repetition_draw = parse_bool(key, value).map_err(wrap)?;
                }
                Key::NoCaptureLimit => rules.no_capture_limit = parse_limit(value).map_err(wrap)?,
                Key::PartnerElimination => {
                    rules.partner_elimination = parse_partner(value).map_err(wrap)?;
                }
                Key::BareCommander => rules.bare_commander = parse_bare(value).map_err(wrap)?,
                Key::Player(seat)
                    if !variant.seats().contains(seat) && !value.trim().is_empty() =>
                {
                    return Err((at, ReadErrorKind::SeatNotInVariant { seat, variant }));
                }
                _ => {}
            }
        }
        let mut header = crate::Header {
            event: text(Key::Event),
            date: text(Key::Date),
            time_control: text(Key::TimeControl),
            players: crate::Players::default(),
        };
        for seat in variant.seats().iter() {
            header.players.set(seat, text(Key::Player(seat)));
        }
        let start = self
            .get(Key::Start)
            .map(|(v, at)| (v.trim(), at))
            .filter(|(v, _)| squash(v) != "standard" && !v.is_empty());
        Ok(Interpreted {
            header,
            variant,
            rules,
            start,
        })
    }
}

/// A header's values, interpreted.
pub(crate) struct Interpreted<'a> {
    pub(crate) header: crate::Header,
    pub(crate) variant: Variant,
    pub(crate) rules: Rules,
    /// The start position's text and where it stands, unless it is the standard one.
    pub(crate) start: Option<(&'a str, At)>,
}

fn value_error(key: Key, expected: &'static str, found: &str) -> ReadErrorKind {
    ReadErrorKind::Value {
        key: key.record_key(),
        expected,
        found: quote(found.trim()),
    }
}

/// A variant's name ([`Variant::name`]) squashed as keys and values are compared, or one
/// of the two-player game's other names (`two players`, `2`).
fn parse_variant(v: &str) -> Result<Variant, ReadErrorKind> {
    let text = squash(v);
    let named = Variant::ALL.into_iter().find(|x| squash(x.name()) == text);
    match named {
        Some(variant) => Ok(variant),
        None if matches!(text.as_str(), "twoplayers" | "2") => Ok(Variant::TwoPlayer),
        None => Err(value_error(
            Key::Variant,
            "`two-player`, `free-for-all` or `partnership`",
            v,
        )),
    }
}

fn parse_elimination(v: &str) -> Result<Elimination, ReadErrorKind> {
    let names = [
        ("strict", Elimination::Strict),
        ("relaxed", Elimination::Relaxed),
    ];
    parse_choice(Key::Elimination, v, &names, "`strict` or `relaxed`")
}

fn parse_rotation(v: &str) -> Result<Rotation, ReadErrorKind> {
    let names = [("any", Rotation::Any), ("singlestep", Rotation::SingleStep)];
    parse_choice(Key::Rotation, v, &names, "`any` or `single-step`")
}

fn parse_bool(key: Key, v: &str) -> Result<bool, ReadErrorKind> {
    let names = [
        ("yes", true),
        ("on", true),
        ("true", true),
        ("no", false),
        ("off", false),
        ("false", false),
    ];
    parse_choice(key, v, &names, "`yes` or `no`")
}

fn parse_limit(v: &str) -> Result<Option<u16>, ReadErrorKind> {
    let s = squash(v);
    if matches!(s.as_str(), "none" | "no" | "off") {
        return Ok(None);
    }
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match s.parse() {
        Ok(plies) if digits => Ok(Some(plies)),
        _ => Err(value_error(
            Key::NoCaptureLimit,
            "a number of plies up to 65535 or `none`",
            v,
        )),
    }
}

fn parse_partner(v: &str) -> Result<PartnerElimination, ReadErrorKind> {
    let names = [
        ("absorbed", PartnerElimination::Absorbed),
        ("playson", PartnerElimination::PlaysOn),
    ];
    parse_choice(
        Key::PartnerElimination,
        v,
        &names,
        "`absorbed` or `plays on`",
    )
}

fn parse_bare(v: &str) -> Result<BareCommander, ReadErrorKind> {
    let names = [
        ("stays", BareCommander::Stays),
        ("removed", BareCommander::Removed),
    ];
    parse_choice(Key::BareCommander, v, &names, "`stays` or `removed`")
}

/// The value of `key` whose name in `names` is `v` squashed; `expected` says which names
/// are allowed when none is.
fn parse_choice<T: Copy>(
    key: Key,
    v: &str,
    names: &[(&str, T)],
    expected: &'static str,
) -> Result<T, ReadErrorKind> {
    let text = squash(v);
    names
        .iter()
        .find(|(name, _)| *name == text)
        .map(|&(_, value)| value)
        .ok_or_else(|| value_error(key, expected, v))
}

/// The rule rows a writer writes: every option, except the four-player ones in a game where
/// they do not apply and have their standard values.
pub(crate) fn rule_values(variant: Variant, rules: Rules) -> Vec<(Key, String)> {
    let std = Rules::standard();
    let mut out = vec![
        (
            Key::Elimination,
            match rules.elimination {
                Elimination::Strict => "strict",
                Elimination::Relaxed => "relaxed",
            }
            .to_owned(),
        ),
        (
            Key::Rotation,
            match rules.rotation {
                Rotation::Any => "any",
                Rotation::SingleStep => "single-step",
            }
            .to_owned(),
        ),
        (
            Key::RepetitionDraw,
            if rules.repetition_draw { "yes" } else { "no" }.to_owned(),
        ),
        (
            Key::NoCaptureLimit,
            rules
                .no_capture_limit
                .map_or_else(|| "none".to_owned(), |n| n.to_string()),
        ),
    ];
    if variant == Variant::Partnership || rules.partner_elimination != std.partner_elimination {
        out.push((
            Key::PartnerElimination,
            match rules.partner_elimination {
                PartnerElimination::Absorbed => "absorbed",
                PartnerElimination::PlaysOn => "plays on",
            }
            .to_owned(),
        ));
    }
    if variant.is_four_player() || rules.bare_commander != std.bare_commander {
        out.push((
            Key::BareCommander,
            match rules.bare_commander {
                BareCommander::Stays => "stays",
                BareCommander::Removed => "removed",
            }
            .to_owned(),
        ));
    }
    out
}

/// What a result line claims.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Claim {
    /// No result line: the moves decide.
    Unstated,
    /// The game goes on (`None`) or ended so.
    Stated(Option<Outcome>),
}

/// Reads a result from its winners part and its reason part (either may hold both, joined
/// by a comma).
pub(crate) fn parse_result(
    who: &str,
    reason: Option<&str>,
) -> Result<Option<Outcome>, ReadErrorKind> {
    let whole = match reason {
        Some(r) => format!("{who}, {r}"),
        None => who.to_owned(),
    };
    let err = || ReadErrorKind::Result(quote(whole.trim()));
    let (who, reason) = match reason {
        Some(r) if !r.trim().is_empty() => (who, Some(r)),
        _ => match who.rsplit_once(',') {
            Some((w, r)) => (w, Some(r)),
            None => (who, None),
        },
    };
    let who = who.trim().to_lowercase();
    let reason = reason.map(squash);
    if matches!(who.as_str(), "unfinished" | "ongoing" | "*") {
        return if reason.is_none() {
            Ok(None)
        } else {
            Err(err())
        };
    }
    let reason = reason.ok_or_else(err)?;
    if who == "draw" {
        let reason = match reason.as_str() {
            "repetition" => DrawReason::Repetition,
            "nocapturelimit" => DrawReason::NoCaptureLimit,
            "agreement" | "agreed" => DrawReason::Agreement,
            _ => return Err(err()),
        };
        return Ok(Some(Outcome::Draw { reason }));
    }
    let names = who
        .strip_suffix(" wins")
        .or_else(|| who.strip_suffix(" win"))
        .ok_or_else(err)?;
    let mut winners = SeatSet::EMPTY;
    for name in names.split(" and ") {
        let seat = seat_from_name(&squash(name)).ok_or_else(err)?;
        if winners.contains(seat) {
            return Err(err());
        }
        winners = winners.with(seat);
    }
    let reason = match reason.as_str() {
        "commandercaptured" => WinReason::CommanderCaptured,
        "onlycommandersleft" | "onlycommanders" => WinReason::OnlyCommanders,
        "resignation" | "resigned" => WinReason::Resignation,
        "timeforfeit" | "time" => WinReason::TimeForfeit,
        _ => return Err(err()),
    };
    Ok(Some(Outcome::Win { winners, reason }))
}

/// Checks that a header text reads back as itself.
pub(crate) fn check_text(field: &'static str, text: &str) -> Result<(), crate::WriteError> {
    let problem = if text.is_empty() {
        "is empty (leave it out instead)"
    } else if text.chars().any(char::is_control) {
        "holds a tab, a line break or another control character"
    } else if text.trim() != text {
        "begins or ends with white space"
    } else {
        return Ok(());
    };
    Err(crate::WriteError::Text { field, problem })
}
