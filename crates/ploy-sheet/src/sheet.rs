//! Score sheets: tab-separated text for people and spreadsheets.
//!
//! See the [crate docs](crate#score-sheets) for the layout and an example.

use core::fmt;

use ploy_core::Seat;
use ploy_notation::{AlgebraicMove, PositionString};

use crate::error::{ReadError, ReadErrorKind, WriteError};
use crate::replay::{finish_at, leave, leaving_word, parse_leaving, play_text, start_game};
use crate::text::{
    Claim, Key, RawHeader, ResultText, column, lines, parse_result, quote, rule_values,
    seat_from_name, seat_title, squash,
};
use crate::{Header, SavedGame};

/// The first line of every score sheet.
pub const SHEET_TITLE: &str = "Ploy score sheet";

/// A game written as a score sheet: `Display` writes the sheet. Made by [`SavedGame::sheet`],
/// which checks first that the game can be written.
#[derive(Clone, Debug)]
pub struct SheetDisplay<'a> {
    saved: &'a SavedGame,
    /// The start position, unless it is the standard one.
    start: Option<PositionString>,
}

impl SavedGame {
    /// The game as a score sheet, to write with `Display` (`to_string()`, `write!`).
    ///
    /// ```
    /// use ploy_core::{Game, Move, Rules, Square};
    /// use ploy_sheet::SavedGame;
    /// let mut game = Game::new(Rules::standard());
    /// game.play(Move::new(Square::E3, Square::E4, 0))?;
    /// let sheet = SavedGame::new(game).sheet()?.to_string();
    /// assert!(sheet.ends_with("Round\tGreen\tRed\n1\te3-e4\nResult\tunfinished\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`WriteError`] if a header text would not read back as itself, or a player is named
    /// for a seat that does not play. (A game of any variant from any valid start position
    /// can be written: the start goes in the `Start` row as a two- or four-player position
    /// string.)
    pub fn sheet(&self) -> Result<SheetDisplay<'_>, WriteError> {
        let start = self.check()?;
        Ok(SheetDisplay { saved: self, start })
    }

    /// The game as a score sheet.
    ///
    /// # Errors
    /// As [`SavedGame::sheet`].
    pub fn to_sheet(&self) -> Result<String, WriteError> {
        Ok(self.sheet()?.to_string())
    }
}

impl fmt::Display for SheetDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let game = &self.saved.game;
        let header = &self.saved.header;
        let variant = game.position().variant();
        writeln!(f, "{SHEET_TITLE}")?;
        write_text_rows(f, header)?;
        writeln!(f, "{}\t{}", Key::Variant.sheet_label(), variant)?;
        for (key, value) in rule_values(variant, game.rules()) {
            writeln!(f, "{}\t{value}", key.sheet_label())?;
        }
        if let Some(start) = &self.start {
            writeln!(f, "{}\t{start}", Key::Start.sheet_label())?;
        }
        let seats: Vec<Seat> = variant.seats().iter().collect();
        for &seat in &seats {
            match header.players.get(seat) {
                Some(name) => writeln!(f, "{}\t{name}", seat_title(seat))?,
                None => writeln!(f, "{}", seat_title(seat))?,
            }
        }
        f.write_str("Round")?;
        for &seat in &seats {
            write!(f, "\t{}", seat_title(seat))?;
        }
        f.write_str("\n")?;
        let mut round = 0;
        let mut last_col = usize::MAX;
        let mut row: Vec<Option<Cell>> = Vec::new();
        let positions = game.positions();
        let left: Vec<_> = game.withdrawals().collect();
        let mut left = left.iter().peekable();
        let n = game.moves().len();
        for i in 0..=n {
            // Players who left after `i` moves, then the move `i`, each in its seat's column.
            let mut cells: Vec<(Seat, Cell)> = Vec::new();
            while let Some(w) = left.next_if(|w| w.ply <= i) {
                cells.push((w.seat, Cell::Leaving(leaving_word(w.reason))));
            }
            if let (Some(pos), Some(&mv)) = (positions.get(i), game.moves().get(i)) {
                cells.push((pos.turn(), Cell::Move(AlgebraicMove::from_move(pos, mv))));
            }
            for (seat, cell) in cells {
                let col = seats.iter().position(|&s| s == seat).unwrap_or(0);
                if last_col == usize::MAX || col <= last_col {
                    if round > 0 {
                        write_row(f, round, &row)?;
                    }
                    round += 1;
                    row = vec![None; seats.len()];
                }
                row[col] = Some(cell);
                last_col = col;
            }
        }
        if round > 0 {
            write_row(f, round, &row)?;
        }
        let result = ResultText(game.outcome());
        write!(f, "{}\t{}", Key::Result.sheet_label(), result.who())?;
        if let Some(reason) = result.reason() {
            write!(f, "\t{reason}")?;
        }
        f.write_str("\n")
    }
}

fn write_text_rows(f: &mut fmt::Formatter<'_>, header: &Header) -> fmt::Result {
    for (key, value) in [
        (Key::Event, &header.event),
        (Key::Date, &header.date),
        (Key::TimeControl, &header.time_control),
    ] {
        if let Some(v) = value {
            writeln!(f, "{}\t{v}", key.sheet_label())?;
        }
    }
    Ok(())
}

/// One cell of a round: a move, or a free-for-all player's leaving.
#[derive(Clone, Copy, Debug)]
enum Cell {
    Move(AlgebraicMove),
    Leaving(&'static str),
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Move(m) => write!(f, "{m}"),
            Cell::Leaving(w) => f.write_str(w),
        }
    }
}

fn write_row(f: &mut fmt::Formatter<'_>, round: u32, row: &[Option<Cell>]) -> fmt::Result {
    write!(f, "{round}")?;
    let used = row.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
    for cell in &row[..used] {
        f.write_str("\t")?;
        if let Some(mv) = cell {
            write!(f, "{mv}")?;
        }
    }
    f.write_str("\n")
}

/// A row's cells: the 1-based column where each cell's text starts, and the text trimmed.
fn cells(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for part in line.split('\t') {
        let lead = part.len() - part.trim_start().len();
        out.push((column(line, at + lead), part.trim()));
        at += part.len() + 1;
    }
    while out.last().is_some_and(|c| c.1.is_empty()) {
        out.pop();
    }
    out
}

/// Reads a score sheet and replays its moves.
///
/// The reader is lenient about what people and spreadsheets do to a sheet: a byte order
/// mark at the start, blank lines
/// (also lines of tabs only) anywhere, `\r\n` line ends, spaces around cells, trailing tabs
/// (empty cells at the end of a row), upper-case letters in moves (`E3-e4`) and moves without
/// a separator (`e3e4`), keys, values and
/// seat names in any case and with spaces, `-` or `_` as one likes (`no capture limit`),
/// `Black`/`White` for Green/Red, a `.` after a round number, and every move spelling the
/// algebraic reader accepts (`-`/`x` either way, optional `#`, university strings). The `x`
/// and `#` marks are not checked. A sheet without a `Result` row takes the result the moves
/// give.
///
/// ```
/// let sheet = "Ploy score sheet\r\nVariant\ttwo-player\t\r\n\r\nRound\tGreen\tRed\n1\te3-e4\tE7-E6\t\n";
/// let saved = ploy_sheet::read_sheet(sheet)?;
/// assert_eq!(saved.game.moves().len(), 2);
///
/// let err = ploy_sheet::read_sheet("Ploy score sheet\nRound\tGreen\tRed\n1\te3-e4\te7-e8\n").unwrap_err();
/// assert_eq!((err.line, err.column), (3, 9));
/// # Ok::<(), ploy_sheet::ReadError>(())
/// ```
///
/// # Errors
/// [`ReadError`] with the line, column and reason of the first problem: the title, a
/// header row, the column header, a round number, the first move that is malformed, not
/// legal, in the wrong column or after the end, a missing move followed by others, or a
/// result that is not what the moves give. No game is returned then.
pub fn read_sheet(text: &str) -> Result<SavedGame, ReadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = lines(text)
        .map(|(n, l)| (n, cells(l), l))
        .filter(|(_, c, _)| !c.is_empty());
    let Some((n, title, _)) = rows.next() else {
        return Err(ReadError::new(1, 1, ReadErrorKind::Empty));
    };
    if title.len() != 1 || squash(title[0].1) != squash(SHEET_TITLE) {
        return Err(ReadError::new(
            n,
            title[0].0,
            ReadErrorKind::Title {
                expected: "`Ploy score sheet`",
            },
        ));
    }
    let mut raw = RawHeader::default();
    let mut last_line = n;
    let columns = loop {
        let Some((n, c, line)) = rows.next() else {
            break None;
        };
        last_line = n;
        let first = c[0].1;
        if squash(first) == "round" {
            break Some((n, c));
        }
        let Some(key) = Key::from_text(first).filter(|&k| k != Key::Result) else {
            if Key::from_text(first) == Some(Key::Result) {
                break Some((n, c));
            }
            return Err(ReadError::new(
                n,
                c[0].0,
                ReadErrorKind::UnknownKey(quote(first)),
            ));
        };
        if let Some(&(col, extra)) = c.get(2) {
            return Err(ReadError::new(
                n,
                col,
                ReadErrorKind::ExtraCell(quote(extra)),
            ));
        }
        let (col, value) = c.get(1).copied().unwrap_or((line.chars().count() + 1, ""));
        raw.add(key, value, n, col, first)
            .map_err(|k| ReadError::new(n, c[0].0, k))?;
    };
    let interp = raw
        .interpret()
        .map_err(|((l, c), k)| ReadError::new(l, c, k))?;
    let seats: Vec<Seat> = interp.variant.seats().iter().collect();
    let columns_error = || ReadErrorKind::Columns {
        expected: core::iter::once("Round")
            .chain(seats.iter().map(|&s| seat_title(s)))
            .collect::<Vec<_>>()
            .join(" "),
    };
    let Some((n, c)) = columns else {
        return Err(ReadError::new(last_line + 1, 1, columns_error()));
    };
    if squash(c[0].1) != "round" {
        return Err(ReadError::new(n, c[0].0, columns_error()));
    }
    for (i, &seat) in seats.iter().enumerate() {
        match c.get(i + 1) {
            Some(&(_, name)) if seat_from_name(&squash(name)) == Some(seat) => {}
            Some(&(col, _)) => return Err(ReadError::new(n, col, columns_error())),
            None => return Err(ReadError::new(n, c[0].0, columns_error())),
        }
    }
    if let Some(&(col, _)) = c.get(seats.len() + 1) {
        return Err(ReadError::new(n, col, columns_error()));
    }
    let mut game = start_game(interp.variant, interp.rules, interp.start)?;
    let mut round: u32 = 0;
    let mut pending = None;
    let mut claim = Claim::Unstated;
    let mut result_at = (last_line, 1);
    for (n, c, line) in rows {
        if matches!(claim, Claim::Stated(_)) {
            return Err(ReadError::new(
                n,
                c[0].0,
                ReadErrorKind::Unexpected {
                    after: "the result",
                },
            ));
        }
        let first = c[0].1;
        if Key::from_text(first) == Some(Key::Result) {
            if let Some(&(col, extra)) = c.get(3) {
                return Err(ReadError::new(
                    n,
                    col,
                    ReadErrorKind::ExtraCell(quote(extra)),
                ));
            }
            let (col, who) = c.get(1).copied().unwrap_or((c[0].0, ""));
            result_at = (n, col);
            let stated =
                parse_result(who, c.get(2).map(|x| x.1)).map_err(|k| ReadError::new(n, col, k))?;
            claim = Claim::Stated(stated);
            continue;
        }
        round = round.saturating_add(1);
        let number = first.strip_suffix('.').unwrap_or(first);
        if number.parse::<u32>() != Ok(round) {
            return Err(ReadError::new(
                n,
                c[0].0,
                ReadErrorKind::Round {
                    expected: round,
                    found: quote(first),
                },
            ));
        }
        if let Some(&(col, extra)) = c.get(seats.len() + 1) {
            return Err(ReadError::new(
                n,
                col,
                ReadErrorKind::ExtraCell(quote(extra)),
            ));
        }
        for (i, &seat) in seats.iter().enumerate() {
            let (col, cell) = c
                .get(i + 1)
                .copied()
                .unwrap_or((line.chars().count() + 1, ""));
            if cell.is_empty() {
                if pending.is_none() && game.outcome().is_none() && game.position().turn() == seat {
                    pending = Some((n, col, round, seat));
                }
                continue;
            }
            if let Some(reason) = parse_leaving(cell) {
                // A leaving may stand where the seat to move left an empty cell: his move
                // comes in a later round.
                pending = None;
                leave(&mut game, seat, reason, cell).map_err(|k| ReadError::new(n, col, k))?;
                continue;
            }
            if let Some((pl, pc, round, seat)) = pending {
                return Err(ReadError::new(
                    pl,
                    pc,
                    ReadErrorKind::MissingMove { round, seat },
                ));
            }
            let turn = game.position().turn();
            if game.outcome().is_none() && turn != seat {
                return Err(ReadError::new(
                    n,
                    col,
                    ReadErrorKind::WrongColumn { round, seat, turn },
                ));
            }
            let mv = AlgebraicMove::from_ascii(cell.as_bytes()).map(|m| m.as_move());
            play_text(&mut game, (n, col), cell, mv)?;
        }
    }
    finish_at(game, claim, result_at, interp.header)
}
